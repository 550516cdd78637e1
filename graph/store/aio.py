"""The server's checkpoint saver: the async twin of `graph.store.savers.CompactSqliteSaver`.

The LangGraph server and the CLI write the same file, so this saver uses the
same pragmas, serializer and `delta_seeds` metadata; only the I/O is async.
Inside `langgraph dev` the server wraps it in an adapter that makes channel
versions its own way and reads `DeltaChannel` history with LangGraph's
generic walk (through `aget_tuple`); `graph.store.savers` explains why the two
version schemes order together.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    DeltaChannelHistory,
    get_checkpoint_id,
)
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from graph.store.delta_walk import (
    STAGE1_SQL,
    DeltaWalk,
    empty_history,
    stage1_params,
    with_seeds,
)
from graph.store.savers import WRITES_TABLE, connect, new_file_pragmas, next_version
from graph.store.serde import CompressingSerializer
from tools.dbfiles import CHECKPOINTS, check_file


class CompactAsyncSqliteSaver(AsyncSqliteSaver):
    """`AsyncSqliteSaver` with short channel versions, a cheap `DeltaChannel` walk and,
    in a new file, a writes table without a rowid."""

    async def setup(self) -> None:
        """Create the tables if needed."""
        if not self.is_setup:
            await self.conn.execute(WRITES_TABLE)
            await self.conn.commit()
        await super().setup()

    def get_next_version(self, current: str | None, channel: None) -> str:
        """See `graph.store.savers.next_version`."""
        return next_version(current)

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store the checkpoint, its metadata listing the channels it seeds."""
        return await super().aput(
            config, checkpoint, with_seeds(checkpoint, metadata), new_versions
        )

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Each channel's seed and later writes, reading blobs only where seeds are."""
        if not channels:
            return {}
        await self.setup()
        checkpoint_id = get_checkpoint_id(config)
        if not checkpoint_id:
            target = await self.aget_tuple(config)
            if target is None:
                return empty_history(channels)
            checkpoint_id = str(target.config["configurable"]["checkpoint_id"])
        thread_id = str(config["configurable"]["thread_id"])
        checkpoint_ns = str(config["configurable"].get("checkpoint_ns", ""))
        walk = DeltaWalk(checkpoint_id, channels, self.serde)
        rows: list[Any] = []
        async with self.lock, self.conn.cursor() as cur:
            await cur.execute(STAGE1_SQL, stage1_params(thread_id, checkpoint_ns, checkpoint_id))
            async for row in cur:
                if walk.take(row):  # type: ignore[arg-type]
                    break
            for sql, params in walk.writes_queries(thread_id, checkpoint_ns, self._has_task_path):
                await cur.execute(sql, params)
                rows.extend(await cur.fetchall())
        return walk.history(rows)


def _switch_to_wal(db: Path) -> None:
    """Give a new file its page size and WAL mode on a plain connection first (`connect`
    waits for other processes switching it too), so the pragmas the async connection
    runs again find WAL already set."""
    connect(db).close()


@asynccontextmanager
async def open_async_sqlite_saver(path: str | Path) -> AsyncIterator[CompactAsyncSqliteSaver]:
    """A `CompactAsyncSqliteSaver` on `path` (created if needed), closed on exit."""
    db = await asyncio.to_thread(check_file, path, CHECKPOINTS, create=True)
    await asyncio.to_thread(_switch_to_wal, db)
    async with aiosqlite.connect(db) as conn:
        for pragma in new_file_pragmas():
            await conn.execute(pragma)
        if (await (await conn.execute("PRAGMA application_id")).fetchone()) != (
            CHECKPOINTS.app_id,
        ):
            await conn.execute(f"PRAGMA application_id = {CHECKPOINTS.app_id}")
        saver = CompactAsyncSqliteSaver(conn, serde=CompressingSerializer())
        await saver.setup()
        yield saver
