"""The CLI's checkpoint saver on an SQLite file (`CompactSqliteSaver`) and how to open one.

It shares the file with the server's `CompactAsyncSqliteSaver` (`graph.store.aio`),
so the two share everything that decides what is on disk: the file's format
(`graph.store.sqlite_format`: pragmas, the writes table, the channel version
scheme) and the `delta_seeds` list in each checkpoint's metadata (see
`graph.store.delta_walk`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Self

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    DeltaChannelHistory,
    get_checkpoint_id,
    get_checkpoint_metadata,
)

from graph.errors import ThreadDeletedError
from graph.store.delta_walk import (
    STAGE1_SQL,
    DeltaWalk,
    empty_history,
    stage1_params,
    with_seeds,
)
from graph.store.fences import (
    NEWER,
    PUT_FENCED,
    FencedSqliteSaver,
    fence_of,
    newer_token,
)
from graph.store.leases import ThreadLease, lease_of
from graph.store.registry import registry_of
from graph.store.serde import CompressingSerializer
from graph.store.sqlite_format import WRITES_TABLE, connect, next_version
from graph.store.thread_rows import ThreadRows
from tools.dbfiles import CHECKPOINTS, check_file, claim, describe_error

PUT_IF_PARENT = (
    "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id,"
    " parent_checkpoint_id, type, checkpoint, metadata) SELECT ?, ?, ?, ?, ?, ?, ?"
    " WHERE EXISTS (SELECT 1 FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ?"
    " AND checkpoint_id = ?)"
)
"""`SqliteSaver.put`'s statement, storing nothing when the checkpoint's parent is gone."""
ORPHAN_WRITES = (
    "DELETE FROM writes WHERE thread_id = ? AND checkpoint_id NOT IN"
    " (SELECT checkpoint_id FROM checkpoints WHERE thread_id = ?)"
)
"""The writes of a thread whose checkpoint is gone (stored while it was being deleted)."""
DELETED = (
    "thread {thread_id} was deleted while this command ran on it: its checkpoint {parent}"
    " is gone, so nothing more of it is stored"
)


def thread_config(thread_id: str) -> RunnableConfig:
    """The config naming a thread's latest checkpoint."""
    return RunnableConfig(configurable={"thread_id": thread_id, "checkpoint_ns": ""})


def refuse_if_gone(saver: Any, config: RunnableConfig) -> None:
    """Raise `ThreadDeletedError` when `config` names a checkpoint `saver` no longer holds
    (its thread was deleted after a command read it, before the command's run began)."""
    configurable = config.get("configurable") or {}
    parent = configurable.get("checkpoint_id")
    if parent and saver is not None and saver.get_tuple(config) is None:
        thread_id = configurable.get("thread_id")
        raise ThreadDeletedError(DELETED.format(thread_id=thread_id, parent=parent))


