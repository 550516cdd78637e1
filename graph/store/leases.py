"""One driver per thread: a lease, taken before a process reads the state it will act on.

LangGraph has no compare-and-set on a thread: two processes that stream the
same thread both run, and both resume values apply. So every driver (the
CLI's `ask` and `resume`, a decision, a LangGraph server run) holds the
thread's lease while it drives it. `ThreadLease` is the interface; the SQLite
implementation keeps one row per thread in the checkpoint database and changes
it only by compare-and-set inside `BEGIN IMMEDIATE`; the PostgreSQL one
(`graph.store.pg_leases`) holds an advisory lock, released with its session.

A holder is an owner token plus where it runs (host, pid, the process's
start time) and since when. It renews the lease while it works (a heartbeat
every third of the time to live: `graph.store.heartbeats`); a lease whose holder process is dead on
this host (gone, a zombie, or its pid reused by a younger process) is taken
over at once, any other one when it expires.

Each take-over gives the lease a new fencing token (one more than the last,
kept in the row, which a release only marks released). The holder's writes
carry it (`token_of`) and are refused when a newer one exists
(`tools.fencing`); a holder that finds its token gone stops (`LeaseLostError`).
The time to live is `$REACT_AGENT_LEASE_TTL` seconds (default 30).
"""

from __future__ import annotations

import os
import socket
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from graph.errors import AgentError, DatabaseError, LeaseHeldError, LeaseLostError
from graph.store.processes import ThisProcess, process_alive, utc_now
from graph.store.tables import LocalConnections, attached

LEASE_TTL_S = 30.0
TTL_ENV_VAR = "REACT_AGENT_LEASE_TTL"
MAX_TTL_S = 86400.0
BAD_TTL = (
    "{var}={value!r}: the lease's time to live must be a number of seconds above 0 and at"
    " most {most:g}"
)
HELD_BY_OTHER = "thread {thread_id} is being run by another process since {since} ({where})"
FILE_GONE = (
    "the checkpoint database {path} was deleted or replaced while thread {thread_id} was "
    "running: the checkpoints written to it went with the old file, and nothing more is run"
)
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS thread_leases (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL,"
    " host TEXT NOT NULL, pid INTEGER NOT NULL, process_start TEXT NOT NULL,"
    " since TEXT NOT NULL, expires_at REAL NOT NULL, token INTEGER NOT NULL DEFAULT 0)"
)
COLUMNS = "thread_id, owner, host, pid, process_start, since, expires_at, token"
RELEASED = 0.0
"""The `expires_at` of a released lease: the row stays, keeping the thread's last token."""


def lease_ttl_s() -> float:
    """The lease's time to live: `$REACT_AGENT_LEASE_TTL` seconds, else `LEASE_TTL_S`."""
    value = os.environ.get(TTL_ENV_VAR, "").strip()
    if not value:
        return LEASE_TTL_S
    try:
        seconds = float(value)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= MAX_TTL_S:
        raise AgentError(BAD_TTL.format(var=TTL_ENV_VAR, value=value, most=MAX_TTL_S))
    return seconds


def add_token_column(conn: sqlite3.Connection) -> None:
    """Give a lease table made before fencing tokens its `token` column."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(thread_leases)")}
    if "token" in columns:
        return
    try:
        conn.execute("ALTER TABLE thread_leases ADD COLUMN token INTEGER NOT NULL DEFAULT 0")
    except sqlite3.OperationalError as error:
        if "duplicate column" not in str(error):
            raise


@dataclass(frozen=True)
class Holder:
    """Who holds a thread's lease, where it runs, since when, and until when unless renewed."""

    thread_id: str
    owner: str
    host: str
    pid: int
    process_start: str
    since: str
    expires_at: float
    token: int = 0

    def message(self) -> str:
        """The one line a process that lost the race prints."""
        where = f"pid {self.pid} on {self.host}"
        return HELD_BY_OTHER.format(thread_id=self.thread_id, since=self.since, where=where)


class ThreadLease(Protocol):
    """A lease per thread: at most one live owner at a time."""

    ttl_s: float

    def acquire(self, thread_id: str, owner: str) -> bool:
        """Take (or keep) the lease for `owner`; True when it was not held by `owner` before.

        Raises `LeaseHeldError` when another live owner holds it.
        """
        ...

    def renew(self, thread_id: str, owner: str) -> bool:
        """Push the expiry on; False when `owner` no longer holds the lease."""
        ...

    def release(self, thread_id: str, owner: str) -> None:
        """Give the lease up (nothing happens when `owner` does not hold it)."""
        ...

    def holder(self, thread_id: str) -> Holder | None:
        """The current holder, live or not, or None."""
        ...

    def check_file(self, thread_id: str) -> None:
        """Raise `DatabaseError` when the database was deleted or replaced while in use."""
        ...

    def live_holders(self) -> dict[str, Holder]:
        """Every thread whose lease counts right now (for listings)."""
        ...

    def token_of(self, thread_id: str) -> int | None:
        """The fencing token of the lease this process holds on the thread, else None."""
        ...

    def lost(self, thread_id: str) -> LeaseLostError:
        """The error of a write refused for a newer token: who took the thread, when."""
        ...


def new_owner() -> str:
    """A fresh owner token for one command."""
    return f"cli:{uuid.uuid4().hex}"


def holder_alive(holder: Holder, now: float | None = None) -> bool:
    """Whether `holder` still counts: not expired, and its process alive if it is on this host."""
    if holder.expires_at <= (time.time() if now is None else now):
        return False
    if holder.host == socket.gethostname():
        return process_alive(holder.pid, holder.process_start)
    return True


