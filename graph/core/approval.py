"""Human approval of write actions, in the shape of LangChain's HITL middleware.

The interrupt payload is a `HITLRequest` (`action_requests`, `review_configs`)
and a resume value is a `HITLResponse` (`{"decisions": [...]}` with `approve`,
`edit` + `edited_action`, or `reject` + `message`), so Studio, Agent
Inbox-style UIs and LangChain users already know both. Agent Inbox's own
responses (`accept`, `edit` with `args`, `ignore`, `response`) are read as ours.

LangChain's HITL types are imported inside `approval_request`: every CLI command imports
this module (through `graph.cli.episodes`), and at the top they would add about 0.9 s
(`langchain.agents`) to `react-agent --help`, which takes 0.2 s (python -X importtime).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from graph.errors import DecisionError

if TYPE_CHECKING:
    from langchain.agents.middleware.human_in_the_loop import HITLRequest

ALLOWED_DECISIONS: list[Literal["approve", "edit", "reject"]] = ["approve", "edit", "reject"]

MAX_REASON_CHARS = 4000
DECISION_SHAPE = (
    'expected {"decisions": [{"type": "approve"}]}, '
    '{"decisions": [{"type": "edit", "edited_action": {"name": "...", "args": {...}}}]} '
    'or {"decisions": [{"type": "reject", "message": "why"}]}'
)


@dataclass(frozen=True)
class Decision:
    """A validated decision about one proposed write action."""

    type: Literal["approve", "edit", "reject"]
    name: str = ""
    args: Mapping[str, Any] | None = None
    message: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The decision in HITL-response form."""
        if self.type == "edit":
            return {
                "type": "edit",
                "edited_action": {"name": self.name, "args": dict(self.args or {})},
            }
        if self.type == "reject":
            return {"type": "reject", "message": self.message}
        return {"type": "approve"}


@dataclass(frozen=True)
class Given:
    """A decision given from outside the graph (the CLI, a Python caller), parsed once
    where it comes in: `decision` when it is valid, else None and the `problem`."""

    value: Any
    decision: Decision | None
    problem: str = ""

    @classmethod
    def of(cls, value: Any) -> Given:
        """`value` parsed (a `Decision` is taken as it is); an invalid one keeps its problem."""
        if isinstance(value, Given):
            return value
        if isinstance(value, Decision):
            return cls(value.as_dict(), value)
        try:
            return cls(value, parse_decision(value))
        except DecisionError as error:
            return cls(value, None, str(error))

    def resume_value(self) -> dict[str, Any]:
        """What the graph is resumed with: the decision in HITL-response form, or an invalid
        one as it was given (the `review` node asks again, saying what is wrong)."""
        if self.decision is not None:
            return {"decisions": [self.decision.as_dict()]}
        value = self.value
        return dict(value) if isinstance(value, Mapping) else {"decisions": value}


def approval_request(
    name: str,
    args: Mapping[str, Any],
    description: str,
    error: str | None = None,
    request_id: str = "",
) -> HITLRequest:
    """The interrupt payload asking a human about one write action.

    `request_id` names this request; a decision may name it back
    (`{"decisions": [...], "request_id": ...}`) so that it cannot answer another.
    """
    from langchain.agents.middleware.human_in_the_loop import (
        ActionRequest,
        HITLRequest,
        ReviewConfig,
    )

    request = ActionRequest(name=name, args=dict(args), description=description)
    config = ReviewConfig(action_name=name, allowed_decisions=list(ALLOWED_DECISIONS))
    payload = HITLRequest(action_requests=[request], review_configs=[config])
    if request_id:
        payload["request_id"] = request_id  # type: ignore[typeddict-unknown-key]
    if error:
        payload["error"] = error  # type: ignore[typeddict-unknown-key]
    return payload


DECISION_KEYS = {
    "approve": {"type"},
    "reject": {"type", "message"},
    "edit": {"type", "edited_action"},
}


INBOX_SHAPE = (
    'Agent Inbox responses are [{"type": "accept"}], [{"type": "ignore"}], '
    '[{"type": "response", "args": "why"}] or '
    '[{"type": "edit", "args": {"action": "...", "args": {...}}}]'
)
INBOX_TYPES = frozenset({"accept", "ignore", "response", "edit"})
IGNORED = "ignored in Agent Inbox, without a reason"


