"""Helpers for the fencing tests: a CLI process that stops itself, and what the
databases hold for a thread (to show a woken stale process wrote nothing)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from cli_utils import run_cli
from library_utils import fetch
from reliability_utils import ROOT, finish, wait_for

from graph.cli.boundary import TAKEN_OVER

TTL_S = "1.5"
PATIENT = ("--tool-timeout-s", "30")
"""Library calls may take their time on a loaded machine (the first write of a new process)."""
TAKEN_OVER_EXIT = TAKEN_OVER
DRIVER = Path(__file__).resolve().parent / "fence_driver.py"


def start_stopping(point: str, marker: Path, *args: str) -> subprocess.Popen[str]:
    """`react-agent ARGS` in a process that stops itself at `point` (`fence_driver`); returns
    once it has stopped there."""
    process = subprocess.Popen(
        [sys.executable, str(DRIVER), point, str(marker), *args],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )

    def stopped() -> bool:
        if process.poll() is not None:
            raise AssertionError(f"it ended first: {finish(process)}")
        if not marker.exists():
            return False
        stat = Path(f"/proc/{process.pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] == "T"

    wait_for(stopped, what=f"the process to stop at {point}")
    return process


def lease_expired(db: str, thread_id: str) -> bool:
    """Whether the thread's lease row has passed its expiry (the holder stopped renewing)."""
    rows = fetch(db, "SELECT expires_at FROM thread_leases WHERE thread_id = :t", t=thread_id)
    return bool(rows) and float(rows[0][0]) < time.time()


def footprint(db: str, library: str, thread_id: str) -> dict[str, Any]:
    """Everything a process could have written about the thread."""
    writes = "checkpoint_writes" if db.startswith("postgresql") else "writes"
    one = {"t": thread_id}
    return {
        "checkpoints": fetch(db, "SELECT COUNT(*) FROM checkpoints WHERE thread_id = :t", **one),
        "writes": fetch(db, f"SELECT COUNT(*) FROM {writes} WHERE thread_id = :t", **one),
        "registry": fetch(db, "SELECT status, updated_at FROM threads WHERE thread_id = :t", **one),
        "audit": fetch(library, "SELECT COUNT(*) FROM audit_log WHERE thread_id = :t", **one),
        "reservations": fetch(library, "SELECT reservation_id, copy_id FROM reservations"),
    }


def wake_and_check(stale: subprocess.Popen[str], db: str, library: str, thread_id: str) -> None:
    """Wake the stale process: it prints the one line, exits with its code, and the databases
    hold what they held; `show` and `threads` keep the finished status."""
    before = footprint(db, library, thread_id)
    stale.send_signal(signal.SIGCONT)
    code, _, err = finish(stale)
    lines = err.strip().splitlines()
    assert code == TAKEN_OVER_EXIT, err
    assert len(lines) == 1 and lines[0].startswith(
        f"react-agent: thread {thread_id} was taken over by another process at 20"
    ), err
    assert lines[0].endswith("; this process stopped without writing"), err
    assert footprint(db, library, thread_id) == before
    assert before["registry"][0][0] == "verified"
    assert len(before["reservations"]) == 1
    shown = run_cli("show", thread_id, "--db", db)
    assert shown.returncode == 0 and "Answer (verified)" in shown.stdout, shown.stderr
    listed = run_cli("threads", "--db", db)
    assert f"{thread_id}  verified" in listed.stdout, listed.stdout
