"""The `review` node: a write action waits for a human before anything runs.

Each time `review` runs it makes an approval request with its own id
(`request_id_for`: the same for every re-run of one review, new for a fork).
The interrupt payload carries the id, a decision may name it, and one that
names another request (answered or superseded) is refused. The write's
idempotency key derives from the request, so a replay never runs it twice and
a rejected request can never run.

A decision that names another request is not applied: the request is asked
again, its payload's `error` saying why (raising instead would leave the stale
resume value stored with the task, to be replayed by every later resume).

The interrupt is the first effectful thing here (an exact replay of an audit
row is not written again), so re-running this node on resume repeats nothing.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from graph.approval import approval_request, parse_decision
from graph.context import Context
from graph.errors import DecisionError
from graph.node_support import (
    AgentDeps,
    add_elapsed,
    counters_of,
    exec_context,
    request_id_for,
    write_key,
)
from graph.state import AgentState, Proposal
from graph.trajectory import action_text
from tools.base import ArgumentError, Environment

REJECTED = "A human rejected {action}: {message} It was not run."
DENIED = "{action} was not run: write actions are turned off for this run (approvals=deny)."
EDIT_NOT_ACTION = "edited_action must name one of: {names}"
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


def review_write(deps: AgentDeps, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ask a human about the proposed write (or apply the run's approval policy)."""
    ctx = runtime.context
    env = deps.environment(ctx)
    exec_ctx = exec_context(state, runtime)
    info = runtime.execution_info
    request_id = request_id_for(exec_ctx.thread_id, info.task_id if info is not None else "")
    exec_ctx = replace(
        exec_ctx, idempotency_key=write_key(exec_ctx.thread_id, exec_ctx.step_index, request_id)
    )
    proposal = Proposal(**(state.get("proposal") or {})) | Proposal(request_id=request_id)
    name, args = proposal["action"], proposal.get("args", {})
    env.record_audit("proposed", {"action": name, "args": args}, exec_ctx)
    if ctx.approvals == "deny":
        env.record_audit("decision", {"type": "deny", "policy": "deny"}, exec_ctx)
        observation = DENIED.format(action=proposal["action_text"])
        return {"proposal": proposal | Proposal(kind="rejected", observation=observation)}
    if ctx.approvals == "auto":
        env.record_audit("decision", {"type": "approve", "policy": "auto"}, exec_ctx)
        return {"proposal": proposal | Proposal(decision={"type": "approve", "policy": "auto"})}
    description = f"{env.specs()[name].description} (proposed at step {exec_ctx.step_index})"
    error: str | None = None
    while True:
        value = interrupt(approval_request(name, args, description, error, request_id))
        named = named_request(value)
        if named and named != request_id:
            stale = STALE_REQUEST.format(
                named=named, thread_id=exec_ctx.thread_id, pending=request_id
            )
            error = f"Refused decision: {stale}"
            continue
        try:
            decision = parse_decision(value)
            edited = (
                edited_proposal(env, decision.name, decision.args)
                if decision.type == "edit"
                else None
            )
            break
        except (DecisionError, ArgumentError) as problem:
            error = f"Invalid decision: {problem}"
    started = time.monotonic()
    env.record_audit("decision", decision.as_dict(), exec_ctx)
    counters = counters_of(state)
    add_elapsed(counters, started)
    if decision.type == "reject":
        reason = decision.message.rstrip()
        reason = reason if reason.endswith((".", "!", "?", "。")) else reason + "."
        message = REJECTED.format(action=proposal["action_text"], message=reason)
        return {
            "counters": counters,
            "proposal": proposal
            | Proposal(kind="rejected", observation=message, decision=decision.as_dict()),
        }
    if edited is not None:
        proposal = proposal | edited
    return {"counters": counters, "proposal": proposal | Proposal(decision=decision.as_dict())}
