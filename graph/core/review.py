"""The `review` node: a write action waits for a human before anything runs.

Each time `review` runs it makes an approval request with its own id
(`request_id_for`: the same for every re-run of one review, new for a fork).
The interrupt payload carries the id, a decision may name it, and one that
names another request (answered or superseded) is refused. The write's
idempotency key derives from the request, so a replay never runs it twice and
a rejected request can never run. The interrupt that asks, until a decision
that can be taken comes back, is `graph.core.asking`.

The interrupt is the first effectful thing here (an exact replay of an audit
row is not written again), so re-running this node on resume repeats nothing.
A decision whose recording fails is not taken: LangGraph stores the failed
task's resume value, so `review_write` marks that value (`UNRECORDED`) before
the error propagates, and a later run skips it and takes the decision it was
sent (else the failed one would be replayed in place of it, under its actor).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, MutableMapping
from dataclasses import replace
from typing import Any

from langgraph.runtime import Runtime

from graph.core.approval import parse_decision
from graph.core.asking import UNRECORDED, ask_human, edited_proposal
from graph.core.guarded_decisions import (
    EXPIRE,
    EXPIRY_ACTOR,
    asked,
    expired_observation,
    expiry,
    expiry_context,
)
from graph.core.node_support import (
    AgentDeps,
    add_elapsed,
    counters_of,
    exec_context,
    recorded_decisions,
)
from graph.core.state import AgentState, Proposal, Step
from graph.settings.context import Context
from graph.store.resume_guard import request_id_for
from tools.base import Environment, ExecContext

REJECTED = "A human rejected {action}: {message} It was not run."
DENIED = "{action} was not run: write actions are turned off for this run (approvals=deny)."
AGENT = "agent"
EDIT_OF_STATE = "edit_state"
POLICIES: dict[str, dict[str, Any]] = {
    "deny": {"type": "deny", "policy": "deny"},
    "auto": {"type": "approve", "policy": "auto"},
}
NOT_APPROVED = (
    "{action} was not run: the audit log holds no approval of request {request_id} ({found})."
)
GOVERNED = (
    "{kind} by {actor} (request {request_id}) governed this action: it is the request's "
    "decision of record, made before this run's approvals={approvals}, which applies only "
    "to requests made after it"
)
ELSEWHERE = (
    "{action} was not run: request {request_id} was decided ({kind}) on thread {thread}, "
    "which this thread was copied from, not on this one; a decision carries out its own "
    "thread's write only (see `react-agent audit {thread}`)."
)


def review_write(deps: AgentDeps, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
    """Ask a human about the proposed write (or apply the run's approval policy).

    The first decision recorded for a request is the decision of record: a
    review re-run after a crash that came between recording a decision and
    storing the step uses it instead of asking (or taking another) again.
    """
    ctx = runtime.context
    env = deps.environment(ctx)
    info = runtime.execution_info
    base = exec_context(state, runtime, request_id="")
    request_id = request_id_for(base.thread_id, info.task_id if info is not None else "")
    exec_ctx = exec_context(state, runtime, request_id=request_id)
    proposal = Proposal(**(state.get("proposal") or {})) | Proposal(request_id=request_id)
    env.record_audit(*proposed_row(proposal, exec_ctx))
    earlier = recorded_decisions(env, exec_ctx)
    request = asked(env, ctx, exec_ctx, proposal["action"])
    mode = request.rule.mode(ctx.approvals)
    if earlier:
        detail, by = earlier[0]["detail"], str(earlier[0].get("actor") or "")
    elif mode in POLICIES:
        detail, by = POLICIES[mode], f"policy:{mode}"
        env.record_audit("decision", detail, replace(exec_ctx, actor=by))
    else:
        value, decision = ask_human(env, proposal, exec_ctx, request)
        if decision is None:
            detail, by = expiry(request), EXPIRY_ACTOR
            env.record_audit("decision", detail, expiry_context(exec_ctx))
            return decided(env, state, proposal | Proposal(decided_by=by), detail)
        detail, by = decision.as_dict(), exec_ctx.actor
        try:
            env.record_audit("decision", detail, exec_ctx)
        except Exception as error:
            if isinstance(value, MutableMapping):  # the stored resume value is this object
                value[UNRECORDED] = f"{type(error).__name__}: {error}"
            raise
    return decided(env, state, proposal | Proposal(decided_by=by), detail)


def proposed_row(
    proposal: Proposal, exec_ctx: ExecContext
) -> tuple[str, dict[str, Any], ExecContext]:
    """The `proposed` audit row of a proposal: the agent's, or (an `--edit-state` of the
    pending action) the person's who edited the state, its detail saying so."""
    detail: dict[str, Any] = {"action": proposal["action"], "args": proposal.get("args", {})}
    by = proposal.get("proposed_by")
    if by:
        detail["source"] = EDIT_OF_STATE
    return "proposed", detail, replace(exec_ctx, actor=by or AGENT)


