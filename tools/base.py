"""The contract between the agent graph and an environment (Wikipedia, library).

An environment turns one parsed action into a `ToolOutcome`: the observation
text the model sees, the evidence the state stores, and any changes to the
environment's part of the state (current page, lookup cursors). Environments
keep no mutable episode state of their own: everything an episode needs to
resume lives in the checkpointed state the graph passes in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel
from typing_extensions import TypedDict


class EvidenceDraft(TypedDict):
    """A piece of evidence a tool returned, before the state gives it an id.

    `source` says where it came from: `{"title": str, "sentence_index": int}`
    for a Wikipedia sentence, `{"tool": ..., "copy_id": ..., "snapshot_time": ...}`
    and the like for the library. `facts` holds structured values a program
    can check (the library's completion conditions); it is `{}` for prose.
    """

    text: str
    tool: str
    source: dict[str, Any]
    facts: dict[str, Any]


class Evidence(EvidenceDraft):
    """Evidence as stored in the state: stored once, with an id and a time."""

    id: str
    retrieved_at: str


Outcome = Literal["verified", "grounded", "rejected"]
OUTCOMES: tuple[Outcome, ...] = ("verified", "grounded", "rejected")


class Verdict(TypedDict):
    """What a checker decided about a proposed final answer.

    `outcome` is `verified` (the evidence states the answer and ties it to what the
    question asks), `grounded` (the evidence states it and nothing contradicts it, but
    the tie cannot be confirmed) or `rejected` (a definite failure, said in `reason`);
    `supported` is true exactly when `outcome` is `verified`.
    """

    supported: bool
    outcome: Outcome
    evidence_ids: list[str]
    reason: str
    missing: list[str]
    grounding: str


def verdict_outcome(verdict: Mapping[str, Any]) -> Outcome:
    """A verdict's outcome; one stored before outcomes existed reads as `verified` when
    supported, else `rejected`."""
    outcome = verdict.get("outcome")
    if outcome in OUTCOMES:
        return outcome
    return "verified" if verdict.get("supported") else "rejected"


@dataclass(frozen=True)
class ToolOutcome:
    """The result of executing one action.

    `calls` counts the backend calls it took (a retried timeout is two), which
    the graph charges to the tool-call budget; `failed` marks an outcome whose
    answer is unknown (timeout, backend error); `stop_reason` ends the episode.
    """

    observation: str
    evidence: list[EvidenceDraft] = field(default_factory=list)
    env_update: dict[str, Any] = field(default_factory=dict)
    calls: int = 1
    requests: int = 0
    cache_hits: int = 0
    failed: bool = False
    stop_reason: str | None = None


@dataclass(frozen=True)
class ActionSpec:
    """One action the model may write as `Name[argument]`.

    `writes` marks side effects (a human approves them first); `reads_state`
    marks actions whose result depends on the episode's `env_state` (Lookup's
    cursor), which repeat detection needs to know.
    """

    name: str
    usage: str
    description: str
    writes: bool = False
    args_model: type[BaseModel] | None = None
    reads_state: bool = False


@dataclass(frozen=True)
class ExecContext:
    """What an environment may read while executing one action.

    `settings` is the run's Context object; `env_state` the environment's slice
    of the checkpointed state; `idempotency_key` is unique per thread and step,
    so a write replayed after a crash or a resume is recognised. `request_id`
    names the approval request a write or an audit row belongs to and `actor`
    who acted (`cli:user@host`, `api`, `policy:auto`...); both '' when none.
    `fence` is the fencing token of the thread's lease the run holds (None when
    none): the environment's writes carry it (`tools.fencing`).
    """

    settings: Any
    env_state: Mapping[str, Any]
    thread_id: str
    step_index: int
    idempotency_key: str
    tool_calls_left: int = 1
    request_id: str = ""
    actor: str = ""
    fence: int | None = None


class EnvironmentUnavailable(ValueError):
    """What an environment acts on cannot be reached (an MCP server that does not start);
    the message is one line, and the episode stays resumable."""


class ArgumentError(ValueError):
    """An action's argument is invalid; the message is shown to the model."""


class Environment(Protocol):
    """An environment the ReAct graph can act in."""

    name: str
    finish_action: str

    def specs(self) -> Mapping[str, ActionSpec]:
        """Action specs by canonical name (the finish action included)."""
        ...

    def parse_args(self, action: str, argument: str) -> dict[str, Any]:
        """Validate the raw bracket argument; raise `ArgumentError` if it is bad."""
        ...

    def execute(self, action: str, args: Mapping[str, Any], ctx: ExecContext) -> ToolOutcome:
        """Run a (non-finish) action and describe what it returned."""
        ...

    def goal_unreachable(self, question: str, ctx: ExecContext) -> str | None:
        """Why the goal can no longer be met (a passed deadline), or None."""
        ...

    def situation(self, question: str, ctx: ExecContext) -> str:
        """Facts of the run the model needs in its prompt (clock, origin), or ""."""
        ...

    def final_answer(
        self, question: str, answer: str, verdict: Verdict, evidence: Sequence[Evidence]
    ) -> str:
        """The accepted answer as shown to the user (with any caveat it needs)."""
        ...

    def record_audit(self, event: str, detail: Mapping[str, Any], ctx: ExecContext) -> None:
        """Append an approval event (`proposed`, `decision`, `fork`, `settings_changed`)
        to the audit log; an exact replay of a row already written is not written again.

        `executed` rows are the environment's own: written in the write's transaction.
        """
        ...

    def check_answer(
        self,
        question: str,
        answer: str,
        evidence: Sequence[Evidence],
        ctx: ExecContext,
    ) -> Verdict:
        """Decide whether the stored evidence supports `answer`."""
        ...
