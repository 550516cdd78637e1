"""The thread lease on PostgreSQL: a session-level advisory lock per thread.

`acquire` opens a connection of its own and takes `pg_try_advisory_lock` on a
64-bit hash of the thread id; the lock is held for as long as that session
lives, so a process that is killed (or loses its connection) frees it at
once, on any machine, with no expiry to wait for. Next to the lock a holder
row (owner, host, pid, since) says who holds it, so the loser's one line can
name the time; a row whose lock is no longer held is stale and is simply
overwritten by the next holder.

Within one process (the LangGraph server runs many threads' runs) owners
are told apart by the row: an owner whose lease expired without renewal is
taken over by the next owner in the same process, as the SQLite lease does;
a sweeper also closes such leases so other processes can take them. (A
server run releases its lease when its stream ends, cancelled or not:
`graph.store.server_runs`; expiry is the fallback.)

The row also keeps the thread's fencing token (`graph.store.leases`): one more
at every take-over, kept when the lease is released. A lease whose row expired
(its holder stopped renewing: a frozen process keeps its session, and with it
the lock) is taken over by ending the holder's session
(`pg_terminate_backend`); the stale holder's writes are then refused by the
token (`graph.store.pg_fences`).
"""

from __future__ import annotations

import hashlib
import threading
import time
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from graph.errors import DatabaseError, LeaseHeldError
from graph.store.leases import RELEASED, Holder, TokenBook, lease_ttl_s
from graph.store.processes import ThisProcess, utc_now

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS thread_leases (thread_id TEXT PRIMARY KEY, owner TEXT NOT NULL,"
    " host TEXT NOT NULL, pid INTEGER NOT NULL, process_start TEXT NOT NULL,"
    " since TEXT NOT NULL, expires_at DOUBLE PRECISION NOT NULL, lock_key BIGINT NOT NULL,"
    " token BIGINT NOT NULL DEFAULT 0)"
)
ADD_TOKEN = "ALTER TABLE thread_leases ADD COLUMN IF NOT EXISTS token BIGINT NOT NULL DEFAULT 0"
HOLDER_COLUMNS = "thread_id, owner, host, pid, process_start, since, expires_at, token"
UPSERT = (
    f"INSERT INTO thread_leases ({HOLDER_COLUMNS}, lock_key)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, 1, %s) ON CONFLICT (thread_id) DO UPDATE SET"
    " owner = excluded.owner, host = excluded.host, pid = excluded.pid,"
    " process_start = excluded.process_start, expires_at = excluded.expires_at,"
    " lock_key = excluded.lock_key,"
    " since = CASE WHEN %s THEN thread_leases.since ELSE excluded.since END,"
    " token = thread_leases.token + CASE WHEN %s THEN 0 ELSE 1 END RETURNING token"
)
"""Write the holder row: a new take-over raises the token, a kept lease keeps it."""
LOCK_HOLDERS = (
    "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
    " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " AND ((classid::bigint << 32) | objid::bigint) = %s AND pid <> pg_backend_pid()"
)
"""The server processes (sessions) holding a thread's advisory lock."""
# pg_locks shows a bigint advisory key as its high half (classid) and low half (objid).
LIVE_HOLDERS = (
    f"SELECT {', '.join('h.' + c for c in HOLDER_COLUMNS.split(', '))} FROM thread_leases h"
    " JOIN pg_locks l ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1"
    " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
    " AND ((l.classid::bigint << 32) | l.objid::bigint) = h.lock_key"
)
LEASE_LOST = (
    "the connection holding thread {thread_id}'s lease to the checkpoint database was lost "
    "while it ran, and the lease with it: nothing more is run (resume the thread)"
)
HOLDER_WAIT_S = 2.0
CONNECT_TIMEOUT_S = 5


def lock_key(thread_id: str) -> int:
    """The advisory lock key of a thread: a signed 64-bit hash of its id."""
    digest = hashlib.blake2b(thread_id.encode(), digest_size=8, person=b"react-lease").digest()
    return int.from_bytes(digest, "big", signed=True)


@dataclass
class _Held:
    """A lease this process holds: its owner, the session holding the lock, its expiry."""

    owner: str
    conn: psycopg.Connection[Any]
    expires_at: float
    token: int = 0


