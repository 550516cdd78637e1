"""Fenced writes to an SQLite checkpoint database (`tools.fencing` says why).

A saver's write carries the fencing token of the lease this process holds on
the thread (`ThreadLease.token_of`) and stores nothing when the lease table
holds a newer one: the condition is part of the write's own statement, so no
take-over can slip between check and write. Writes made with no lease held
(a token of None) are not checked.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import WRITES_IDX_MAP
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.store.leases import ThreadLease

NEWER = "EXISTS (SELECT 1 FROM thread_leases WHERE thread_id = ? AND token > ?)"
"""True when a lease newer than the writer's token was taken on the thread."""
WRITE_COLUMNS = (
    "thread_id, checkpoint_ns, checkpoint_id, task_id, task_path, idx, channel, type, value"
)
PUT_FENCED = (
    "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id,"
    f" parent_checkpoint_id, type, checkpoint, metadata) SELECT ?, ?, ?, ?, ?, ?, ?"
    f" WHERE NOT {NEWER}"
)
"""`SqliteSaver.put`'s statement, storing nothing for a writer whose lease was taken over."""


def fence_of(saver: Any, thread_id: str) -> tuple[ThreadLease, int] | None:
    """The lease a saver's writes on `thread_id` are fenced by and this process's token,
    or None when this process holds no lease on the thread."""
    lease: ThreadLease | None = getattr(saver, "thread_lease", None)
    token = lease.token_of(thread_id) if lease is not None else None
    return None if lease is None or token is None else (lease, token)


def fenced_writes_sql(writes: Sequence[tuple[str, Any]]) -> str:
    """`SqliteSaver.put_writes`'s statement (replace for special channels, else ignore),
    storing nothing for a writer whose lease was taken over."""
    how = "REPLACE" if all(channel in WRITES_IDX_MAP for channel, _ in writes) else "IGNORE"
    marks = ", ".join("?" * len(WRITE_COLUMNS.split(", ")))
    return f"INSERT OR {how} INTO writes ({WRITE_COLUMNS}) SELECT {marks} WHERE NOT {NEWER}"


def write_rows(
    config: RunnableConfig,
    writes: Sequence[tuple[str, Any]],
    task_id: str,
    task_path: str,
    serde: Any,
    token: int,
) -> list[tuple[Any, ...]]:
    """The parameters of `fenced_writes_sql`, one tuple per write."""
    configurable = config["configurable"]
    thread_id = str(configurable["thread_id"])
    return [
        (
            thread_id,
            str(configurable["checkpoint_ns"]),
            str(configurable["checkpoint_id"]),
            task_id,
            task_path,
            WRITES_IDX_MAP.get(channel, idx),
            channel,
            *serde.dumps_typed(value),
            thread_id,
            token,
        )
        for idx, (channel, value) in enumerate(writes)
    ]


def newer_token(cur: sqlite3.Cursor, thread_id: str, token: int) -> bool:
    """Whether a lease newer than `token` was taken on the thread (read in the caller's
    transaction, after a fenced statement stored less than it was given)."""
    return cur.execute(f"SELECT {NEWER}", (thread_id, token)).fetchone()[0] == 1


class FencedSqliteSaver(SqliteSaver):
    """`SqliteSaver` whose `put_writes` is fenced."""

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Store the writes, none of them when a newer lease was taken on the thread
        (`LeaseLostError`; checked in each write's statement)."""
        thread_id = str(config["configurable"]["thread_id"])
        fence = fence_of(self, thread_id)
        if fence is None or not writes:
            return super().put_writes(config, writes, task_id, task_path)
        rows = write_rows(config, writes, task_id, task_path, self.serde, fence[1])
        with self.cursor() as cur:
            cur.executemany(fenced_writes_sql(writes), rows)
            if cur.rowcount < len(rows) and newer_token(cur, thread_id, fence[1]):
                self.conn.rollback()
                raise fence[0].lost(thread_id)
        return None
