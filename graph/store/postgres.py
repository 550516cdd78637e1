"""Checkpoints on PostgreSQL: LangGraph's `PostgresSaver` on a psycopg 3 connection pool.

`--db postgresql://user@host:port/db` (or `REACT_AGENT_DB`) selects it. The
saver is LangGraph's own, with its own channel versions (counter plus a
random fraction, the scheme the LangGraph server's adapter uses too) and the
project's compressing serializer (`graph.store.serde`), so the CLI and the
server (`graph.store.pg_aio`) read each other's checkpoints. Connections are
made as langgraph-checkpoint-postgres requires: autocommit, no server-side
prepared statements (`prepare_threshold=0`), rows as dicts.

Before anything is written the database is checked on one connection: a
server that cannot be reached, a login it refuses or a database it lacks is a
`DatabaseServerError` of one line naming the URL (password hidden); a
database holding another kind's tables (the library's, say) is refused; a
read-only command on a database with no checkpoints yet is refused and
creates nothing. The saver carries the thread lease (`graph.store.pg_leases`)
and registry (`graph.store.pg_registry`) of the same database.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import psycopg
from langgraph.checkpoint.postgres import PostgresSaver
from psycopg_pool import ConnectionPool
from sqlalchemy.engine import URL

from graph.store.pg_connection import (
    CANNOT_CONNECT,
    CONNECT_TIMEOUT_S,
    connect,
    connection_kwargs,
    conninfo,
    label,
    parse_url,
    reported,
)
from graph.store.pg_fences import FencedPostgresSaver
from graph.store.pg_leases import PostgresThreadLease
from graph.store.pg_registry import PostgresThreadRegistry
from graph.store.rollback import RUN_WRITES_TABLE
from graph.store.savers import CarriesThreadStores
from graph.store.serde import CompressingSerializer
from tools.dbfiles import CHECKPOINTS, DatabaseFileError, DatabaseServerError, refuse_other_tables

POOL_MAX_SIZE = 4
POOL_WAIT_S = 10.0
"""How long a query waits for a connection (a lost server is reported after this)."""
SETUP_LOCK_KEY = 0x52784350_53657475  # "RxCP" "Setu": serialises first-time setup
SETUP_WAIT_S = 120.0
SETUP_POLL_S = 0.05
NOTHING_THERE = "no {label} at {location} (no episode has been stored there yet)"
SAVER_TABLES = frozenset(
    {"checkpoints", "checkpoint_blobs", "checkpoint_writes", "checkpoint_migrations"}
)
PROJECT_TABLES = frozenset({"threads", "thread_leases", "run_writes"})
# The pool logs each failed reconnection; the command reports the failure in one line.
logging.getLogger("psycopg.pool").addHandler(logging.NullHandler())


def tables_of(conn: psycopg.Connection[Any]) -> set[str]:
    """The tables (and views) of the connection's current schema."""
    rows = conn.execute(
        "SELECT table_name AS name FROM information_schema.tables"
        " WHERE table_schema = current_schema()"
    ).fetchall()
    return {str(row["name"]) for row in rows}


def check_tables(url: URL, tables: set[str], *, create: bool) -> bool:
    """Whether the database already holds checkpoints; refuses one of another kind, and a
    database with none for a read-only use (`create` False)."""
    refuse_other_tables(label(url), CHECKPOINTS, tables - SAVER_TABLES - PROJECT_TABLES)
    if "checkpoints" in tables:
        return True
    if not create:
        raise DatabaseFileError(NOTHING_THERE.format(label=CHECKPOINTS.label, location=label(url)))
    return False


def is_current(conn: psycopg.Connection[Any], tables: set[str]) -> bool:
    """Whether the saver's migrations and the project's tables are all in place."""
    if not tables >= (SAVER_TABLES | PROJECT_TABLES):
        return False
    row = conn.execute(
        "SELECT max(v) AS v, (SELECT count(*) FROM information_schema.columns WHERE"
        " table_schema = current_schema() AND table_name = 'thread_leases'"
        " AND column_name = 'token') AS fenced FROM checkpoint_migrations"
    ).fetchone()
    return row is not None and row["v"] == len(PostgresSaver.MIGRATIONS) - 1 and row["fenced"]


