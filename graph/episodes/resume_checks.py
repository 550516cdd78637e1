"""What a resume checks before it runs, for the local and the remote resume alike.

- **Requests.** Which approval request (`Pending`) a thread waits on, and why a decision
  naming another one (answered, superseded, or none pending) is refused.
- **Settings.** Which wanted settings differ from the thread's stored ones
  (completed with today's defaults), and the line refusing a change that was
  not asked for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langgraph.types import StateSnapshot

from graph.core.passwords import recorded
from graph.episodes.runner import make_context, settings_of
from graph.errors import RequestError

AWAITS_DECISION = (
    "this episode awaits a human decision on request {request_id}: resume it with "
    "--approve, --reject REASON or --edit ARGS"
)
NOT_AWAITING = "this episode is not waiting for an approval decision{last}"
LAST_ANSWERED = " (its last request, {request_id}, was already answered: {decision} at step {step})"
ANSWERED = "request {named} of thread {thread_id} was already answered ({decision}) at step {step}"
SUPERSEDED = (
    "request {named} is not pending on thread {thread_id}: it was superseded (the pending "
    "request is {pending}); nothing was run"
)
NOTHING_PENDING = (
    "request {named} is not pending on thread {thread_id}: nothing waits for a decision"
)
ENDED = "this episode already ended ({status}); nothing to resume"
CHANGED = (
    "{flags}: not what thread {thread_id} stored ({stored}); a resume runs with the "
    "thread's settings: add --change-settings to change them (the change is recorded)"
)


@dataclass(frozen=True)
class Pending:
    """The approval request a paused thread waits on."""

    interrupt_id: str
    request_id: str
    action: str = ""


def pending_request(state: StateSnapshot) -> Pending | None:
    """The request `state` waits on, or None."""
    for item in state.interrupts:
        value = item.value if isinstance(item.value, Mapping) else {}
        requests = value.get("action_requests") or [{}]
        action = str(requests[0].get("name") or "") if isinstance(requests[0], Mapping) else ""
        return Pending(item.id, str(value.get("request_id") or ""), action)
    return None


def settings_changes(
    stored: Mapping[str, Any], wanted: Mapping[str, Any]
) -> dict[str, tuple[Any, Any]]:
    """Settings whose wanted value differs from the stored one: name -> (stored, wanted)."""
    if not stored:
        return {}
    return {k: (stored.get(k), v) for k, v in wanted.items() if k != "env" and stored.get(k) != v}


def with_defaults(env_name: str, stored: Mapping[str, Any]) -> dict[str, Any]:
    """`stored` completed with today's defaults for settings it lacks (a thread started
    before a setting existed ran with that setting's default), as `settings_of` gives them
    (a database URL stored with its password before passwords were left out, without it)."""
    if not stored:
        return {}
    return settings_of(env_name, make_context(env_name, {})) | recorded(stored)


def describe_changes(thread_id: str, changes: Mapping[str, tuple[Any, Any]]) -> str:
    """The one line refusing a settings change that was not asked for."""
    flags = ", ".join(f"--{k.replace('_', '-')} {new!r}" for k, (_, new) in changes.items())
    stored = ", ".join(f"{k}={old!r}" for k, (old, _) in changes.items())
    return CHANGED.format(flags=flags, thread_id=thread_id, stored=stored)


def last_answered(state: StateSnapshot) -> str:
    """Which request the thread answered last, for a decision that comes too late."""
    for step in reversed(state.values.get("steps") or []):
        if step.get("request_id"):
            decision = (step.get("decision") or {}).get("type") or step.get("kind", "rejected")
            return LAST_ANSWERED.format(
                request_id=step["request_id"], decision=decision, step=step.get("index")
            )
    return ""


def not_pending(state: StateSnapshot, thread_id: str, named: str) -> RequestError:
    """Why a decision naming `named` is refused on `state`."""
    for step in state.values.get("steps") or []:
        if step.get("request_id") == named:
            decision = (step.get("decision") or {}).get("type") or step.get("kind", "rejected")
            return RequestError(
                ANSWERED.format(
                    named=named, thread_id=thread_id, decision=decision, step=step.get("index")
                )
            )
    pending = pending_request(state)
    if pending is not None:
        return RequestError(
            SUPERSEDED.format(named=named, thread_id=thread_id, pending=pending.request_id)
        )
    return RequestError(NOTHING_PENDING.format(named=named, thread_id=thread_id))
