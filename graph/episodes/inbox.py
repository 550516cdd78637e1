"""What waits for a decision: one entry per pending approval request, for `react-agent
pending` and the server's `/inbox` alike.

An entry is read from a paused thread's state (its interrupt payload, stored
settings and evidence); who may decide and when the request expires come from
the thread's policy file as it reads now (`graph.settings.policy`), so they are what a
decision made now would be held to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from graph.agent import ENVIRONMENTS
from graph.core.guarded_decisions import rule_of
from graph.episodes.results import evidence_rows
from graph.episodes.runner import make_context

ENTRY_KEYS = (
    "thread_id",
    "request_id",
    "action",
    "args",
    "proposed_at",
    "expires_at",
    "approvers",
    "decide",
)


def request_entry(
    thread_id: str,
    settings: Mapping[str, Any],
    payload: Mapping[str, Any],
    decide: str,
) -> dict[str, Any]:
    """The inbox entry of the request `payload` (an interrupt's value) on a thread whose
    stored `settings` name its environment and policy; `decide` is how to decide it."""
    env_name = str(settings.get("env") or "library")
    ctx = make_context(env_name, settings)
    requests = payload.get("action_requests") or [{}]
    action = str(requests[0].get("name") or "")
    rule = rule_of(ENVIRONMENTS[env_name][1](ctx), ctx, action)
    proposed_at = str(payload.get("proposed_at") or "")
    return {
        "thread_id": thread_id,
        "request_id": str(payload.get("request_id") or ""),
        "action": action,
        "args": dict(requests[0].get("args") or {}),
        "proposed_at": proposed_at or None,
        "expires_at": rule.expires_at(proposed_at) or None,
        "approvers": list(rule.approvers) if rule.approvers is not None else None,
        "decide": decide,
    }


def entries_of(
    threads: Sequence[tuple[str, Mapping[str, Any], Sequence[Any]]],
    decide: Callable[[str, str], str],
) -> list[dict[str, Any]]:
    """Entries of the threads given as (thread id, state values, interrupt payloads), each
    with `evidence` (the thread's evidence rows) beside the `ENTRY_KEYS`; `decide(thread,
    request)` says how to decide one."""
    found = []
    for thread_id, values, payloads in threads:
        settings = values.get("settings") or {}
        for payload in payloads:
            if not isinstance(payload, Mapping) or not payload.get("action_requests"):
                continue
            request_id = str(payload.get("request_id") or "")
            entry = request_entry(thread_id, settings, payload, decide(thread_id, request_id))
            found.append(entry | {"evidence": evidence_rows(values)})
    return found