def decided(
    env: Environment, state: AgentState, proposal: Proposal, detail: Mapping[str, Any]
) -> dict[str, Any]:
    """The state update for a decision (as recorded): a rejected or denied proposal becomes
    an observation; an approved one goes to `act`, edited if the decision edits it."""
    started = time.monotonic()
    counters = counters_of(state)
    add_elapsed(counters, started)
    if detail.get("type") == "deny":
        observation = DENIED.format(action=proposal["action_text"])
        return {"proposal": proposal | Proposal(kind="rejected", observation=observation)}
    if detail.get("type") == EXPIRE:
        observation = expired_observation(proposal, detail)
        return {"proposal": proposal | Proposal(kind="rejected", observation=observation)}
    decision = parse_decision(detail, recorded=True)
    if decision.type == "reject":
        reason = decision.message.rstrip()
        reason = reason if reason.endswith((".", "!", "?", "。")) else reason + "."
        message = REJECTED.format(action=proposal["action_text"], message=reason)
        return {
            "counters": counters,
            "proposal": proposal
            | Proposal(kind="rejected", observation=message, decision=decision.as_dict()),
        }
    if decision.type == "edit":
        proposal = proposal | edited_proposal(env, decision.name, decision.args)
    outcome = decision.as_dict() | ({"policy": "auto"} if detail.get("policy") else {})
    return {"counters": counters, "proposal": proposal | Proposal(decision=outcome)}


def unapproved(env: Environment, proposal: Mapping[str, Any], exec_ctx: ExecContext) -> str:
    """Why a write may not run ('' when its request's decision of record approves it).

    The audit log is the authority: a write whose request was rejected, denied or
    never decided does not run, whatever the state says. An environment that
    keeps no audit log has nothing to check against.
    """
    if getattr(env, "backend", None) is None:
        return ""
    decisions = recorded_decisions(env, exec_ctx)
    kind = decisions[0]["detail"].get("type") if decisions else None
    if kind in ("approve", "edit"):
        return ""
    found = f"its decision was {kind}" if kind else "no decision was recorded"
    action = proposal.get("action_text") or proposal.get("action", "")
    elsewhere = [] if kind else decided_elsewhere(env, exec_ctx)
    if elsewhere:
        thread, kind = elsewhere[0]["thread_id"], elsewhere[0]["detail"].get("type")
        return ELSEWHERE.format(
            action=action, request_id=exec_ctx.request_id, kind=kind, thread=thread
        )
    return NOT_APPROVED.format(action=action, request_id=exec_ctx.request_id or "-", found=found)


def governing(
    env: Environment, proposal: Mapping[str, Any], exec_ctx: ExecContext, approvals: str
) -> Step:
    """Who decided a reviewed proposal (`decided_by`, from the proposal, else the audit
    log's decision of record) and, when that decision is not what this run's approvals
    setting makes (a fork or settings change after it), a `decision_note` saying so."""
    if not proposal.get("request_id"):
        return Step()
    by = str(proposal.get("decided_by") or "")
    if not by:
        found = recorded_decisions(env, exec_ctx)
        by = str(found[0].get("actor") or "") if found else ""
    if not by:
        return Step()
    if by == EXPIRY_ACTOR:
        return Step(decided_by=by)
    own = f"policy:{approvals}" if approvals in POLICIES else ""
    if by == own or not (own or by.startswith("policy:")):
        return Step(decided_by=by)
    kind = (proposal.get("decision") or {}).get("type") or by.removeprefix("policy:")
    note = GOVERNED.format(
        kind=kind, actor=by, request_id=proposal["request_id"], approvals=approvals
    )
    return Step(decided_by=by, decision_note=note)


def decided_elsewhere(env: Environment, exec_ctx: ExecContext) -> list[dict[str, Any]]:
    """The decision rows another thread holds for `exec_ctx`'s request (a copy's original
    decided it), oldest first."""
    backend = getattr(env, "backend", None)
    if not callable(backend) or not exec_ctx.request_id:
        return []
    rows = backend(exec_ctx.settings).audit_events(request_ids=[exec_ctx.request_id])
    return [r for r in rows if r["event"] == "decision" and r["thread_id"] != exec_ctx.thread_id]
