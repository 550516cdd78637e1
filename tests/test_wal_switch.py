"""A new SQLite file opened by several processes at once goes to WAL mode in every one.

Switching a new file to WAL escalates a shared lock to an exclusive one, and SQLite
answers a racing process "database is locked" at once (its busy handler is not called),
which once failed one of eight processes creating the library database. Every file the
project writes switches through `tools.dbfiles.use_wal`, which tries again.
"""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from pathlib import Path

import pytest

from graph.store.sqlite_format import connect
from tools.dbfiles import use_wal

pytestmark = pytest.mark.slow

PROCESSES = 8
ROUNDS = 6


def _switch(path: str, start: float, how: str) -> str:
    while time.time() < start:
        pass
    try:
        if how == "checkpoints":
            conn = connect(path)
        else:
            conn = sqlite3.connect(path, timeout=5)
            conn.execute("SELECT count(*) FROM sqlite_master").fetchall()
            use_wal(conn)
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        conn.close()
        return str(mode)
    except sqlite3.Error as error:
        return f"{type(error).__name__}: {error}"


@pytest.mark.parametrize("how", ["use_wal", "checkpoints"])
def test_processes_switching_one_new_file_at_once_all_get_wal(tmp_path: Path, how: str) -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(PROCESSES) as pool:
        for round_number in range(ROUNDS):
            path = tmp_path / f"new-{round_number}.sqlite3"
            with sqlite3.connect(path) as setup:
                setup.execute("CREATE TABLE t (x)")
            setup.close()
            start = time.time() + 0.5
            modes = pool.starmap(_switch, [(str(path), start, how)] * PROCESSES)
            assert modes == ["wal"] * PROCESSES


def test_an_error_other_than_a_lock_is_raised_at_once(tmp_path: Path) -> None:
    conn = sqlite3.connect(tmp_path / "closed.sqlite3")
    conn.close()
    started = time.monotonic()
    with pytest.raises(sqlite3.ProgrammingError):
        use_wal(conn)
    assert time.monotonic() - started < 1
