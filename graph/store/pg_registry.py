"""The thread registry on PostgreSQL: `graph.store.registry.ThreadRegistry`'s table and
methods, on the checkpoint database's connection pool.

A failure to reach the server becomes a one-line `DatabaseError` naming what
was being recorded, so callers handle it as they do any of the agent's errors.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from graph.errors import DatabaseError
from graph.store.leases import ThreadLease
from graph.store.pg_connection import reason_of
from graph.store.processes import utc_now
from graph.store.registry import COLUMNS, REGISTER, ThreadRow

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS threads (thread_id TEXT PRIMARY KEY, env TEXT NOT NULL,"
    " question TEXT NOT NULL, status TEXT NOT NULL, created_at TEXT NOT NULL,"
    " updated_at TEXT NOT NULL, seq BIGSERIAL NOT NULL)"
)
FAILED = "the thread registry of the checkpoint database failed: {reason}"
NEWER = "EXISTS (SELECT 1 FROM thread_leases WHERE thread_id = %s AND token > %s)"


class PostgresThreadRegistry:
    """The `threads` table of one PostgreSQL checkpoint database."""

    def __init__(self, pool: ConnectionPool[Any]) -> None:
        self.pool = pool
        self.lease: ThreadLease | None = None

    @staticmethod
    def create_table(conn: psycopg.Connection[Any]) -> None:
        """Create the table if needed."""
        conn.execute(SCHEMA)

    @contextmanager
    def _conn(self) -> Iterator[psycopg.Connection[Any]]:
        try:
            with self.pool.connection() as conn:
                yield conn
        except psycopg.OperationalError as error:
            raise DatabaseError(FAILED.format(reason=reason_of(error))) from None

    def _fenced(self, sql: str, params: tuple[Any, ...], thread_id: str) -> None:
        """Run one write; while this process holds a lease on the thread, only if no newer
        one was taken (`LeaseLostError` then, and nothing changed)."""
        token = self.lease.token_of(thread_id) if self.lease is not None else None
        with self._conn() as conn:
            if token is None or self.lease is None:
                conn.execute(sql, params)
                return
            fenced = sql.replace("VALUES (", "SELECT ").replace(
                ") ON CONFLICT", f" WHERE NOT {NEWER} ON CONFLICT"
            )
            if fenced == sql:
                fenced = f"{sql} AND NOT {NEWER}"
            if conn.execute(fenced, (*params, thread_id, token)).rowcount:
                return
            newer = conn.execute(f"SELECT {NEWER} AS newer", (thread_id, token)).fetchone()
            if not (newer or {}).get("newer"):
                return  # a status for a thread not registered: nothing to change
        raise self.lease.lost(thread_id)

    def register(self, thread_id: str, env: str, question: str, status: str = "running") -> None:
        """Add a thread, or bring its status up to date if it is there already."""
        now = utc_now()
        sql = REGISTER.format(marks=", ".join(["%s"] * len(COLUMNS)))
        self._fenced(sql, (thread_id, env, question, status, now, now), thread_id)

    def set_status(self, thread_id: str, status: str) -> None:
        """Record a thread's new status (a thread not registered yet is left alone)."""
        sql = "UPDATE threads SET status = %s, updated_at = %s WHERE thread_id = %s"
        self._fenced(sql, (status, utc_now(), thread_id), thread_id)

    def forget(self, thread_id: str) -> None:
        """Remove a thread (one whose every checkpoint was rolled back)."""
        with self._conn() as conn:
            conn.execute("DELETE FROM threads WHERE thread_id = %s", (thread_id,))

    def get(self, thread_id: str) -> ThreadRow | None:
        """One thread's row, or None."""
        with self._conn() as conn:
            row = conn.execute(
                f"SELECT {', '.join(COLUMNS)} FROM threads WHERE thread_id = %s", (thread_id,)
            ).fetchone()
        return ThreadRow(**row) if row else None

    def rows(self) -> list[ThreadRow]:
        """Every registered thread, most recently updated first."""
        query = f"SELECT {', '.join(COLUMNS)} FROM threads ORDER BY updated_at DESC, seq DESC"
        with self._conn() as conn:
            return [ThreadRow(**row) for row in conn.execute(query)]
