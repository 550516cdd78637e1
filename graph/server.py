"""What the LangGraph server (`langgraph dev`, Studio) needs from this package.

`langgraph.json` names `make_checkpointer` as the server's checkpointer
(`{"checkpointer": {"path": "./graph/server.py:make_checkpointer"}}`), so the
server keeps every checkpoint in the same SQLite file as the CLI,
`graph.runner.default_db_path()` (`$REACT_AGENT_DB` if set), with the same
pragmas and channel version scheme (`graph.store.aio`).

The server calls the factory once per event loop and enters the context
manager it returns (langgraph-api's custom-checkpointer hook); the saver it
yields is closed when the server shuts down.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from graph.runner import default_db_path
from graph.store.aio import CompactAsyncSqliteSaver, open_async_sqlite_saver


@asynccontextmanager
async def make_checkpointer() -> AsyncIterator[CompactAsyncSqliteSaver]:
    """A `CompactAsyncSqliteSaver` on the CLI's checkpoint file."""
    async with open_async_sqlite_saver(default_db_path()) as saver:
        yield saver
