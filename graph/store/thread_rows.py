"""Every checkpoint's `DeltaChannel` history of one thread, from one read of its rows.

Listing a thread's states (`react-agent history`) rebuilds every checkpoint,
and each rebuild walks back to the channel's seed and replays the writes in
between (`graph.store.delta_walk`): read and decoded once per checkpoint,
that is quadratic in the thread's length. `ThreadRows` reads the thread's
checkpoint ids, parents and seed blobs and its delta channels' writes once,
decodes each blob once, and builds each checkpoint's history from its
parent's (the seed it found and the writes after it) plus the parent's own
writes: what `DeltaWalk` finds (`tests/test_savers.py` checks they agree), at
a cost proportional to the thread. Histories and decoded values are shared
between the states it rebuilds: for reading only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

from langgraph.checkpoint.base import DeltaChannelHistory, PendingWrite, writes_sort_key

from graph.store.delta_walk import NO_SEEDS


class DecodedOnce:
    """A serializer's `loads_typed`, remembering what each blob decoded to."""

    def __init__(self, serde: Any) -> None:
        self.serde = serde
        self._decoded: dict[tuple[str, bytes], Any] = {}

    def loads_typed(self, data: tuple[str, bytes]) -> Any:
        """The value of `data`, decoded on first use."""
        if data not in self._decoded:
            self._decoded[data] = self.serde.loads_typed(data)
        return self._decoded[data]


class ThreadRows:
    """One thread's checkpoints (ids, parents, seed blobs) and delta-channel writes."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        thread_id: str,
        checkpoint_ns: str,
        serde: Any,
        has_task_path: bool,
    ) -> None:
        self.thread_id = thread_id
        self.checkpoint_ns = checkpoint_ns
        self.serde = DecodedOnce(serde)
        self.has_task_path = has_task_path
        self._conn = conn
        self._rows: dict[str, tuple[str | None, int, str | None, bytes | None]] = {}
        query = (
            f"SELECT checkpoint_id, parent_checkpoint_id, {NO_SEEDS.format(m='metadata')}, "
            f"CASE WHEN NOT {NO_SEEDS.format(m='metadata')} THEN type END, "
            f"CASE WHEN NOT {NO_SEEDS.format(m='metadata')} THEN checkpoint END "
            "FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ?"
        )
        for checkpoint_id, parent_id, plain, type_tag, blob in conn.execute(
            query, (thread_id, checkpoint_ns)
        ):
            self._rows[str(checkpoint_id)] = (parent_id, plain, type_tag, blob)
        self._writes: dict[str, dict[str, list[PendingWrite]]] = {}
        self._memo: dict[tuple[str, str], DeltaChannelHistory] = {}

    def covers(self, thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> bool:
        """Whether this holds the checkpoint (one written since the read is not held)."""
        return (
            thread_id == self.thread_id
            and checkpoint_ns == self.checkpoint_ns
            and checkpoint_id in self._rows
        )

    def _seeds(self, checkpoint_id: str) -> Mapping[str, Any]:
        """The channel values a checkpoint's blob holds (none for one that seeds nothing)."""
        _, plain, type_tag, blob = self._rows[checkpoint_id]
        if plain or blob is None or type_tag is None:
            return {}
        return self.serde.loads_typed((type_tag, blob)).get("channel_values") or {}

    def _channel_writes(self, channel: str) -> dict[str, list[PendingWrite]]:
        """A channel's writes, decoded and in `writes_sort_key` order, by checkpoint."""
        if channel not in self._writes:
            task_path = "task_path" if self.has_task_path else "''"
            rows = self._conn.execute(
                f"SELECT checkpoint_id, task_id, idx, type, value, {task_path} "
                "FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ?",
                (self.thread_id, self.checkpoint_ns, channel),
            )
            found: dict[str, list[tuple[Any, ...]]] = {}
            for checkpoint_id, *row in rows:
                found.setdefault(str(checkpoint_id), []).append(tuple(row))
            by_checkpoint: dict[str, list[PendingWrite]] = {}
            for checkpoint_id, written in found.items():
                written.sort(key=lambda w: writes_sort_key(w[4], w[0], w[1]))
                by_checkpoint[checkpoint_id] = [
                    (task_id, channel, self.serde.loads_typed((type_tag, value)))
                    for task_id, _idx, type_tag, value, _path in written
                ]
            self._writes[channel] = by_checkpoint
        return self._writes[channel]

    def _after(self, parent_id: str | None, channel: str) -> DeltaChannelHistory:
        """The channel's history at a child of `parent_id`: the parent's seed and its own
        writes when it seeds the channel, else the parent's history plus its writes."""
        if parent_id is None or parent_id not in self._rows:
            return {"writes": []}
        key = (parent_id, channel)
        if key in self._memo:
            return self._memo[key]
        chain = [parent_id]
        while True:  # walk up to the nearest remembered or seeding ancestor, then come back
            cursor = chain[-1]
            seeds = self._seeds(cursor)
            if channel in seeds:
                base: DeltaChannelHistory = {"writes": [], "seed": seeds[channel]}
                break
            grandparent = self._rows[cursor][0]
            if grandparent is None or grandparent not in self._rows:
                base = {"writes": []}
                break
            if (grandparent, channel) in self._memo:
                base = self._memo[(grandparent, channel)]
                break
            chain.append(grandparent)
        written = self._channel_writes(channel)
        for cursor in reversed(chain):
            entry: DeltaChannelHistory = {"writes": [*base["writes"], *written.get(cursor, ())]}
            if "seed" in base:
                entry["seed"] = base["seed"]
            self._memo[(cursor, channel)] = base = entry
        return base

    def history(
        self, checkpoint_id: str, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Each channel's seed and later writes at `checkpoint_id`, as `DeltaWalk` finds them:
        from the parent's, so rebuilding every checkpoint costs what reading the thread does."""
        parent_id = self._rows[checkpoint_id][0]
        return {name: self._after(parent_id, name) for name in channels}
