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

from graph.store.leases import ThreadLease, lease_of
from graph.store.processes import utc_now
from graph.store.tables import LocalConnections, attached

NEWER = "EXISTS (SELECT 1 FROM thread_leases WHERE thread_id = ? AND token > ?)"

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
        self.lease: ThreadLease | None = None

    def _conn(self) -> sqlite3.Connection:
        return self._connections.get()

    def _token(self, thread_id: str) -> int | None:
        return self.lease.token_of(thread_id) if self.lease is not None else None

    def _fenced(self, sql: str, params: tuple[Any, ...], thread_id: str, token: int | None) -> None:
        """Run one write; with this process's lease `token` on the thread, `sql` ends with
        the fence, and a process whose thread was taken over changes nothing
        (`LeaseLostError`)."""
        conn = self._conn()
        if token is None or self.lease is None:
            conn.execute(sql, params)
            return
        changed = conn.execute(sql, (*params, thread_id, token)).rowcount
        if not changed and conn.execute(f"SELECT {NEWER}", (thread_id, token)).fetchone()[0]:
            raise self.lease.lost(thread_id)

    def register(self, thread_id: str, env: str, question: str, status: str = "running") -> None:
        """Add a thread, or bring its status up to date if it is there already."""
        now = utc_now()
        token = self._token(thread_id)
        marks = ", ".join("?" * len(COLUMNS))
        sql = REGISTER.format(marks=marks)
        if token is not None:
            sql = sql.replace(f"VALUES ({marks})", f"SELECT {marks} WHERE NOT {NEWER}")
        self._fenced(sql, (thread_id, env, question, status, now, now), thread_id, token)

    def set_status(self, thread_id: str, status: str) -> None:
        """Record a thread's new status (a thread not registered yet is left alone)."""
        token = self._token(thread_id)
        sql = "UPDATE threads SET status = ?, updated_at = ? WHERE thread_id = ?"
        fence = f" AND NOT {NEWER}" if token is not None else ""
        self._fenced(sql + fence, (status, utc_now(), thread_id), thread_id, token)

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
    if registry is not None and getattr(registry, "lease", None) is None:
        registry.lease = lease_of(checkpointer)
    return registry
