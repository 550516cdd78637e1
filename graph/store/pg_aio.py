"""The server's checkpoint saver on PostgreSQL: LangGraph's `AsyncPostgresSaver` on an async
pool, set up like the CLI's `graph.store.postgres.PostgresCheckpointSaver`, whose runs can
be rolled back (`graph.store.pg_rollback`).

Same database checks, serializer and tables, so `langgraph dev` and the CLI
share threads. The graph's nodes are synchronous and run in worker threads,
so the lease and registry the saver carries use a small synchronous pool of
their own.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from psycopg_pool import AsyncConnectionPool

from graph.store.pg_connection import conninfo, label, parse_url, reported
from graph.store.pg_leases import PostgresThreadLease
from graph.store.pg_registry import PostgresThreadRegistry
from graph.store.pg_rollback import RollbackAsyncPostgresSaver
from graph.store.postgres import POOL_MAX_SIZE, POOL_WAIT_S, open_pool, pool_options, set_up
from graph.store.serde import CompressingSerializer

ASYNC_POOL_MAX_SIZE = 10


@asynccontextmanager
async def open_async_postgres_saver(value: str) -> AsyncIterator[RollbackAsyncPostgresSaver]:
    """A `RollbackAsyncPostgresSaver` on the database `value` names (tables created if needed),
    carrying the database's thread lease and registry; everything closed on exit."""
    url = parse_url(value)
    await asyncio.to_thread(set_up, url, create=True)
    pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
        **pool_options(url, ASYNC_POOL_MAX_SIZE), check=AsyncConnectionPool.check_connection
    )
    with reported(url):
        await pool.open(wait=True, timeout=POOL_WAIT_S)
        sync_pool = await asyncio.to_thread(open_pool, url, POOL_MAX_SIZE)
    lease = PostgresThreadLease(conninfo(url), sync_pool)
    try:
        saver = RollbackAsyncPostgresSaver(pool, serde=CompressingSerializer())
        saver.thread_lease = lease  # type: ignore[attr-defined]
        saver.thread_registry = PostgresThreadRegistry(sync_pool)  # type: ignore[attr-defined]
        saver.label = label(url)  # type: ignore[attr-defined]
        yield saver
    finally:
        await asyncio.to_thread(lease.close)
        await pool.close()
        await asyncio.to_thread(sync_pool.close)