class CarriesThreadStores:
    """What `open_checkpointer`'s savers share: the thread lease and registry of their
    database (`.lease`, `.registry`), and closing by `with` or `close()`."""

    @property
    def lease(self) -> ThreadLease | None:
        """The thread lease of this saver's database."""
        return lease_of(self)

    @property
    def registry(self) -> Any:
        """The thread registry of this saver's database."""
        return registry_of(self)

    def close(self) -> None:
        """Release what the saver holds."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


class CompactSqliteSaver(CarriesThreadStores, FencedSqliteSaver):
    """`SqliteSaver` with short channel versions, a cheap `DeltaChannel` walk and, in
    a new file, a writes table without a rowid."""

    def close(self) -> None:
        """Close the connection."""
        self.conn.close()

    _thread_rows: ThreadRows | None = None

    @contextmanager
    def reading_thread(self, thread_id: str, checkpoint_ns: str = "") -> Iterator[None]:
        """Within the block, the `DeltaChannel` histories of the thread's checkpoints come
        from one read of its rows (`graph.store.thread_rows`): for listings that rebuild
        every checkpoint's state, read-only."""
        self.setup()
        with self.lock:
            rows = ThreadRows(self.conn, thread_id, checkpoint_ns, self.serde, self._has_task_path)
        self._thread_rows = rows
        try:
            yield
        finally:
            self._thread_rows = None

    def setup(self) -> None:
        """Create the tables if needed (`SqliteSaver.setup` runs under `self.lock`)."""
        if not self.is_setup:
            self.conn.execute(WRITES_TABLE)
        super().setup()

    def get_next_version(self, current: str | None, channel: None) -> str:
        """See `next_version`."""
        return next_version(current)

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store the checkpoint, its metadata listing the channels it seeds, only while its
        parent is stored and no newer lease was taken on the thread (both checked in the same
        statement): a thread deleted while a command ran on it (the server's `threads.delete`)
        does not come back half made, without its question or first steps
        (`ThreadDeletedError`), and a process whose thread was taken over writes nothing
        (`LeaseLostError`)."""
        metadata = with_seeds(checkpoint, metadata)
        configurable = config["configurable"]
        parent = configurable.get("checkpoint_id")
        thread_id, checkpoint_ns = str(configurable["thread_id"]), configurable["checkpoint_ns"]
        fence = fence_of(self, thread_id)
        if not parent and fence is None:
            return super().put(config, checkpoint, metadata, new_versions)
        type_, blob = self.serde.dumps_typed(checkpoint)
        meta = json.dumps(get_checkpoint_metadata(config, metadata), ensure_ascii=False)
        meta_blob = meta.encode("utf-8", "ignore")
        row = (thread_id, checkpoint_ns, checkpoint["id"], parent, type_, blob, meta_blob)
        params: list[Any] = [*row]
        if parent:
            sql = PUT_IF_PARENT + (f" AND NOT {NEWER}" if fence is not None else "")
            params += [thread_id, checkpoint_ns, parent]
        else:
            sql = PUT_FENCED
        if fence is not None:
            params += [thread_id, fence[1]]
        with self.cursor() as cur:
            cur.execute(sql, params)
            stored = cur.rowcount > 0
            if not stored and fence is not None and newer_token(cur, thread_id, fence[1]):
                self.conn.rollback()
                raise fence[0].lost(thread_id)
        if not stored:
            raise self._deleted(thread_id, str(parent))
        return {
            "configurable": {
                "thread_id": thread_id,
                "checkpoint_ns": checkpoint_ns,
                "checkpoint_id": checkpoint["id"],
            }
        }

    def _deleted(self, thread_id: str, checkpoint_id: str) -> ThreadDeletedError:
        """The error for a checkpoint whose parent is gone. The writes the run stored on
        checkpoints that are gone are taken out (a write may reach the saver before its
        checkpoint does, so they are not refused when stored), and the thread's registry
        row goes too when none of its checkpoints is left (a node may have written it again)."""
        with self.cursor() as cur:
            cur.execute(ORPHAN_WRITES, (thread_id, thread_id))
        registry = registry_of(self)
        if registry is not None and self.get_tuple(thread_config(thread_id)) is None:
            registry.forget(thread_id)
        return ThreadDeletedError(DELETED.format(thread_id=thread_id, parent=checkpoint_id))

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Each channel's seed and later writes, reading blobs only where seeds are."""
        if not channels:
            return {}
        checkpoint_id = get_checkpoint_id(config)
        if not checkpoint_id:
            target = self.get_tuple(config)
            if target is None:
                return empty_history(channels)
            checkpoint_id = str(target.config["configurable"]["checkpoint_id"])
        thread_id = str(config["configurable"]["thread_id"])
        checkpoint_ns = str(config["configurable"].get("checkpoint_ns", ""))
        bulk = self._thread_rows
        if bulk is not None and bulk.covers(thread_id, checkpoint_ns, checkpoint_id):
            with self.lock:
                return bulk.history(checkpoint_id, channels)
        walk = DeltaWalk(checkpoint_id, channels, self.serde)
        rows: list[Any] = []
        with self.cursor(transaction=False) as cur:
            cur.execute(STAGE1_SQL, stage1_params(thread_id, checkpoint_ns, checkpoint_id))
            for row in cur:
                if walk.take(row):
                    break
            for sql, params in walk.writes_queries(thread_id, checkpoint_ns, self._has_task_path):
                rows.extend(cur.execute(sql, params).fetchall())
        return walk.history(rows)


def open_sqlite_saver(path: str | Path, *, create: bool = True) -> CompactSqliteSaver:
    """A `CompactSqliteSaver` on `path`, created if needed and allowed.

    Raises `DatabaseFileError` (one line naming the file) for a missing file when
    `create` is False, a file of another kind, a damaged file or an unwritable directory.
    """
    db = check_file(path, CHECKPOINTS, create=create)
    try:
        conn = connect(db)
        claim(conn, CHECKPOINTS)
        saver = CompactSqliteSaver(conn, serde=CompressingSerializer())
        saver.setup()
    except sqlite3.Error as error:
        raise describe_error(db, CHECKPOINTS, error) from None
    return saver
