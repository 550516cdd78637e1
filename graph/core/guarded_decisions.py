"""Who may decide a request, which decisions it takes and when it expires (`graph.settings.policy`),
applied alike by the `review` node (every decision, the server's and the inbox's too)
and by the CLI before it sends one (`refuse_decision`, so nothing runs).

A refused decision is recorded in the audit log as a `refused` row naming who
tried; a request past its `expires_after` takes no approval or edit, and the
resume that finds it expired (an `expire` resume value) records the expiry as
the request's decision, the model's observation saying so.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from graph.settings.context import Context
from graph.settings.policy import EXPIRED, Rule, load_policy, person, write_actions
from tools.base import Environment, ExecContext

EXPIRE = "expire"
EXPIRY_ACTOR = "policy:expires_after"
EXPIRED_OBSERVATION = (
    "Request {request_id} to run {action} expired at {expired_at} without a decision, so it "
    "was not run. What it relied on may have changed since it was proposed: check again "
    "(for a copy, its current status) and propose it again if it is still wanted."
)
NOT_EXPIRED = "request {request_id} has not expired (it expires at {expires_at}); decide it"


@dataclass(frozen=True)
class Asked:
    """A request as its policy governs it: its rule, when it was proposed and expires."""

    action: str
    rule: Rule
    proposed_at: str
    expires_at: str

    def expired(self, now: str | None = None) -> bool:
        """Whether the request is past its expiry (now, or at `now`)."""
        moment = now or datetime.now(UTC).isoformat(timespec="milliseconds")
        return bool(self.expires_at) and moment >= self.expires_at


def rule_of(env: Environment, ctx: Context, action: str) -> Rule:
    """The policy rule of `action` under the run's policy file, read now."""
    path = str(getattr(ctx, "policy", "") or "")
    return load_policy(path, write_actions(env.specs())).rule(action)


def proposed_at(env: Environment, exec_ctx: ExecContext) -> str:
    """When the request was first proposed, by the audit log ('' for an environment
    that keeps none)."""
    backend = getattr(env, "backend", None)
    if not callable(backend) or not exec_ctx.request_id:
        return ""
    rows = backend(exec_ctx.settings).audit_events(request_ids=[exec_ctx.request_id])
    found = [r for r in rows if r["event"] == "proposed" and r["thread_id"] == exec_ctx.thread_id]
    return str(found[0]["recorded_at"]) if found else ""


def asked(env: Environment, ctx: Context, exec_ctx: ExecContext, action: str) -> Asked:
    """The request of `exec_ctx` about `action` as the policy governs it now."""
    rule = rule_of(env, ctx, action)
    when = proposed_at(env, exec_ctx)
    return Asked(action, rule, when, rule.expires_at(when))


def refusal(request: Asked, kind: str, actor: str, request_id: str) -> str:
    """Why `actor` may not make a `kind` decision on the request ('' when they may)."""
    found = request.rule.refusal(request.action, kind, person(actor))
    if found or kind == "reject" or not request.expired():
        return found
    return EXPIRED.format(
        request_id=request_id, expired_at=request.expires_at, after=request.rule.expires_after
    )


def record_refusal(
    env: Environment, exec_ctx: ExecContext, decision: Mapping[str, Any], reason: str
) -> None:
    """A `refused` audit row: who tried which decision on the request, and why not."""
    env.record_audit("refused", {"decision": dict(decision), "reason": reason}, exec_ctx)


def expiry(request: Asked) -> dict[str, Any]:
    """The decision of record of an expired request."""
    return {"type": EXPIRE, "expired_at": request.expires_at}


def expired_observation(proposal: Mapping[str, Any], detail: Mapping[str, Any]) -> str:
    """What the model is told about a request that expired."""
    return EXPIRED_OBSERVATION.format(
        request_id=proposal.get("request_id", ""),
        action=proposal.get("action_text") or proposal.get("action", ""),
        expired_at=detail.get("expired_at", ""),
    )


def expiry_context(exec_ctx: ExecContext) -> ExecContext:
    """`exec_ctx` as the expiry policy, which decides an expired request."""
    return replace(exec_ctx, actor=EXPIRY_ACTOR)


def marks_of(value: Any) -> MutableMapping[str, Any] | None:
    """The object of a resume value that a mark goes on (an Agent Inbox list's response)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    return value if isinstance(value, MutableMapping) else None


def with_policy(payload: Any, request: Asked) -> Any:
    """The request's payload with what its policy says: the decisions it allows, who may
    decide and when it was proposed and expires."""
    payload["review_configs"][0]["allowed_decisions"] = list(request.rule.allowed_decisions)
    if request.rule.approvers is not None:
        payload["approvers"] = list(request.rule.approvers)
    if request.proposed_at:
        payload["proposed_at"] = request.proposed_at
    if request.expires_at:
        payload["expires_at"] = request.expires_at
    return payload