class PostgresThreadLease(TokenBook):
    """`ThreadLease` on advisory locks of the PostgreSQL checkpoint database."""

    def __init__(self, conninfo: str, pool: ConnectionPool[Any], ttl_s: float | None = None):
        self.conninfo = conninfo
        self.pool = pool
        self.ttl_s = lease_ttl_s() if ttl_s is None else ttl_s
        self._held: dict[str, _Held] = {}
        self._tokens: dict[str, tuple[str, int]] = {}
        self._lost: set[str] = set()
        self._lock = threading.RLock()
        self._sweeper: threading.Thread | None = None
        self._closed = threading.Event()

    @staticmethod
    def create_table(conn: psycopg.Connection[Any]) -> None:
        """Create the holder table if needed (or give an older one its token column)."""
        conn.execute(SCHEMA)
        conn.execute(ADD_TOKEN)

    def check_file(self, thread_id: str) -> None:
        """Raise `DatabaseError` (once) when the session holding the thread's lock was lost
        while this process drove it (a renewal found out)."""
        with self._lock:
            if thread_id in self._lost:
                self._lost.discard(thread_id)
                held = self._tokens.get(thread_id)
                row = self._row(thread_id)
                if held is not None and (row is None or row.token != held[1]):
                    raise self.lost(thread_id)
                raise DatabaseError(LEASE_LOST.format(thread_id=thread_id))

    def _row(self, thread_id: str) -> Holder | None:
        with self.pool.connection() as conn:
            row = conn.execute(
                f"SELECT {HOLDER_COLUMNS} FROM thread_leases WHERE thread_id = %s", (thread_id,)
            ).fetchone()
        return Holder(**row) if row else None

    def _refuse_if_taken_over(self, thread_id: str, owner: str) -> None:
        """Raise `LeaseLostError` when `owner` held the lease and another took it since."""
        held = self._tokens.get(thread_id)
        if held is None or held[0] != owner:
            return
        row = self._row(thread_id)
        if row is None or row.token != held[1]:
            self._drop(thread_id)
            raise self.lost(thread_id)

    def live_holders(self) -> dict[str, Holder]:
        """Every thread whose advisory lock is held right now, with its holder row."""
        with self.pool.connection() as conn:
            rows = conn.execute(LIVE_HOLDERS).fetchall()
        return {row["thread_id"]: Holder(**row) for row in rows}

    def _write_row(
        self, conn: psycopg.Connection[Any], thread_id: str, owner: str, kept: bool
    ) -> tuple[float, int]:
        """Write the holder row; its expiry and the lease's token."""
        me = ThisProcess.current()
        expires_at = time.time() + self.ttl_s
        values = (thread_id, owner, me.host, me.pid, me.start, utc_now(), expires_at)
        row = conn.execute(UPSERT, (*values, lock_key(thread_id), kept, kept)).fetchone()
        token = int(row[0]) if row is not None else 0
        self._tokens[thread_id] = (owner, token)
        return expires_at, token

    def _end_expired_holder(self, conn: psycopg.Connection[Any], thread_id: str) -> bool:
        """End the session holding the thread's lock when its row expired unrenewed (a frozen
        process); True when one was ended (the lock is then free, or soon)."""
        current = self._row(thread_id)
        if current is None or current.expires_at == RELEASED or current.expires_at > time.time():
            return False  # a released row is no frozen holder: one is taking the lock now
        pids = [r[0] for r in conn.execute(LOCK_HOLDERS, (lock_key(thread_id),)).fetchall()]
        try:
            for pid in pids:
                conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        except psycopg.Error:
            return False  # not allowed to end another role's session: wait for it instead
        return bool(pids)

    def _take_lock(self, conn: psycopg.Connection[Any], thread_id: str) -> bool:
        """Take the thread's advisory lock on `conn`, ending an expired holder's session
        first if it has to (then waiting up to `HOLDER_WAIT_S` for the lock to come free)."""
        query = "SELECT pg_try_advisory_lock(%s)"
        (got,) = conn.execute(query, (lock_key(thread_id),)).fetchone() or (False,)
        if got or not self._end_expired_holder(conn, thread_id):
            return bool(got)
        deadline = time.monotonic() + HOLDER_WAIT_S
        while not got and time.monotonic() < deadline:
            time.sleep(0.05)
            (got,) = conn.execute(query, (lock_key(thread_id),)).fetchone() or (False,)
        return bool(got)

    def _lost_to(self, thread_id: str) -> LeaseHeldError:
        """The loser's error, naming the holder once its row is there (the winner writes it
        right after taking the lock)."""
        deadline = time.monotonic() + HOLDER_WAIT_S
        while True:
            current = self.holder(thread_id)
            if current is not None or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        if current is None:
            return LeaseHeldError(f"thread {thread_id} is being run by another process")
        return LeaseHeldError(current.message())

    def acquire(self, thread_id: str, owner: str) -> bool:
        """Take (or keep) the lease for `owner`; see `ThreadLease.acquire`. A take-over
        raises the token; `LeaseLostError` when `owner`'s own was taken over meanwhile."""
        with self._lock:
            self._refuse_if_taken_over(thread_id, owner)
            held = self._held.get(thread_id)
            if held is not None and held.conn.broken:
                self._drop(thread_id)
                held = None
            if held is not None:
                if held.owner != owner and held.expires_at > time.time():
                    raise self._lost_to(thread_id)
                kept = held.owner == owner
                held.owner = owner
                held.expires_at, held.token = self._write_row(held.conn, thread_id, owner, kept)
                return not kept
            conn = psycopg.connect(
                self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
            )
            try:
                if not self._take_lock(conn, thread_id):
                    raise self._lost_to(thread_id)
                expires_at, token = self._write_row(conn, thread_id, owner, False)
            except BaseException:
                conn.close()
                raise
            self._held[thread_id] = _Held(owner, conn, expires_at, token)
            self._lost.discard(thread_id)
            self._start_sweeper()
            return True

    def renew(self, thread_id: str, owner: str) -> bool:
        """Push the expiry on; False when `owner` no longer holds the lease (or its session
        was lost, and with it the lock)."""
        with self._lock:
            held = self._held.get(thread_id)
            if held is None or held.owner != owner:
                return False
            expires_at = time.time() + self.ttl_s
            try:
                held.conn.execute(
                    "UPDATE thread_leases SET expires_at = %s WHERE thread_id = %s AND owner = %s",
                    (expires_at, thread_id, owner),
                )
            except psycopg.Error:
                self._drop(thread_id)
                self._lost.add(thread_id)
                return False
            held.expires_at = expires_at
            return True

    def release(self, thread_id: str, owner: str) -> None:
        """Give the lease up if `owner` holds it: its row is marked released (keeping the
        token), then the lock goes."""
        with self._lock:
            known = self._tokens.get(thread_id)
            if known is not None and known[0] == owner:
                self._tokens.pop(thread_id, None)
            held = self._held.get(thread_id)
            if held is None or held.owner != owner:
                return
            try:
                held.conn.execute(
                    "UPDATE thread_leases SET expires_at = %s WHERE thread_id = %s AND owner = %s",
                    (RELEASED, thread_id, owner),
                )
                held.conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(thread_id),))
            except psycopg.Error:
                pass  # the session is gone, and the lock with it
            self._drop(thread_id)

    def _drop(self, thread_id: str) -> None:
        held = self._held.pop(thread_id, None)
        if held is not None:
            held.conn.close()

    def _start_sweeper(self) -> None:
        if self._sweeper is None or not self._sweeper.is_alive():
            self._sweeper = threading.Thread(target=self._sweep, name="lease-sweeper", daemon=True)
            self._sweeper.start()

    def _sweep(self) -> None:
        """Close the sessions of leases that expired without renewal (a run that stopped
        between nodes), so that other processes can take their threads."""
        while not self._closed.wait(self.ttl_s / 3):
            with self._lock:
                now = time.time()
                for thread_id in [t for t, h in self._held.items() if h.expires_at <= now]:
                    self._drop(thread_id)

    def close(self) -> None:
        """Give up every lease this object holds (their sessions end)."""
        self._closed.set()
        with self._lock:
            for thread_id in list(self._held):
                self._drop(thread_id)
