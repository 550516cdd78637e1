"""The CLI's side of a guarded decision: the policy's word on it before anything is sent.

A decision the policy refuses (someone it does not name, a kind the action does
not allow, a request past its expiry) is recorded in the audit log as `refused`
and raised as one line; nothing runs. A resume without a decision on an expired
request sends `expire`, which the `review` node records as the request's decision.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from graph.agent import ENVIRONMENTS
from graph.core.approval import Given
from graph.core.guarded_decisions import EXPIRE, asked, record_refusal, refusal, rule_of
from graph.episodes.audit import _thread_context
from graph.episodes.runner import env_of
from graph.errors import RequestError
from graph.settings.context import Context
from graph.store.leases import lease_of

if TYPE_CHECKING:
    from langgraph.types import StateSnapshot

    from graph.episodes.resume_checks import Pending
    from graph.episodes.runner import Agent

REFUSED = "{reason}; nothing was run (recorded as refused in the audit log)"


def _env(agent: Agent, ctx: Context) -> Any:
    return ENVIRONMENTS[env_of(agent)][1](ctx)


def pending_mode(agent: Agent, ctx: Context, pending: Pending | None) -> str:
    """ask, auto or deny for the pending request's action: the policy's, else the run's."""
    if pending is None or not pending.action:
        return ctx.approvals
    return rule_of(_env(agent, ctx), ctx, pending.action).mode(ctx.approvals)


def checked_decision(
    agent: Agent,
    ctx: Context,
    state: StateSnapshot,
    pending: Pending,
    given: Given | None,
    actor: str,
) -> dict[str, Any] | None:
    """The resume value for `given` (None when none is given and the request has not
    expired, `expire` when it has); raises `RequestError` for one the policy refuses,
    once that is recorded. An invalid decision is sent as it was given: the graph asks
    again, saying what was wrong."""
    env = _env(agent, ctx)
    thread_id = str(state.config["configurable"]["thread_id"])
    step = len(state.values.get("steps") or []) + 1
    lease = lease_of(agent.checkpointer)
    fence = lease.token_of(thread_id) if lease is not None else None
    exec_ctx = replace(
        _thread_context(ctx, thread_id, pending.request_id, actor, step), fence=fence
    )
    request = asked(env, ctx, exec_ctx, pending.action)
    if given is None:
        return {"type": EXPIRE} if request.expired() else None
    decision = given.decision
    if decision is not None:
        reason = refusal(request, decision.type, actor, pending.request_id)
        if reason:
            record_refusal(env, exec_ctx, decision.as_dict(), reason)
            raise RequestError(REFUSED.format(reason=reason))
    return given.resume_value()
