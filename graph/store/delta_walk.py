"""Rebuilding `DeltaChannel` values from SQLite without reading every ancestor.

A `DeltaChannel` (see `graph.core.state`) stores no value in a checkpoint except
an occasional snapshot, its *seed*; reading a channel walks the checkpoint's
ancestors back to the nearest seed and replays the writes in between.
LangGraph's `SqliteSaver` finds seeds by deserialising every ancestor's whole
checkpoint blob, and `question` and `settings`, written once, are seeded
only at the thread's start. Our savers record in each checkpoint's metadata
(`delta_seeds`) which channels it seeds, so the walk reads ids and whether
that list is empty, and reads a blob only where it is not (or, for a
checkpoint written by another saver, where the list is missing), looking for
seeds the way LangGraph does. `tests/test_savers.py` checks both walks agree
on every checkpoint.

`DeltaWalk` consumes the rows of `STAGE1_SQL` and says which writes to read
(`writes_queries`); the sync and async savers only run the queries.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, cast

from langgraph.checkpoint.base import Checkpoint, CheckpointMetadata, DeltaChannelHistory
from langgraph.checkpoint.serde.types import _DeltaSnapshot
from langgraph.checkpoint.sqlite._delta import build_delta_channels_writes_history

from graph.store.locations import metadata_without_passwords

SEEDS_KEY = "delta_seeds"
MAX_IDS_PER_QUERY = 900

# json.dumps (the savers' metadata encoder) writes an empty list as exactly this.
NO_SEEDS = f"instr(CAST({{m}} AS TEXT), '\"{SEEDS_KEY}\": []') > 0"
_SAME_ROW = "c.thread_id = ? AND c.checkpoint_ns = ? AND c.checkpoint_id = a.checkpoint_id"
# The target, then its ancestors nearest first, following parent ids (as LangGraph's
# walk does); a blob is read only for rows that may seed a channel.
STAGE1_SQL = (
    "WITH RECURSIVE ancestors(checkpoint_id, parent_checkpoint_id, plain) AS ("
    f"SELECT checkpoint_id, parent_checkpoint_id, {NO_SEEDS.format(m='metadata')} "
    "FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? "
    "UNION ALL "
    f"SELECT c.checkpoint_id, c.parent_checkpoint_id, {NO_SEEDS.format(m='c.metadata')} "
    "FROM ancestors a CROSS JOIN checkpoints c ON c.checkpoint_id = a.parent_checkpoint_id "
    "WHERE c.thread_id = ? AND c.checkpoint_ns = ?) "
    "SELECT a.checkpoint_id, a.plain, "
    f"CASE WHEN NOT a.plain THEN (SELECT c.type FROM checkpoints c WHERE {_SAME_ROW}) END, "
    f"CASE WHEN NOT a.plain THEN (SELECT c.checkpoint FROM checkpoints c WHERE {_SAME_ROW}) END "
    "FROM ancestors a"
)


def stage1_params(thread_id: str, checkpoint_ns: str, checkpoint_id: str) -> tuple[str, ...]:
    """The parameters of `STAGE1_SQL` for one target checkpoint."""
    same = (thread_id, checkpoint_ns)
    return (*same, checkpoint_id, *same, *same, *same)


def with_seeds(checkpoint: Checkpoint, metadata: CheckpointMetadata) -> CheckpointMetadata:
    """`metadata` plus the list of channels this checkpoint seeds (snapshots), a URL's
    password left out (`metadata_without_passwords`)."""
    seeds = sorted(
        name
        for name, value in checkpoint["channel_values"].items()
        if isinstance(value, _DeltaSnapshot)
    )
    return cast(CheckpointMetadata, {**metadata_without_passwords(metadata), SEEDS_KEY: seeds})


class DeltaWalk:
    """The walk from one target checkpoint back to each channel's seed."""

    def __init__(self, target_id: str, channels: Sequence[str], serde: Any) -> None:
        self.target_id = target_id
        self.channels = list(channels)
        self.serde = serde
        self.walked: list[str] = []
        self.seeds: dict[str, Any] = {}
        self.depths: dict[str, int] = {}
        self._active = set(self.channels)
        self._seen = {target_id}
        self._started = False

    def take(self, row: tuple[str, int, str | None, bytes | None]) -> bool:
        """Read one row of `STAGE1_SQL`; True when the walk is done."""
        checkpoint_id, plain, type_tag, blob = row
        if not self._started:
            self._started = checkpoint_id == self.target_id
            return self._started and not self._active
        if checkpoint_id in self._seen:
            return True
        self._seen.add(checkpoint_id)
        self.walked.append(checkpoint_id)
        if plain or blob is None:
            return False
        values = self.serde.loads_typed((type_tag, blob)).get("channel_values") or {}
        for name in [name for name in self._active if name in values]:
            self.seeds[name] = values[name]
            self.depths[name] = len(self.walked)
            self._active.discard(name)
        return not self._active

    def chain(self, channel: str) -> list[str]:
        """The checkpoints whose writes `channel` replays, nearest first."""
        return self.walked[: self.depths.get(channel, len(self.walked))]

    def writes_queries(
        self, thread_id: str, checkpoint_ns: str, has_task_path: bool
    ) -> Iterator[tuple[str, list[Any]]]:
        """The queries (and parameters) that read each channel's writes on the
        checkpoints its walk passed, a bounded number of checkpoint ids each."""
        task_path = "task_path" if has_task_path else "''"
        for name in self.channels:
            chain = self.chain(name)
            for at in range(0, len(chain), MAX_IDS_PER_QUERY):
                ids = chain[at : at + MAX_IDS_PER_QUERY]
                sql = (
                    f"SELECT checkpoint_id, channel, task_id, idx, type, value, {task_path} "
                    "FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND channel = ? "
                    f"AND checkpoint_id IN ({','.join('?' * len(ids))})"
                )
                yield sql, [thread_id, checkpoint_ns, name, *ids]

    def history(self, rows: Iterable[Any]) -> Mapping[str, DeltaChannelHistory]:
        """Each channel's seed (if found) and the writes after it, oldest first."""
        return build_delta_channels_writes_history(
            channels=self.channels,
            chain_by_ch={name: self.chain(name) for name in self.channels},
            seed_val_by_ch=self.seeds,
            seeded=set(self.seeds),
            stage2_rows=list(rows),
            serde=self.serde,
        )


def empty_history(channels: Sequence[str]) -> dict[str, DeltaChannelHistory]:
    """The history of channels on a thread with no checkpoint."""
    return {name: {"writes": []} for name in channels}
