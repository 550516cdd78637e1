"""The SQLite checkpoint file's format, which the CLI's `CompactSqliteSaver`
(`graph.store.savers`) and the server's `CompactAsyncSqliteSaver` (`graph.store.aio`)
share: the connection pragmas, the writes table and the channel version scheme.

Channel versions are the zero-padded counter alone (`"000…0042"`, 32 digits):
`SqliteSaver` adds a random fraction (`"000…0042.8412…"`), which only a saver
keeping one blob per channel version needs. The LangGraph server wraps any
custom checkpointer in an adapter that always makes versions its own way
(counter + fraction, from `int(current.split(".")[0])`), so ours must order
with its: a bare counter sorts after every version with a smaller counter and
before the server's version of the same counter, so a thread that the CLI and
the server take turns on stays in order, and so does one written before.

Chosen by measurement (`benchmarks/bench_vs_prebuilt.py`, 200-step tours): blobs
compressed (`graph.store.serde`), the writes table without a rowid (-1.5 KB a
step: no index repeating its 110-byte key) and 4 KiB pages (6.8 KB a step,
against 7.0 with 8 KiB and 7.0-7.8 with 16 KiB, whose slack is larger now that
rows are small). WAL with `synchronous=NORMAL` (no fsync per commit; a crash
can lose the last commits but not corrupt the file).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tools.dbfiles import use_wal

PAGE_SIZE = 4096
WAL_PRAGMAS = ("PRAGMA journal_mode=WAL",)
PRAGMAS = (*WAL_PRAGMAS, "PRAGMA synchronous=NORMAL")
# `SqliteSaver`'s writes table, created first (in a new file) without a rowid: the rows
# live in their primary key's b-tree instead of a table plus an index repeating the key.
WRITES_TABLE = """
CREATE TABLE IF NOT EXISTS writes (
    thread_id TEXT NOT NULL,
    checkpoint_ns TEXT NOT NULL DEFAULT '',
    checkpoint_id TEXT NOT NULL,
    task_id TEXT NOT NULL,
    task_path TEXT NOT NULL DEFAULT '',
    idx INTEGER NOT NULL,
    channel TEXT NOT NULL,
    type TEXT,
    value BLOB,
    PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
) WITHOUT ROWID
"""
VERSION_DIGITS = 32


def new_file_pragmas() -> tuple[str, ...]:
    """What to run on a connection before anything else: the page size (it only
    takes effect on a file with no table yet), then `PRAGMAS`."""
    return (f"PRAGMA page_size={PAGE_SIZE}", *PRAGMAS)


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection to `path` with the pragmas every checkpoint file gets (WAL mode
    through `use_wal`, which waits for other processes switching a new file too)."""
    conn = sqlite3.connect(path, check_same_thread=False)
    for pragma in new_file_pragmas():
        if pragma in WAL_PRAGMAS:
            use_wal(conn)
        else:
            conn.execute(pragma)
    return conn


def next_version(current: str | int | None) -> str:
    """The version after `current`: its counter plus one, zero-padded to
    `VERSION_DIGITS` digits. `current` may be one of these, a version with a
    fraction (`SqliteSaver`'s, the server's), an int or None (a first version)."""
    if current is None:
        count = 0
    elif isinstance(current, int):
        count = current
    else:
        count = int(current.split(".", 1)[0])
    return f"{count + 1:0{VERSION_DIGITS}}"
