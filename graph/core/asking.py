"""Asking a human about a write: the interrupt that waits until a valid decision comes back.

A decision that cannot be taken (invalid, naming another request, refused by the
policy, or one whose recording failed) is not applied: the request is asked
again, its payload's `error` saying why (raising instead would leave the stale
resume value stored with the task, to be replayed by every later resume).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from langgraph.types import interrupt

from graph.core.approval import Decision, approval_request, parse_decision
from graph.core.guarded_decisions import (
    EXPIRE,
    NOT_EXPIRED,
    Asked,
    marks_of,
    record_refusal,
    refusal,
    with_policy,
)
from graph.core.state import Proposal
from graph.core.trajectory import action_text
from graph.errors import DecisionError
from tools.base import ArgumentError, Environment, ExecContext

EDIT_NOT_ACTION = "edited_action must name one of: {names}"
UNRECORDED = "_not_recorded"
REFUSED = "_refused"
NOT_RECORDED = "an earlier decision could not be recorded ({error}), so it was not taken"
STALE_REQUEST = (
    "this decision answers request {named}, but thread {thread_id} waits on request "
    "{pending}: {named} was already answered or superseded, and nothing was run"
)


def named_request(value: Any) -> str:
    """The request id a resume value names, or ''."""
    return str(value.get("request_id") or "") if isinstance(value, Mapping) else ""


def edited_proposal(env: Environment, name: str, args: Mapping[str, Any] | None) -> Proposal:
    """An edited action is a new proposal: validated again like the model's."""
    specs = {key.casefold(): spec for key, spec in env.specs().items()}
    spec = specs.get(name.casefold())
    if spec is None or spec.name == env.finish_action:
        names = ", ".join(k for k in env.specs() if k != env.finish_action)
        raise DecisionError(EDIT_NOT_ACTION.format(names=names))
    argument = json.dumps(dict(args or {}), ensure_ascii=False)
    parsed_args = env.parse_args(spec.name, argument)
    return Proposal(
        action=spec.name,
        argument=argument,
        args=parsed_args,
        action_text=action_text(spec.name, argument),
        writes=spec.writes,
    )


def ask_human(
    env: Environment, proposal: Proposal, exec_ctx: ExecContext, request: Asked
) -> tuple[Any, Decision | None]:
    """Interrupt until a valid decision for this request comes back (the resume value and
    the decision, None for an `expire` value of an expired request); an invalid one, one
    naming another request, one the policy refuses (recorded as `refused`) or one whose
    recording failed is answered by asking again with the reason in `error`."""
    name, args = proposal["action"], proposal.get("args", {})
    description = f"{env.specs()[name].description} (proposed at step {exec_ctx.step_index})"
    error: str | None = None
    while True:
        payload = approval_request(name, args, description, error, exec_ctx.request_id)
        value = interrupt(with_policy(payload, request))
        if isinstance(value, Mapping) and value.get(UNRECORDED):
            error = f"Refused decision: {NOT_RECORDED.format(error=value[UNRECORDED])}"
            continue
        marked = marks_of(value)
        if marked is not None and marked.get(REFUSED):
            error = f"Refused decision: {marked[REFUSED]}"
            continue
        named = named_request(value)
        if named and named != exec_ctx.request_id:
            stale = STALE_REQUEST.format(
                named=named, thread_id=exec_ctx.thread_id, pending=exec_ctx.request_id
            )
            error = f"Refused decision: {stale}"
            continue
        if isinstance(value, Mapping) and value.get("type") == EXPIRE:
            if request.expired():
                return value, None
            until = NOT_EXPIRED.format(
                request_id=exec_ctx.request_id, expires_at=request.expires_at
            )
            error = f"Invalid decision: {until}"
            continue
        try:
            decision = parse_decision(value)
            if decision.type == "edit":
                edited_proposal(env, decision.name, decision.args)
        except (DecisionError, ArgumentError) as problem:
            error = f"Invalid decision: {problem}"
            continue
        refused = refusal(request, decision.type, exec_ctx.actor, exec_ctx.request_id)
        if not refused:
            return value, decision
        record_refusal(env, exec_ctx, decision.as_dict(), refused)
        if marked is not None:  # the stored resume value: replays skip it
            marked[REFUSED] = refused
        error = f"Refused decision: {refused}"
