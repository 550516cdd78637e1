"""The model `bench_reliability.py` gives `react-agent`: scripted, slow, with a slow write.

`--model benchmarks/reliability_model.py:slow_model` loads the scripted
replies named by `REL_BENCH_SCRIPT` (a JSON list), waiting `REL_BENCH_DELAY_S`
seconds per call, and makes the library's one write (`reserve`) wait
`REL_BENCH_WRITE_DELAY_S` seconds before and after its transaction, so a kill
can land inside the write's step: before the hold is placed, or after it is
committed but before the step is checkpointed. Every process that loads the
model (the one that asks, and each that resumes) gets the same behaviour.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from graph.testing import ScriptedReActModel


def _slow_writes(seconds: float) -> None:
    from tools.library.backend import LibraryBackend

    original = LibraryBackend.reserve
    if getattr(original, "slowed", False):
        return

    def reserve(self: LibraryBackend, *args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        try:
            return original(self, *args, **kwargs)
        finally:
            time.sleep(seconds)

    reserve.slowed = True  # type: ignore[attr-defined]
    LibraryBackend.reserve = reserve  # type: ignore[method-assign]


def slow_model() -> ScriptedReActModel:
    """The scripted model of this process's trial (see the module docstring)."""
    replies = json.loads(Path(os.environ["REL_BENCH_SCRIPT"]).read_text(encoding="utf-8"))
    write_delay = float(os.environ.get("REL_BENCH_WRITE_DELAY_S", "0"))
    if write_delay:
        _slow_writes(write_delay)
    delay = float(os.environ.get("REL_BENCH_DELAY_S", "0"))
    return ScriptedReActModel(responses=replies, delay_s=delay)
