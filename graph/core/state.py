"""The checkpointed state: plain JSON-able data only.

`steps` and `evidence` only ever grow, so they are `DeltaChannel`s: each
checkpoint stores the new items, not the whole list again, and the SQLite
file grows linearly with the number of steps. The values a turn hands on
(`proposal`, `outcome`, `env_state`, `counters`) and those written once per
thread (`question`, `settings`) are `DeltaChannel`s keeping their latest
write: each value is stored once, as the write that set it, not again in
every checkpoint (`proposal` and `outcome` are None once consumed).

A `DeltaChannel` is read back by replaying writes since its last snapshot,
taken every N updates: every 100 for the lists (a snapshot copies the whole
list), every 10 for the turn's values (small, rewritten each turn), and
practically never for the write-once values (one write to replay).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, NotRequired

from langgraph.channels.delta import DeltaChannel
from typing_extensions import TypedDict

from tools.base import Evidence, Verdict

Status = Literal[
    "running",
    "verified",
    "grounded",
    "unverified",
    "budget_exhausted",
    "awaiting_approval",
    "error",
]
StepKind = Literal[
    "tool", "failed", "invalid", "repeat", "rejected", "unsupported", "grounded", "finish"
]


LIST_SNAPSHOTS = 100
TURN_SNAPSHOTS = 10
ONCE_SNAPSHOTS = 1000


def latest(current: Any, writes: Sequence[Any]) -> Any:
    """Reducer of the channels that keep their last write (batching-invariant)."""
    return writes[-1] if writes else current


def append_items(current: list[Any], batches: Sequence[list[Any]]) -> list[Any]:
    """Reducer of the append-only channels (batching-invariant, as DeltaChannel needs)."""
    merged = list(current)
    for batch in batches:
        merged.extend(batch)
    return merged


class Step(TypedDict, total=False):
    """One Thought / Action / Observation turn of the trajectory."""

    index: int
    thought: str
    action: str
    argument: str
    args: dict[str, Any]
    action_text: str
    kind: StepKind
    observation: str
    evidence_ids: list[str]
    decision: dict[str, Any]
    request_id: str
    decided_by: str
    decision_note: str
    repeat_key: str
    state_before: str
    state_after: str
    at: str


class Proposal(TypedDict, total=False):
    """What `reason` parsed from the model and the next nodes act on."""

    thought: str
    action: str
    argument: str
    args: dict[str, Any]
    action_text: str
    writes: bool
    finish: bool
    kind: StepKind
    observation: str
    decision: dict[str, Any]
    request_id: str
    proposed_by: str
    decided_by: str


class Counters(TypedDict, total=False):
    """Budgets spent so far."""

    model_calls: int
    tool_calls: int
    invalid_actions: int
    repeats: int
    rejections: int
    grounded_returns: int
    input_tokens: int
    output_tokens: int
    http_requests: int
    cache_hits: int
    elapsed_s: float


class AgentState(TypedDict, total=False):
    """Everything an episode needs to resume."""

    question: Annotated[str, DeltaChannel(latest, snapshot_frequency=ONCE_SNAPSHOTS)]
    steps: Annotated[list[Step], DeltaChannel(append_items, snapshot_frequency=LIST_SNAPSHOTS)]
    evidence: Annotated[
        list[Evidence], DeltaChannel(append_items, snapshot_frequency=LIST_SNAPSHOTS)
    ]
    proposal: Annotated[Proposal, DeltaChannel(latest, snapshot_frequency=TURN_SNAPSHOTS)]
    outcome: Annotated[dict[str, Any], DeltaChannel(latest, snapshot_frequency=TURN_SNAPSHOTS)]
    env_state: Annotated[dict[str, Any], DeltaChannel(latest, snapshot_frequency=TURN_SNAPSHOTS)]
    counters: Annotated[Counters, DeltaChannel(latest, snapshot_frequency=TURN_SNAPSHOTS)]
    settings: Annotated[dict[str, Any], DeltaChannel(latest, snapshot_frequency=ONCE_SNAPSHOTS)]
    status: Status
    stop_reason: str
    answer: str
    verdict: Verdict | None


class InputState(TypedDict):
    """What a caller supplies to start an episode.

    `settings` (the run's Context as a dict, plus `env`) is stored by the input
    checkpoint, before any node runs, so a thread killed before its first step
    still resumes with them. A caller that gives only a question (a server run)
    gets its run's context stored by the first node.
    """

    question: str
    settings: NotRequired[dict[str, Any]]
