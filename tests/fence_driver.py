"""`react-agent ARGS` in a process that stops itself (SIGSTOP) at a chosen point.

    python tests/fence_driver.py POINT MARKER ARGS...

POINT is `model:N` (before the Nth model call of this process) or `reserve`
(before the library's write, after its approval); MARKER is a file written just
before stopping, so a test knows the process stopped there and holds no lock.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

STOP_SETTLE_S = 0.05


def stopping_before(call: Callable[..., Any], marker: Path, nth: int = 1) -> Callable[..., Any]:
    """`call`, stopping this process before its `nth` call (once)."""
    calls = [0]

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == nth:
            marker.write_text(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGSTOP)
            # A signal sent to the own process is taken when a thread next enters the
            # kernel: this sleep is where the calling thread stops, not somewhere after.
            time.sleep(STOP_SETTLE_S)
        return call(*args, **kwargs)

    return wrapped


def main() -> int:
    """Patch the chosen point, then run the CLI."""
    point, marker, *args = sys.argv[1:]
    if point.startswith("model:"):
        from graph.testing import ScriptedReActModel

        nth = int(point.removeprefix("model:"))
        generate = stopping_before(ScriptedReActModel._generate, Path(marker), nth)
        ScriptedReActModel._generate = generate  # type: ignore[method-assign]
    elif point == "reserve":
        from tools.library.backend import LibraryBackend

        LibraryBackend.reserve = stopping_before(LibraryBackend.reserve, Path(marker))  # type: ignore[method-assign]
    else:
        raise SystemExit(f"unknown stop point {point!r}")
    from graph.cli import main as cli_main

    return cli_main(args)


if __name__ == "__main__":
    sys.exit(main())
