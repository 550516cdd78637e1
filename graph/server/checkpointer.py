"""What the LangGraph server (`langgraph dev`, Studio) needs from this package.

`langgraph.json` names `make_checkpointer` as the server's checkpointer
(`{"checkpointer": {"path": "./graph/server/checkpointer.py:make_checkpointer"}}`), so the
server keeps every checkpoint in the same database as the CLI,
`graph.episodes.runner.default_db_location()` (`$REACT_AGENT_DB` if set): an SQLite
file with the same pragmas and channel version scheme (`graph.store.aio`),
or a PostgreSQL database (`graph.store.pg_aio`).

Runs on the server take part in the thread lease like the CLI's commands: the
saver carries the lease and the thread registry of its file, and the graph's
nodes find them there (`graph.core.thread_guard`); the graph factories
(`graph.server.studio`) release a run's lease when its stream ends, a cancelled run's
included (`graph.store.server_runs`).

Both savers implement `adelete_for_runs`, which langgraph-api calls to roll a
run back (`runs.cancel(..., action="rollback")`, `multitask_strategy="rollback"`):
see `graph.store.rollback` for what is deleted and when it is refused.

The server calls the factory once per event loop and enters the context
manager it returns (langgraph-api's custom-checkpointer hook); the saver it
yields is closed when the server shuts down.

The PostgreSQL saver is imported only for a `postgresql://` database: at the top it
would add about 0.19 s (psycopg) to a server on an SQLite file (python -X importtime).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.episodes.runner import default_db_location
from graph.store.aio import CompactAsyncSqliteSaver, open_async_sqlite_saver
from graph.store.leases import SqliteThreadLease
from graph.store.registry import ThreadRegistry


def attach_thread_stores(saver: CompactAsyncSqliteSaver, path: Path) -> None:
    """Give the saver the thread lease and registry of its file, where the nodes find them
    (langgraph-api's adapter passes unknown attributes on to the saver it wraps)."""
    saver.thread_lease = SqliteThreadLease(path)  # type: ignore[attr-defined]
    saver.thread_registry = ThreadRegistry(path)  # type: ignore[attr-defined]


@asynccontextmanager
async def make_checkpointer() -> AsyncIterator[BaseCheckpointSaver[str]]:
    """The saver of the CLI's checkpoint database, carrying its thread lease and registry:
    a `CompactAsyncSqliteSaver` on a file, a `RollbackAsyncPostgresSaver` on a `postgresql://`
    URL (`graph.store.pg_aio`)."""
    location = default_db_location()
    if location.path is None:
        from graph.store.pg_aio import open_async_postgres_saver

        async with open_async_postgres_saver(location.url) as pg_saver:
            yield pg_saver
        return
    path = location.path
    async with open_async_sqlite_saver(path) as saver:
        attach_thread_stores(saver, path)
        yield saver
