"""The server's checkpoint saver: the async twin of `graph.store.savers.CompactSqliteSaver`.

The LangGraph server and the CLI write the same file, so this saver uses the
same pragmas, serializer and `delta_seeds` metadata; only the I/O is async.
Inside `langgraph dev` the server wraps it in an adapter that makes channel
versions its own way and reads `DeltaChannel` history with LangGraph's
generic walk (through `aget_tuple`); `graph.store.sqlite_format` explains why the two
version schemes order together. Its runs can be rolled back
(`graph.store.rollback`): it notes in `run_writes` what a run writes on a
checkpoint it did not make, and deletes one run's rows in one transaction.
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

from graph.store.aio_fences import FencedAsyncSqliteSaver
from graph.store.delta_walk import (
    STAGE1_SQL,
    DeltaWalk,
    empty_history,
    stage1_params,
    with_seeds,
)
from graph.store.rollback import RUN_LOG, RUN_WRITES_TABLE, RunRows
from graph.store.rollback_saver import RollsBackRuns, checkpoint_key, group_rows
from graph.store.serde import CompressingSerializer
from graph.store.sqlite_format import WRITES_TABLE, connect, new_file_pragmas, next_version
from tools.dbfiles import CHECKPOINTS, check_file

RUN_CHECKPOINTS_SQL = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id FROM checkpoints"
    " WHERE json_extract(CAST(metadata AS TEXT), '$.run_id') = ?"
    " AND coalesce(json_extract(CAST(metadata AS TEXT), '$.thread_id'), thread_id) = thread_id"
)
"""A run's checkpoints on its own thread (a copy's keep the original's metadata)."""
KEEP_LATEST_DELTA = (
    "thread {thread_id} keeps DeltaChannel states, which its latest checkpoint rebuilds from"
    " the earlier ones: prune it with strategy='delete', or not at all"
)
NOTED_SQL = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel"
    " FROM run_writes WHERE run_id = ?"
)
NOTED_KEYS = (
    "(thread_id, checkpoint_ns, checkpoint_id, task_id, idx) IN (SELECT thread_id,"
    " checkpoint_ns, checkpoint_id, task_id, idx FROM run_writes WHERE run_id = ?)"
)


DELTA = (
    "(json_extract(CAST(metadata AS TEXT), '$.counters_since_delta_snapshot') IS NOT NULL"
    " OR json_extract(CAST(metadata AS TEXT), '$.delta_writes_versioned') IS NOT NULL)"
)
"""A checkpoint whose `DeltaChannel` values are rebuilt from its ancestors' writes."""
HAS_CHECKPOINT_SQL = (
    "SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?"
)


def _marks(count: int) -> str:
    return ",".join("?" * count)


