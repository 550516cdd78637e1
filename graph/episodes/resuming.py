"""Resuming a thread: its stored settings, the request a decision answers, and forks
(what a resume checks first is `graph.episodes.resume_checks`).

- **Settings.** A resume runs with the thread's stored settings. Settings that
  differ from them are refused unless the caller asks to change them; a change
  is written into the state with the resume itself (`Command(update=...)`)
  and recorded in the audit log (`settings_changed`).
- **Requests.** A decision binds to the approval request pending when the
  driver took the lease (or the one it names), and is sent keyed by that
  request's interrupt id with the request id inside, so it can answer
  nothing else.
- **Forks.** A fork first replays from the chosen checkpoint with no resume
  value: LangGraph then drops that checkpoint's stored resume values and
  writes a fork checkpoint, so a `review` there asks again with a new request
  id instead of replaying the old decision. A decision given with the fork
  then answers that new request.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import Command, StateSnapshot

from graph.core.approval import Given, parse_decision
from graph.episodes.audit import record_thread_event, recorded_decision
from graph.episodes.decision_checks import checked_decision, pending_mode
from graph.episodes.history import edited_fork
from graph.episodes.resume_checks import (
    AWAITS_DECISION,
    ENDED,
    NOT_AWAITING,
    Pending,
    describe_changes,
    last_answered,
    not_pending,
    pending_request,
    settings_changes,
    with_defaults,
)
from graph.episodes.runner import (
    Agent,
    EventHandler,
    driven,
    driving,
    env_of,
    episode_result,
    local_actor,
    make_context,
    settings_of,
    snapshot,
    stored_settings,
    stream_run,
    thread_config,
)
from graph.errors import AgentError, DecisionError, RequestError, SettingsChangeError
from graph.settings.context import Context
from graph.store.registry import registry_of

DECIDED = (
    "request {request_id} of thread {thread_id} was already answered ({decision}) before the "
    "process that carried it out stopped; resume without a decision to finish it"
)
OTHER_ENV = "thread {thread_id} is a {env} episode, not a {other} one"
FORK_WITH_REQUEST = (
    "--request cannot name a request with --from: the fork makes a new request, "
    "which the decision given with it answers"
)
FORK_NOT_AT_APPROVAL = (
    "checkpoint {checkpoint} is not waiting for an approval decision; give the decision "
    "at a checkpoint whose next node is review with a pending request (see `react-agent "
    "history {thread_id}`), or fork without a decision"
)
FORK_DID_NOT_ASK = "the fork did not stop for approval, so the decision was not used"
POLICY_DECIDES = (
    "a decision cannot be given with approvals={approvals}: that policy decides every "
    "request of the run, so the decision would be set aside (a rejection run under "
    "approvals=auto); give it with approvals=ask, and change them afterwards if need be"
)


@dataclass(frozen=True)
class Resume:
    """What a resume asks for."""

    thread_id: str
    ctx: Context | None = None
    decision: Given | None = None
    checkpoint_id: str | None = None
    request_id: str | None = None
    change_settings: bool = False
    actor: str = ""
    edit_action: str | None = None


def _config(base: RunnableConfig, owner: str, actor: str) -> RunnableConfig:
    """The run config from `base` (`stream_run` sets the recursion limit from the budgets)."""
    return driven(RunnableConfig(**base), owner, actor)


def _latest(thread_id: str, owner: str, actor: str) -> RunnableConfig:
    """The thread's latest checkpoint, which the lease holder read (naming it by id would
    make LangGraph write a fork checkpoint of it first)."""
    return _config(thread_config(thread_id), owner, actor)


def _answer(
    agent: Agent,
    state: StateSnapshot,
    pending: Pending,
    decision: Mapping[str, Any],
    update: dict[str, Any] | None,
    run: tuple[Context, str, str, EventHandler | None],
) -> None:
    """Resume `state` with `decision` bound to `pending` (by interrupt id and request id)."""
    ctx, owner, actor, on_event = run
    value = dict(decision) | {"request_id": pending.request_id}
    command: Command[Any] = Command(resume={pending.interrupt_id: value}, update=update)
    thread_id = str(state.config["configurable"]["thread_id"])
    stream_run(agent, command, _latest(thread_id, owner, actor), ctx, on_event)


def _decision_of_record(
    agent: Agent,
    ctx: Context,
    state: StateSnapshot,
    pending: Pending,
    given: Given | None,
    actor: str,
) -> Mapping[str, Any]:
    """The decision to send: the one the audit log already holds for the request (a crash
    came between recording it and storing the step), else the one given, once the policy
    allows it (`graph.episodes.decision_checks`)."""
    thread_id = str(state.config["configurable"]["thread_id"])
    recorded = recorded_decision(agent, ctx, thread_id, pending.request_id)
    if recorded is None:
        checked = checked_decision(agent, ctx, state, pending, given, actor)
        if checked is None:
            raise AgentError(AWAITS_DECISION.format(request_id=pending.request_id))
        return checked
    if recorded.get("type") not in ("deny", "expire") and given is not None:
        if given.decision is None:
            raise DecisionError(given.problem)
        if parse_decision(recorded, recorded=True) != given.decision:
            raise RequestError(
                DECIDED.format(
                    request_id=pending.request_id, thread_id=thread_id, decision=recorded["type"]
                )
            )
    return {"decisions": [recorded]}


def resume(agent: Agent, request: Resume, owner: str, on_event: EventHandler | None) -> None:
    """Carry out `request` on `agent`'s thread; the caller holds the thread's lease."""
    thread_id = request.thread_id
    state = snapshot(agent, thread_id, request.checkpoint_id)
    env_name = env_of(agent)
    stored = stored_settings(agent, state)
    if stored.get("env", env_name) != env_name:
        other = OTHER_ENV.format(thread_id=thread_id, env=stored["env"], other=env_name)
        raise SettingsChangeError(other)
    ctx = request.ctx or make_context(env_name, stored)  # with a password the run was given
    wanted = settings_of(env_name, ctx)
    changes = settings_changes(with_defaults(env_name, stored), wanted)
    if changes and not request.change_settings:
        raise SettingsChangeError(describe_changes(thread_id, changes))
    update = {"settings": wanted} if changes or not stored else None
    mode = pending_mode(agent, ctx, pending_request(state))
    if request.decision is not None and mode != "ask":
        raise AgentError(POLICY_DECIDES.format(approvals=mode))
    run = (ctx, owner, request.actor, on_event)

    def record_change() -> None:
        """Record a settings change, once nothing stands in the way of the run."""
        if changes:
            detail = {"changes": {k: {"from": a, "to": b} for k, (a, b) in changes.items()}}
            record_thread_event(
                agent, ctx, thread_id, "settings_changed", detail, request.actor, next_step(state)
            )

    if request.checkpoint_id or request.edit_action is not None:
        _fork(agent, request, state, update, run, record_change)
        return
    pending = pending_request(state)
    if request.request_id and (pending is None or pending.request_id != request.request_id):
        raise not_pending(state, thread_id, request.request_id)
    if pending is not None:
        given = request.decision
        decision = _decision_of_record(agent, ctx, state, pending, given, request.actor)
        record_change()
        _answer(agent, state, pending, decision, update, run)
    elif request.decision is not None:
        raise RequestError(NOT_AWAITING.format(last=last_answered(state)))
    elif state.next or state.values.get("status", "running") == "running":
        record_change()
        value: Command[Any] | None = Command(update=update) if update else None
        stream_run(agent, value, _latest(thread_id, owner, request.actor), ctx, on_event)
    elif state.values.get("status") == "error":
        record_change()
        restart = {"status": "running", "stop_reason": ""} | (update or {})
        agent.update_state(thread_config(thread_id), restart, as_node="observe")
        stream_run(agent, None, _latest(thread_id, owner, request.actor), ctx, on_event)
    else:
        raise AgentError(ENDED.format(status=state.values.get("status", "unknown")))


def _fork(
    agent: Agent,
    request: Resume,
    state: StateSnapshot,
    update: dict[str, Any] | None,
    run: tuple[Context, str, str, EventHandler | None],
    record_change: Callable[[], None],
) -> None:
    """Replay from the chosen checkpoint on a new branch, its pending action first replaced
    if asked (only once nothing refuses the fork); answer its new request if asked."""
    ctx, owner, actor, on_event = run
    thread_id = request.thread_id
    if request.request_id:
        raise RequestError(FORK_WITH_REQUEST)
    if request.decision is not None and pending_request(state) is None:
        raise AgentError(
            FORK_NOT_AT_APPROVAL.format(checkpoint=request.checkpoint_id, thread_id=thread_id)
        )
    detail: dict[str, Any] = {}
    if request.edit_action is not None:
        chosen = state.config["configurable"]["checkpoint_id"]
        state = edited_fork(agent, state, request.edit_action, ctx, actor)
        edited = (state.values.get("proposal") or {}).get("action_text", "")
        detail = {"edited_from": chosen, "edited_action": edited}
    detail["from_checkpoint"] = state.config["configurable"]["checkpoint_id"]
    record_thread_event(agent, ctx, thread_id, "fork", detail, actor, next_step(state))
    record_change()
    value: Command[Any] | None = Command(update=update) if update else None
    stream_run(agent, value, _config(state.config, owner, actor), ctx, on_event)
    if request.decision is None:
        return
    head = snapshot(agent, thread_id)
    pending = pending_request(head)
    if pending is None:
        raise AgentError(FORK_DID_NOT_ASK)
    _answer(agent, head, pending, request.decision.resume_value(), None, run)


def next_step(state: StateSnapshot) -> int:
    """The index of the step a thread takes next from this checkpoint (steps count from 1)."""
    return len(state.values.get("steps") or []) + 1


def resume_episode(
    agent: Agent,
    thread_id: str,
    ctx: Context | None = None,
    decision: Any = None,
    checkpoint_id: str | None = None,
    on_event: EventHandler | None = None,
    *,
    request_id: str | None = None,
    change_settings: bool = False,
    owner: str | None = None,
    actor: str | None = None,
    edit_action: str | None = None,
) -> dict[str, Any]:
    """Continue a paused, interrupted or failed episode (see `resume`).

    With `decision` (a `Decision`, or a resume value in HITL-response or Agent Inbox
    form, parsed once here) it answers the pending approval request (`request_id`, if
    given, must name it); from `checkpoint_id` it forks the thread there (the
    old branch stays in the history). The thread's stored settings are used;
    a `ctx` that differs from them is refused unless `change_settings`. `edit_action`
    replaces the pending Action there first (`--edit-state`), once nothing refuses the fork.
    """
    request = Resume(
        thread_id=thread_id,
        ctx=ctx,
        decision=None if decision is None else Given.of(decision),
        checkpoint_id=checkpoint_id,
        request_id=request_id,
        change_settings=change_settings,
        actor=actor or local_actor(),
        edit_action=edit_action,
    )
    with driving(agent, thread_id, owner) as token:
        resume(agent, request, token, on_event)
        result = episode_result(agent, thread_id)
        registry = registry_of(agent.checkpointer)
        if registry is not None:
            registry.set_status(thread_id, result["status"])
    return result
