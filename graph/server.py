"""What the LangGraph server (`langgraph dev`, Studio) needs from this package.

`langgraph.json` names `make_checkpointer` as the server's checkpointer
(`{"checkpointer": {"path": "./graph/server.py:make_checkpointer"}}`), so the
server keeps every checkpoint in the same SQLite file as the CLI: the file in
`REACT_AGENT_DB` if set, else `graph.runner.default_db_path()`.

The server calls the factory once per event loop and enters the context
manager it returns (langgraph-api's custom-checkpointer hook); the saver it
yields is closed when the server shuts down.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiosqlite
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from graph.runner import default_db_path

DB_ENV = "REACT_AGENT_DB"


def server_db_path() -> Path:
    """The checkpoint file the server uses: `$REACT_AGENT_DB`, else the CLI's default."""
    chosen = os.environ.get(DB_ENV, "").strip()
    return Path(chosen).expanduser() if chosen else default_db_path()


@asynccontextmanager
async def make_checkpointer() -> AsyncIterator[AsyncSqliteSaver]:
    """An `AsyncSqliteSaver` on `server_db_path()` (WAL, synchronous=NORMAL, as the CLI)."""
    path = server_db_path()
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    async with aiosqlite.connect(path) as conn:
        await conn.execute("PRAGMA synchronous=NORMAL")
        saver = AsyncSqliteSaver(conn)
        await saver.setup()
        yield saver
