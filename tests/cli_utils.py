"""Run `react-agent` in a separate process, as a user (or a second process) would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_cli(
    *args: str, cwd: Path = ROOT, stdin: str | None = None, **options: Any
) -> subprocess.CompletedProcess[str]:
    """`python -m graph.cli ARGS` (from the repository root unless `cwd` says otherwise),
    output captured as text; `stdin` is fed to standard input. Other `options` go to
    `subprocess.run` (e.g. `stdout=` a closed pipe)."""
    streams: dict[str, Any] = {"capture_output": True}
    if "stdout" in options:
        streams = {"stderr": subprocess.PIPE}
    return subprocess.run(
        [sys.executable, "-m", "graph.cli", *args],
        cwd=cwd,
        env=dict(os.environ),
        input=stdin,
        text=True,
        timeout=120,
        **streams,
        **options,
    )