def inbox_response(value: Any) -> Mapping[str, Any] | None:
    """The Agent Inbox response `value` is (`[{"type": ..., "args": ...}]`, or the bare
    object), or None when it is not one (an `edit` with `edited_action` is ours)."""
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], Mapping):
        value = value[0]
    elif isinstance(value, list):
        raise DecisionError(f"exactly one response is needed: {INBOX_SHAPE}")
    if not isinstance(value, Mapping) or value.get("type") not in INBOX_TYPES:
        return None
    if value["type"] == "edit" and "edited_action" in value:
        return None
    return value


def from_inbox(value: Mapping[str, Any]) -> dict[str, Any]:
    """An Agent Inbox response as our decision: accept -> approve, edit (`args`: the
    action and its arguments) -> edit, ignore -> reject, response -> reject with its text."""
    kind, args = value["type"], value.get("args")
    if kind == "accept":
        return {"type": "approve"}
    if kind == "ignore":
        return {"type": "reject", "message": IGNORED}
    if kind == "response":
        if not isinstance(args, str):
            raise DecisionError(f"a response's args must be its text: {INBOX_SHAPE}")
        return {"type": "reject", "message": args}
    if not isinstance(args, Mapping) or not isinstance(args.get("args"), Mapping):
        raise DecisionError(f"an edit's args must hold action and args: {INBOX_SHAPE}")
    return {"type": "edit", "edited_action": {"name": args.get("action"), "args": args["args"]}}


def parse_decision(value: Any, *, recorded: bool = False) -> Decision:
    """Validate a resume value; raise `DecisionError` naming what was expected.

    A person's decision holds only its type's keys (an approve holding an
    `edited_action` would run the proposal as it was), and a bare one (not inside
    `decisions`) the `request_id` it answers; a `recorded` one may also carry the
    policy that made it.
    """
    named: set[str] = {"request_id"}
    response = None if recorded else inbox_response(value)
    if response is not None:
        value, named = from_inbox(response), set()
    if isinstance(value, Mapping) and "decisions" in value:
        decisions = value["decisions"]
        if not isinstance(decisions, list) or len(decisions) != 1:
            raise DecisionError(f"exactly one decision is needed: {DECISION_SHAPE}")
        value, named = decisions[0], set()
    if not isinstance(value, Mapping):
        raise DecisionError(f"a decision must be an object: {DECISION_SHAPE}")
    kind = value.get("type")
    allowed = DECISION_KEYS.get(kind) if isinstance(kind, str) and not recorded else None
    allowed = allowed | named if allowed else None
    extra = sorted(str(key) for key in value if key not in allowed) if allowed else []
    if extra:
        raise DecisionError(f"{kind} decisions take no {', '.join(extra)}: {DECISION_SHAPE}")
    if kind == "approve":
        return Decision("approve")
    if kind == "reject":
        message = value.get("message", "")
        if not isinstance(message, str):
            raise DecisionError("a reject decision's message must be text")
        try:
            message.encode("utf-8")
        except UnicodeEncodeError as error:
            raise DecisionError(
                f"a reject decision's message is not valid text: character {error.start + 1} "
                "is not Unicode (was it typed in another encoding?)"
            ) from None
        if len(message) > MAX_REASON_CHARS:
            raise DecisionError(
                f"a reject decision's message may be at most {MAX_REASON_CHARS:,} characters "
                f"({len(message):,} given); it becomes the model's observation"
            )
        return Decision("reject", message=message.strip() or "no reason given")
    if kind == "edit":
        edited = value.get("edited_action")
        if not isinstance(edited, Mapping):
            raise DecisionError(f"an edit decision needs edited_action: {DECISION_SHAPE}")
        name, args = edited.get("name"), edited.get("args")
        if not isinstance(name, str) or not name or not isinstance(args, Mapping):
            raise DecisionError("edited_action needs a 'name' (text) and 'args' (an object)")
        return Decision("edit", name=name, args=dict(args))
    raise DecisionError(f"unknown decision type {kind!r}: {DECISION_SHAPE}")
