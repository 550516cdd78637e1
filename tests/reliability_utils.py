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


def start_cli(*args: str, cwd: Path = ROOT) -> subprocess.Popen[str]:
    """`python -m graph.cli ARGS` started in the background (from `cwd`), output captured
    as text."""
    return subprocess.Popen(
        [sys.executable, "-m", "graph.cli", *args],
        cwd=cwd,
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


InProcess = Callable[..., tuple[int, str, str]]


def in_process(capsys: Any) -> InProcess:
    """`react-agent ARGS` run by `main` in this process: exit status, stdout, stderr
    (`capsys` is pytest's fixture)."""
    from graph.cli import main

    def call(*args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return call


def paused_reservation(tmp_path: Path, cli: InProcess) -> tuple[Path, Path, str]:
    """Thread `t`, a library episode waiting for approval of reserve_copy[W22]:
    (checkpoint db, library db, request id)."""
    from tools.library.db import ensure_database

    db, library = tmp_path / "episodes.sqlite3", ensure_database(tmp_path / "library.sqlite3")
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    code, out, err = cli(
        "ask", "--env", "library", RESERVE_QUESTION, "--model", model, "--db", str(db),
        "--library-db", str(library), "--thread-id", "t", "--json",
    )  # fmt: skip
    assert code == 5, err
    return db, library, str(json.loads(out)["pending"][0]["value"]["request_id"])
