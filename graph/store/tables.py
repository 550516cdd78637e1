"""Small tables the project keeps in the checkpoint database next to LangGraph's own.

The lease and registry stores open their own connections (one per thread) to
the checkpoint file, never creating it: a file deleted while in use must not
come back empty. A checkpointer carries its stores as attributes, so the
nodes find them from the checkpointer LangGraph hands them.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

BUSY_TIMEOUT_S = 30.0


def connect_existing(path: Path) -> sqlite3.Connection:
    """An autocommit connection to an existing database file; never creates one (a file
    deleted while in use must not come back empty)."""
    uri = f"{path.resolve().as_uri()}?mode=rw"
    return sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)


def database_file(conn: sqlite3.Connection) -> Path | None:
    """The file of an open SQLite connection's main database (None in memory)."""
    for _, name, file in conn.execute("PRAGMA database_list"):
        if name == "main":
            return Path(file) if file else None
    return None


def attached(checkpointer: Any, name: str, make: Callable[[Path], Any]) -> Any:
    """The store `name` attached to a checkpointer (the server attaches its own), else one
    made on the SQLite file of a `SqliteSaver` and attached, else None (in-memory savers)."""
    if checkpointer is None:
        return None
    found = getattr(checkpointer, name, None)
    if found is not None:
        return found
    conn = getattr(checkpointer, "conn", None)
    path = database_file(conn) if isinstance(conn, sqlite3.Connection) else None
    if path is None:
        return None
    found = make(path)
    setattr(checkpointer, name, found)
    return found


class LocalConnections:
    """One autocommit connection per thread to an existing database, with `schema` (and
    `migrate`, if any) run once."""

    def __init__(
        self, path: Path, schema: str, migrate: Callable[[sqlite3.Connection], None] | None = None
    ) -> None:
        self.path = path
        self.schema = schema
        self.migrate = migrate
        self._local = threading.local()

    def get(self) -> sqlite3.Connection:
        """This thread's connection."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = connect_existing(self.path)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute(self.schema)
            if self.migrate is not None:
                self.migrate(conn)
            self._local.conn = conn
        return conn


def checkpointed_threads(conn: sqlite3.Connection) -> list[str]:
    """Thread ids with checkpoints in the database, most recently written first (none
    when LangGraph's tables are not there yet)."""
    if not conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'checkpoints'"
    ).fetchone():
        return []
    query = "SELECT thread_id FROM checkpoints GROUP BY thread_id ORDER BY MAX(rowid) DESC"
    return [str(thread_id) for (thread_id,) in conn.execute(query)]