class CompactAsyncSqliteSaver(RollsBackRuns, FencedAsyncSqliteSaver):
    """`AsyncSqliteSaver` with short channel versions, a cheap `DeltaChannel` walk, runs that
    can be rolled back (`graph.store.rollback`) and, in a new file, a writes table without
    a rowid."""

    def __init__(self, conn: aiosqlite.Connection, *, serde: Any = None) -> None:
        super().__init__(conn, serde=serde)
        self.run_log = RUN_LOG

    async def setup(self) -> None:
        """Create the tables if needed."""
        if not self.is_setup:
            await self.conn.execute(WRITES_TABLE)
            await self.conn.execute(f"{RUN_WRITES_TABLE} WITHOUT ROWID")
            await self.conn.commit()
        await super().setup()

    async def _note(self, rows: list[tuple[Any, ...]]) -> None:
        """Add rows to the `run_writes` table."""
        await self.setup()
        async with self.lock:
            await self.conn.executemany(
                f"INSERT OR REPLACE INTO run_writes VALUES ({_marks(7)})", rows
            )
            await self.conn.commit()

    async def _forget_thread(self, thread_id: str) -> None:
        """Delete the thread's rows of the `run_writes` table."""
        async with self.lock:
            await self.conn.execute("DELETE FROM run_writes WHERE thread_id = ?", (thread_id,))
            await self.conn.commit()

    async def _has_checkpoint(self, config: RunnableConfig) -> bool:
        """Whether the checkpoint `config` names is stored."""
        key = checkpoint_key(config)
        await self.setup()
        async with self.lock:
            found = await self.conn.execute_fetchall(HAS_CHECKPOINT_SQL, key)
        return bool(list(found))

    async def _run_rows(self, run_id: str) -> list[RunRows]:
        """The run's checkpoints and noted writes, its proposals and the checkpoints of
        others built on it."""
        await self.setup()
        async with self.lock:
            found = await self.conn.execute_fetchall(RUN_CHECKPOINTS_SQL, (run_id,))
            noted = await self.conn.execute_fetchall(NOTED_SQL, (run_id,))
            groups = group_rows(run_id, list(found), list(noted))  # type: ignore[arg-type]
            for rows in groups:
                same = (rows.thread_id, rows.checkpoint_ns)
                ids = rows.checkpoint_ids
                proposals = await self.conn.execute_fetchall(
                    "SELECT type, value FROM writes WHERE thread_id = ? AND checkpoint_ns = ?"
                    f" AND channel = 'proposal' AND (checkpoint_id IN ({_marks(len(ids))})"
                    f" OR {NOTED_KEYS})",
                    (*same, *ids, run_id),
                )
                rows.proposals = [self.serde.loads_typed((t, v)) for t, v in proposals]
                children = await self.conn.execute_fetchall(
                    "SELECT count(*) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ?"
                    f" AND parent_checkpoint_id IN ({_marks(len(ids))})"
                    f" AND checkpoint_id NOT IN ({_marks(len(ids))}) AND {DELTA}",
                    (*same, *ids, *ids),
                )
                rows.children = int(next(iter(children))[0])
        return groups

    async def _delete_run_rows(self, rows: RunRows) -> None:
        """Delete the run's checkpoints, their writes and its noted writes."""
        same = (rows.thread_id, rows.checkpoint_ns)
        ids = rows.checkpoint_ids
        in_ids = f"thread_id = ? AND checkpoint_ns = ? AND checkpoint_id IN ({_marks(len(ids))})"
        async with self.lock:
            try:
                await self.conn.execute(f"DELETE FROM writes WHERE {NOTED_KEYS}", (rows.run_id,))
                await self.conn.execute(f"DELETE FROM writes WHERE {in_ids}", (*same, *ids))
                await self.conn.execute(f"DELETE FROM checkpoints WHERE {in_ids}", (*same, *ids))
                await self.conn.execute(
                    "DELETE FROM run_writes WHERE run_id = ? AND thread_id = ?"
                    " AND checkpoint_ns = ?",
                    (rows.run_id, *same),
                )
                await self.conn.commit()
            except BaseException:
                await self.conn.rollback()
                raise

    async def _keep_latest(self, thread_ids: list[str]) -> None:
        """Keep each namespace's latest checkpoint and its writes, one thread per transaction;
        a thread whose `DeltaChannel` states need their history is refused, as
        `AsyncPostgresSaver.aprune` refuses it."""
        await self.setup()
        for thread_id in thread_ids:
            async with self.lock:
                try:
                    await self._keep_latest_of(thread_id)
                    await self.conn.commit()
                except BaseException:
                    await self.conn.rollback()
                    raise

    async def _keep_latest_of(self, thread_id: str) -> None:
        conn, where = self.conn, "thread_id = ? AND checkpoint_ns = ? AND checkpoint_id"
        delta = await conn.execute_fetchall(
            f"SELECT 1 FROM checkpoints WHERE thread_id = ? AND {DELTA} LIMIT 1", (thread_id,)
        )
        if list(delta):
            raise NotImplementedError(KEEP_LATEST_DELTA.format(thread_id=thread_id))
        heads = await conn.execute_fetchall(
            "SELECT checkpoint_ns, max(checkpoint_id) FROM checkpoints WHERE thread_id = ?"
            " GROUP BY checkpoint_ns",
            (thread_id,),
        )
        for ns, head in list(heads):
            for table in ("writes", "run_writes", "checkpoints"):
                await conn.execute(f"DELETE FROM {table} WHERE {where} <> ?", (thread_id, ns, head))
            await conn.execute(
                f"UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE {where} = ?",
                (thread_id, ns, head),
            )

    def get_next_version(self, current: str | None, channel: None) -> str:
        """See `graph.store.sqlite_format.next_version`."""
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
