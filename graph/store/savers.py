"""Checkpoint savers on an SQLite file, set up the same way for the CLI and the server."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from langgraph.checkpoint.sqlite import SqliteSaver

from tools.dbfiles import CHECKPOINTS, check_file, claim, describe_error


def open_sqlite_saver(path: str | Path, *, create: bool = True) -> SqliteSaver:
    """A `SqliteSaver` on `path` (WAL, synchronous=NORMAL), created if needed and allowed.

    Raises `DatabaseFileError` (one line naming the file) for a missing file when
    `create` is False, a file of another kind, a damaged file or an unwritable directory.
    """
    db = check_file(path, CHECKPOINTS, create=create)
    try:
        conn = sqlite3.connect(db, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        claim(conn, CHECKPOINTS)
        saver = SqliteSaver(conn)
        saver.setup()
    except sqlite3.Error as error:
        raise describe_error(db, CHECKPOINTS, error) from None
    return saver
