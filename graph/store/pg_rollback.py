"""The server's PostgreSQL saver with runs that can be rolled back (`graph.store.rollback`):
LangGraph's `AsyncPostgresSaver` noting the writes a run puts on a checkpoint it did not
make, and deleting one run's checkpoints, writes, noted writes and the channel blobs only
its checkpoints use, in one transaction."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.postgres import _ainternal
from psycopg import AsyncCursor
from psycopg.rows import DictRow

from graph.errors import DatabaseError
from graph.store.pg_connection import FAILED_WHILE_RUNNING, reason_of
from graph.store.pg_fences import FencedAsyncPostgresSaver
from graph.store.rollback import RUN_LOG, RunRows
from graph.store.rollback_saver import RollsBackRuns, checkpoint_key, group_rows
from tools.dbfiles import CHECKPOINTS

NOTE_SQL = (
    "INSERT INTO run_writes VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT"
    " (run_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx)"
    " DO UPDATE SET channel = excluded.channel"
)
RUN_CHECKPOINTS_SQL = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id FROM checkpoints"
    " WHERE metadata->>'run_id' = %s AND coalesce(metadata->>'thread_id', thread_id) = thread_id"
)
"""A run's checkpoints on its own thread (a copy's keep the original's metadata)."""
NOTED_SQL = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel"
    " FROM run_writes WHERE run_id = %s"
)
NOTED_KEYS = (
    "(thread_id, checkpoint_ns, checkpoint_id, task_id, idx) IN (SELECT thread_id,"
    " checkpoint_ns, checkpoint_id, task_id, idx FROM run_writes WHERE run_id = %s)"
)
SAME = "thread_id = %s AND checkpoint_ns = %s"
HAS_CHECKPOINT_SQL = f"SELECT 1 FROM checkpoints WHERE {SAME} AND checkpoint_id = %s"
PROPOSALS_SQL = (
    f"SELECT type, blob FROM checkpoint_writes WHERE {SAME} AND channel = 'proposal'"
    f" AND (checkpoint_id = ANY(%s) OR {NOTED_KEYS})"
)
CHILDREN_SQL = (
    f"SELECT count(*) AS n FROM checkpoints WHERE {SAME}"
    " AND parent_checkpoint_id = ANY(%s) AND NOT checkpoint_id = ANY(%s)"
    " AND (metadata ? 'counters_since_delta_snapshot' OR metadata ? 'delta_writes_versioned')"
)
"""Checkpoints of others whose `DeltaChannel` history runs through the run's (see
`graph.store.rollback`)."""
# The blobs of channel versions that only the run's checkpoints name.
RUN_BLOBS_SQL = (
    "DELETE FROM checkpoint_blobs b USING (SELECT DISTINCT v.key AS channel, v.value AS version"
    " FROM checkpoints c, jsonb_each_text(c.checkpoint->'channel_versions') v"
    f" WHERE c.{SAME} AND c.checkpoint_id = ANY(%s)) r"
    f" WHERE b.{SAME} AND b.channel = r.channel AND b.version = r.version"
    " AND NOT EXISTS (SELECT 1 FROM checkpoints o WHERE o.thread_id = b.thread_id"
    " AND o.checkpoint_ns = b.checkpoint_ns AND NOT o.checkpoint_id = ANY(%s)"
    " AND o.checkpoint->'channel_versions'->>b.channel = b.version)"
)


class RollbackAsyncPostgresSaver(RollsBackRuns, FencedAsyncPostgresSaver):
    """`AsyncPostgresSaver` whose server runs can be rolled back."""

    def __init__(self, conn: Any, *, serde: Any = None) -> None:
        super().__init__(conn, serde=serde)
        self.run_log = RUN_LOG

    @asynccontextmanager
    async def _cursor(self, *, pipeline: bool = False) -> AsyncIterator[AsyncCursor[DictRow]]:
        """A cursor; a server lost or unreachable is one line naming the database (a
        `DatabaseError`, which langgraph-api passes on), not "An internal error occurred"."""
        try:
            async with super()._cursor(pipeline=pipeline) as cur:
                yield cur
        except psycopg.OperationalError as error:
            where = str(getattr(self, "label", "PostgreSQL"))
            message = FAILED_WHILE_RUNNING.format(
                label=CHECKPOINTS.label, location=where, reason=reason_of(error)
            )
            raise DatabaseError(message) from None

    async def _note(self, rows: list[tuple[Any, ...]]) -> None:
        """Add rows to the `run_writes` table."""
        async with self._cursor() as cur:
            await cur.executemany(NOTE_SQL, rows)

    async def _forget_thread(self, thread_id: str) -> None:
        """Delete the thread's rows of the `run_writes` table."""
        async with self._cursor() as cur:
            await cur.execute("DELETE FROM run_writes WHERE thread_id = %s", (thread_id,))

    async def _has_checkpoint(self, config: RunnableConfig) -> bool:
        """Whether the checkpoint `config` names is stored."""
        key = checkpoint_key(config)
        async with self._cursor() as cur:
            await cur.execute(HAS_CHECKPOINT_SQL, key)
            return await cur.fetchone() is not None

    async def _run_rows(self, run_id: str) -> list[RunRows]:
        """The run's checkpoints and noted writes, its proposals and the checkpoints of
        others built on it."""
        async with self._cursor() as cur:
            await cur.execute(RUN_CHECKPOINTS_SQL, (run_id,))
            found = [tuple(row.values()) for row in await cur.fetchall()]
            await cur.execute(NOTED_SQL, (run_id,))
            noted = [tuple(row.values()) for row in await cur.fetchall()]
            groups = group_rows(run_id, found, noted)
            for rows in groups:
                same = (rows.thread_id, rows.checkpoint_ns)
                ids = rows.checkpoint_ids
                await cur.execute(PROPOSALS_SQL, (*same, ids, run_id))
                rows.proposals = [
                    self.serde.loads_typed((row["type"], bytes(row["blob"])))
                    for row in await cur.fetchall()
                ]
                await cur.execute(CHILDREN_SQL, (*same, ids, ids))
                rows.children = int((await cur.fetchone() or {"n": 0})["n"])
        return groups

    async def _delete_run_rows(self, rows: RunRows) -> None:
        """Delete the run's checkpoints, their writes and blobs, and its noted writes."""
        same = (rows.thread_id, rows.checkpoint_ns)
        ids = rows.checkpoint_ids
        async with self.lock, _ainternal.get_connection(self.conn) as conn, conn.transaction():
            await conn.execute(RUN_BLOBS_SQL, (*same, ids, *same, ids))
            await conn.execute(f"DELETE FROM checkpoint_writes WHERE {NOTED_KEYS}", (rows.run_id,))
            await conn.execute(
                f"DELETE FROM checkpoint_writes WHERE {SAME} AND checkpoint_id = ANY(%s)",
                (*same, ids),
            )
            await conn.execute(
                f"DELETE FROM checkpoints WHERE {SAME} AND checkpoint_id = ANY(%s)", (*same, ids)
            )
            await conn.execute(
                f"DELETE FROM run_writes WHERE run_id = %s AND {SAME}", (rows.run_id, *same)
            )
