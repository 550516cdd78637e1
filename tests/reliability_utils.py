"""Helpers for attacking the CLI with real processes: slow scripted models, waits, kills,
and the checks that say whether the checkpoints and the audit log tell the truth."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESERVE_QUESTION = "请帮我预约《数据库入门图解》纸质版。"
RESERVE_SCRIPT = [
    "Thought: find it\nAction: search_catalog[数据库入门图解]",
    "Thought: check\nAction: get_copy_status[W22]",
    "Thought: the patron asked to reserve it\nAction: reserve_copy[W22]",
    "Thought: done\nAction: Finish[Copy W22 at West Library, shelf B-12 is reserved for you.]",
]


def start_cli(*args: str) -> subprocess.Popen[str]:
    """`python -m graph.cli ARGS` started in the background, output captured as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "graph.cli", *args],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str], timeout: float = 180) -> tuple[int, str, str]:
    """Wait for a started process; its exit status, stdout and stderr."""
    out, err = process.communicate(timeout=timeout)
    return process.returncode, out, err


def write_model(path: Path, replies: list[str], delay_s: float = 0.0) -> str:
    """A scripted model file (waiting `delay_s` per call); returns its `--model` spec."""
    path.write_text(
        json.dumps({"responses": replies, "delay_s": delay_s}, ensure_ascii=False),
        encoding="utf-8",
    )
    return f"scripted:{path}"


def wait_for(condition: Callable[[], bool], timeout: float = 60.0, what: str = "") -> None:
    """Poll `condition` until it holds; fail the test after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what or condition}")


def checkpoint_count(db: Path, thread_id: str) -> int:
    """How many checkpoints a thread has (0 while the file or table does not exist)."""
    if not db.exists():
        return 0
    conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        row = conn.execute(
            "SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread_id,)
        ).fetchone()
        return int(row[0])
    except sqlite3.OperationalError:
        return 0
    finally:
        conn.close()


def audit_problems(rows: list[dict[str, Any]], reservations: list[dict[str, Any]]) -> list[str]:
    """Where the audit log does not tell the truth about what ran.

    Every reservation has exactly one `reserved` executed row, for a request
    whose first decision approves it; no executed row belongs to a request
    whose decision of record rejects or denies it, or that has none; a request
    has one decision (its first) unless later ones only replay it.
    """
    problems = []
    decisions: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["event"] == "decision":
            decisions.setdefault(row["request_id"], []).append(row["detail"])
    for request_id, made in decisions.items():
        if any(detail != made[0] for detail in made[1:]):
            problems.append(f"request {request_id} has different decisions: {made}")
    executed = [row for row in rows if row["event"] == "executed"]
    for row in executed:
        first = (decisions.get(row["request_id"]) or [{}])[0]
        if first.get("type") not in ("approve", "edit"):
            problems.append(f"executed row {row['audit_id']} without an approval: {first}")
    for reservation in reservations:
        rows_for = [
            r
            for r in executed
            if r["detail"].get("reservation_id") == reservation["reservation_id"]
            and r["detail"].get("outcome") == "reserved"
        ]
        if len(rows_for) != 1:
            problems.append(
                f"reservation {reservation['reservation_id']} has {len(rows_for)} executed rows"
            )
    return problems