class TokenBook:
    """What both lease stores answer from the thread's row (`_row`) and the tokens this
    process holds (`_tokens`: thread id -> (owner, token))."""

    _tokens: dict[str, tuple[str, int]]

    def _row(self, thread_id: str) -> Holder | None:
        raise NotImplementedError

    def holder(self, thread_id: str) -> Holder | None:
        """The current holder, live or not, or None (also when it was released)."""
        row = self._row(thread_id)
        return row if row is not None and row.expires_at != RELEASED else None

    def token_of(self, thread_id: str) -> int | None:
        """The fencing token of the lease this process holds on the thread, else None."""
        held = self._tokens.get(thread_id)
        return held[1] if held else None

    def lost(self, thread_id: str) -> LeaseLostError:
        """The error of a write refused for a newer token. The token stays this process's
        until the lease is released, so every later write of the stale holder is refused too."""
        row = self._row(thread_id)
        return LeaseLostError(thread_id, row.since if row is not None else "")


class SqliteThreadLease(TokenBook):
    """`ThreadLease` on a table of the SQLite checkpoint database."""

    def __init__(self, path: str | Path, ttl_s: float | None = None) -> None:
        self.path = Path(path)
        self.ttl_s = lease_ttl_s() if ttl_s is None else ttl_s
        self._connections = LocalConnections(self.path, SCHEMA, add_token_column)
        self._identity = self._file_identity()
        self._tokens: dict[str, tuple[str, int]] = {}

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.path)
        except OSError:
            return None
        return info.st_dev, info.st_ino

    def _conn(self) -> sqlite3.Connection:
        return self._connections.get()

    def check_file(self, thread_id: str) -> None:
        """Raise `DatabaseError` when the file is gone or is another file now."""
        if self._identity is None or self._file_identity() != self._identity:
            raise DatabaseError(FILE_GONE.format(path=self.path, thread_id=thread_id))

    def _row(self, thread_id: str) -> Holder | None:
        """The thread's row, released or not."""
        query = f"SELECT {COLUMNS} FROM thread_leases WHERE thread_id = ?"
        row = self._conn().execute(query, (thread_id,)).fetchone()
        return Holder(*row) if row else None

    def _refuse_if_taken_over(self, thread_id: str, owner: str, row: Holder | None) -> None:
        """Raise `LeaseLostError` when `owner` held the lease here and another took it since."""
        held = self._tokens.get(thread_id)
        if held is not None and held[0] == owner and (row is None or row.token != held[1]):
            raise LeaseLostError(thread_id, row.since if row is not None else "")

    def acquire(self, thread_id: str, owner: str) -> bool:
        """Compare-and-set in one `BEGIN IMMEDIATE`; see `ThreadLease.acquire`. A take-over
        raises the token; `LeaseLostError` when `owner`'s own was taken over meanwhile."""
        self.check_file(thread_id)
        me = ThisProcess.current()
        conn = self._conn()
        conn.execute("BEGIN IMMEDIATE")
        try:
            row = self._row(thread_id)
            self._refuse_if_taken_over(thread_id, owner, row)
            current = row if row is not None and row.expires_at != RELEASED else None
            now = time.time()
            if current is not None and current.owner != owner and holder_alive(current, now):
                raise LeaseHeldError(current.message())
            kept = current is not None and current.owner == owner
            since = current.since if kept and current is not None else utc_now()
            last = row.token if row is not None else 0
            token = last if kept else last + 1
            conn.execute(
                f"INSERT OR REPLACE INTO thread_leases ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (thread_id, owner, me.host, me.pid, me.start, since, now + self.ttl_s, token),
            )
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
        self._tokens[thread_id] = (owner, token)
        return not kept

    def renew(self, thread_id: str, owner: str) -> bool:
        """Push the expiry on; False when `owner` lost the lease (or released it)."""
        cursor = self._conn().execute(
            "UPDATE thread_leases SET expires_at = ? WHERE thread_id = ? AND owner = ?"
            " AND expires_at != ?",
            (time.time() + self.ttl_s, thread_id, owner, RELEASED),
        )
        return cursor.rowcount == 1

    def release(self, thread_id: str, owner: str) -> None:
        """Mark the row released if `owner` holds it (it keeps the thread's token); see
        `graph.store.heartbeats.release`, which also forgets the heartbeat's renewal."""
        held = self._tokens.get(thread_id)
        if held is not None and held[0] == owner:
            self._tokens.pop(thread_id, None)
        self._conn().execute(
            "UPDATE thread_leases SET expires_at = ? WHERE thread_id = ? AND owner = ?",
            (RELEASED, thread_id, owner),
        )

    def live_holders(self) -> dict[str, Holder]:
        """Every thread whose lease counts right now (for listings)."""
        rows = self._conn().execute(f"SELECT {COLUMNS} FROM thread_leases")
        holders = [Holder(*row) for row in rows]
        return {h.thread_id: h for h in holders if holder_alive(h)}


def lease_of(checkpointer: Any) -> ThreadLease | None:
    """The thread lease of a checkpointer's database (None for in-memory savers)."""
    lease: ThreadLease | None = attached(checkpointer, "thread_lease", SqliteThreadLease)
    return lease


def driven(checkpointer: Any, thread_id: str) -> bool | None:
    """Whether a live process holds the thread's lease (None where the store keeps no
    leases): a `running` episode nobody drives was left by a process that ended."""
    lease = lease_of(checkpointer)
    return None if lease is None else thread_id in lease.live_holders()
