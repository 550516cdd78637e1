"""Fenced writes of the server's SQLite saver: the async twin of
`graph.store.fences.FencedSqliteSaver` (`put` and `put_writes` store nothing for a
process whose lease on the thread was taken over)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from graph.store.fences import NEWER, PUT_FENCED, fence_of, fenced_writes_sql, write_rows


class FencedAsyncSqliteSaver(AsyncSqliteSaver):
    """`AsyncSqliteSaver` whose `aput` and `aput_writes` are fenced."""

    async def _refuse_newer(self, cur: Any, fence: Any, thread_id: str) -> None:
        """After a fenced statement stored nothing: roll back and raise `LeaseLostError` when
        a newer lease was taken on the thread."""
        await cur.execute(f"SELECT {NEWER}", (thread_id, fence[1]))
        row = await cur.fetchone()
        if row is not None and row[0]:
            await self.conn.rollback()
            raise await asyncio.to_thread(fence[0].lost, thread_id)

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store the checkpoint unless a newer lease was taken on the thread."""
        configurable = config["configurable"]
        thread_id, checkpoint_ns = str(configurable["thread_id"]), configurable["checkpoint_ns"]
        fence = fence_of(self, thread_id)
        if fence is None:
            return await super().aput(config, checkpoint, metadata, new_versions)
        await self.setup()
        type_, blob = self.serde.dumps_typed(checkpoint)
        meta = json.dumps(get_checkpoint_metadata(config, metadata), ensure_ascii=False)
        row = (
            thread_id,
            checkpoint_ns,
            checkpoint["id"],
            configurable.get("checkpoint_id"),
            type_,
            blob,
            meta.encode("utf-8", "ignore"),
        )
        async with self.lock, self.conn.cursor() as cur:
            await cur.execute(PUT_FENCED, (*row, thread_id, fence[1]))
            if cur.rowcount < 1:
                await self._refuse_newer(cur, fence, thread_id)
            await self.conn.commit()
        return {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": checkpoint_ns,
                "checkpoint_id": checkpoint["id"],
            }
        }

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Store the writes unless a newer lease was taken on the thread."""
        thread_id = str(config["configurable"]["thread_id"])
        fence = fence_of(self, thread_id)
        if fence is None or not writes:
            return await super().aput_writes(config, writes, task_id, task_path)
        await self.setup()
        rows = write_rows(config, writes, task_id, task_path, self.serde, fence[1])
        async with self.lock, self.conn.cursor() as cur:
            await cur.executemany(fenced_writes_sql(writes), rows)
            if cur.rowcount < len(rows):
                await self._refuse_newer(cur, fence, thread_id)
            await self.conn.commit()
        return None
