"""The thread registry: one row per episode in the checkpoint database.

It says what each thread is (environment, question, created and updated
times) and how it stands (`running`, `awaiting_approval`, `interrupted`, or
how it ended), so `react-agent threads` lists episodes without loading every
state, and Ctrl-C can leave a thread marked `interrupted`. The checkpoints
stay the truth about an episode; the registry is kept current by whoever
drives it: the CLI, and the graph's nodes (so threads run by the LangGraph
server appear too).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.store.processes import utc_now
from graph.store.tables import LocalConnections, attached

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS threads (thread_id TEXT PRIMARY KEY, env TEXT NOT NULL,"
    " question TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL,"
    " updated_at TEXT NOT NULL)"
)
COLUMNS = ("thread_id", "env", "question", "status", "created_at", "updated_at")
REGISTER = (
    f"INSERT INTO threads ({', '.join(COLUMNS)}) VALUES ({{marks}}) ON CONFLICT (thread_id)"
    " DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at,"
    " env = CASE WHEN threads.env = '' THEN excluded.env ELSE threads.env END,"
    " question = CASE WHEN threads.question = '' THEN excluded.question"
    " ELSE threads.question END"
)
"""Add a thread or update its status; `marks` are the driver's six parameter markers."""


@dataclass(frozen=True)
class ThreadRow:
    """One registered thread."""

    thread_id: str
    env: str
    question: str
    status: str
    created_at: str
    updated_at: str


class ThreadRegistry:
    """The `threads` table of one SQLite checkpoint database."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._connections = LocalConnections(self.path, SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        return self._connections.get()

    def register(self, thread_id: str, env: str, question: str, status: str = "running") -> None:
        """Add a thread, or bring its status up to date if it is there already."""
        now = utc_now()
        self._conn().execute(
            REGISTER.format(marks=", ".join("?" * len(COLUMNS))),
            (thread_id, env, question, status, now, now),
        )

    def set_status(self, thread_id: str, status: str) -> None:
        """Record a thread's new status (a thread not registered yet is left alone)."""
        self._conn().execute(
            "UPDATE threads SET status = ?, updated_at = ? WHERE thread_id = ?",
            (status, utc_now(), thread_id),
        )

    def forget(self, thread_id: str) -> None:
        """Remove a thread (one whose every checkpoint was rolled back)."""
        self._conn().execute("DELETE FROM threads WHERE thread_id = ?", (thread_id,))

    def get(self, thread_id: str) -> ThreadRow | None:
        """One thread's row, or None."""
        row = (
            self._conn()
            .execute(f"SELECT {', '.join(COLUMNS)} FROM threads WHERE thread_id = ?", (thread_id,))
            .fetchone()
        )
        return ThreadRow(*row) if row else None

    def rows(self) -> list[ThreadRow]:
        """Every registered thread, most recently updated first."""
        query = f"SELECT {', '.join(COLUMNS)} FROM threads ORDER BY updated_at DESC, rowid DESC"
        return [ThreadRow(*row) for row in self._conn().execute(query)]


def registry_of(checkpointer: Any) -> ThreadRegistry | None:
    """The thread registry of a checkpointer's database (None for in-memory savers)."""
    registry: ThreadRegistry | None = attached(checkpointer, "thread_registry", ThreadRegistry)
    return registry
