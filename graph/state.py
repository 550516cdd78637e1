"""The checkpointed state: plain JSON-able data only.

`steps` and `evidence` only ever grow, so they are `DeltaChannel`s: each
checkpoint stores the new items, not the whole list again, and the SQLite
file grows linearly with the number of steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal, NotRequired

from langgraph.channels.delta import DeltaChannel
from typing_extensions import TypedDict

from tools.base import Evidence, Verdict

Status = Literal[
    "running", "verified", "unverified", "budget_exhausted", "awaiting_approval", "error"
]
StepKind = Literal["tool", "failed", "invalid", "repeat", "rejected", "unsupported", "finish"]


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


class Counters(TypedDict, total=False):
    """Budgets spent so far."""

    model_calls: int
    tool_calls: int
    invalid_actions: int
    repeats: int
    rejections: int
    input_tokens: int
    output_tokens: int
    http_requests: int
    cache_hits: int
    elapsed_s: float


class AgentState(TypedDict, total=False):
    """Everything an episode needs to resume."""

    question: str
    steps: Annotated[list[Step], DeltaChannel(append_items)]
    evidence: Annotated[list[Evidence], DeltaChannel(append_items)]
    proposal: Proposal | None
    outcome: dict[str, Any] | None
    env_state: dict[str, Any]
    counters: Counters
    settings: dict[str, Any]
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
