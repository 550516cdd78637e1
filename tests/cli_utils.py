"""Run `react-agent` in a separate process, as a user (or a second process) would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """`python -m graph.cli ARGS` from the repository root, output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "graph.cli", *args],
        cwd=ROOT,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=120,
    )