class PostgresCheckpointSaver(CarriesThreadStores, FencedPostgresSaver):
    """`PostgresSaver` on a pool it owns, with the thread lease and registry of its database."""

    thread_lease: PostgresThreadLease
    thread_registry: PostgresThreadRegistry

    def __init__(self, pool: ConnectionPool[Any], url: URL) -> None:
        super().__init__(pool, serde=CompressingSerializer())
        self.pool = pool
        self.url = url
        self.label = label(url)

    def close(self) -> None:
        """Give up held leases and close the pool."""
        self.thread_lease.close()
        self.pool.close()


def take_setup_lock(conn: psycopg.Connection[Any], url: URL) -> None:
    """Take the setup lock, polling: a session blocked in `pg_advisory_lock` keeps its
    snapshot open, and the holder's `CREATE INDEX CONCURRENTLY` waits for every open
    snapshot, which PostgreSQL reports as a deadlock."""
    deadline = time.monotonic() + SETUP_WAIT_S
    query = "SELECT pg_try_advisory_lock(%s) AS taken"
    while not (conn.execute(query, (SETUP_LOCK_KEY,)).fetchone() or {}).get("taken"):
        if time.monotonic() > deadline:
            reason = f"another process has been setting it up for {SETUP_WAIT_S:.0f} s"
            message = CANNOT_CONNECT.format(
                label=CHECKPOINTS.label, location=label(url), reason=reason
            )
            raise DatabaseServerError(message, reason)
        time.sleep(SETUP_POLL_S)


def set_up(url: URL, *, create: bool) -> None:
    """Check the database, and create (or migrate) its tables when needed and allowed."""
    with connect(url) as conn, reported(url):
        tables = tables_of(conn)
        stored = check_tables(url, tables, create=create)
        if is_current(conn, tables):
            return
        take_setup_lock(conn, url)
        try:
            check_tables(url, tables_of(conn), create=create or stored)
            PostgresSaver(conn).setup()
            PostgresThreadRegistry.create_table(conn)
            PostgresThreadLease.create_table(conn)
            conn.execute(RUN_WRITES_TABLE)
        finally:
            conn.execute("SELECT pg_advisory_unlock(%s)", (SETUP_LOCK_KEY,))


def pool_options(url: URL, max_size: int) -> dict[str, Any]:
    """The options of a (sync or async) pool of `url`'s connections, made as `connect` makes
    them; opened by the caller."""
    return {
        "conninfo": conninfo(url),
        "min_size": 1,
        "max_size": max_size,
        "kwargs": connection_kwargs() | {"connect_timeout": CONNECT_TIMEOUT_S},
        "timeout": POOL_WAIT_S,
        "open": False,
        "name": "react-agent-checkpoints",
    }


def open_pool(url: URL, max_size: int = POOL_MAX_SIZE) -> ConnectionPool[Any]:
    """A pool of connections to `url` (opened; the first connection made at once)."""
    pool: ConnectionPool[Any] = ConnectionPool(
        **pool_options(url, max_size), check=ConnectionPool.check_connection
    )
    pool.open(wait=True, timeout=POOL_WAIT_S)
    return pool


def open_postgres_saver(value: str, *, create: bool = True) -> PostgresCheckpointSaver:
    """A `PostgresCheckpointSaver` on the database `value` names, its tables created if
    needed and allowed. Raises `DatabaseFileError` / `DatabaseServerError` (one line)."""
    url = parse_url(value)
    set_up(url, create=create)
    with reported(url):
        pool = open_pool(url)
    saver = PostgresCheckpointSaver(pool, url)
    saver.thread_registry = PostgresThreadRegistry(pool)
    saver.thread_lease = PostgresThreadLease(conninfo(url), pool)
    return saver
