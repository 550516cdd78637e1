"""Episodes on a LangGraph server: start, resume with a decision, read back.

The same contract as the local commands (`graph.episodes.runner`, `graph.episodes.resuming`):
the run's settings go into the input (`{"question", "settings"}`), so the
thread stores them before any node runs; a decision is bound to the request
pending when the state was read (by its request id, which the server's
`review` node checks again when the run starts, and its savers when nothing
is pending any more: `graph.store.resume_guard`); a decision for a request
that is not pending is refused with the same line as locally. The
server's runs take the thread's lease themselves (`graph.core.thread_guard`), so
a thread another process drives is refused by the run, and the server's
message comes back.

The library's clock (`tools.library.audit`) is imported inside `_expired`: at the top it
would add about 0.18 s (SQLAlchemy) to every `--server` command (python -X importtime).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import Interrupt, StateSnapshot
from langgraph_sdk.client import SyncLangGraphClient

from graph import terminal
from graph.agent import recursion_limit
from graph.episodes.results import outcome_of
from graph.episodes.resume_checks import (
    AWAITS_DECISION,
    ENDED,
    NOT_AWAITING,
    describe_changes,
    last_answered,
    not_pending,
    pending_request,
    settings_changes,
    with_defaults,
)
from graph.episodes.runner import EventHandler, make_context, settings_of
from graph.errors import AgentError, DecisionError, RequestError, ThreadNotFoundError
from graph.remote.client import plain_url, server_url, talking_to
from graph.settings.context import Context
from graph.settings.durability import durability_of
from graph.store.locations import server_words
from graph.store.resume_guard import NOT_PENDING

QUESTION_IN_METADATA = 200
RUN_FAILED = "the server's run failed: {message}"
EMPTY_THREAD = "thread {thread_id} on the LangGraph server at {url} holds no episode yet"
REFUSED_BY_SERVER = ("Refused decision: ", "Invalid decision: ")
THREAD_EXISTS = (
    "thread {thread_id} already exists on the LangGraph server at {url}: continue it with "
    "`{resume}`{note}"
)


@dataclass(frozen=True)
class RemoteRun:
    """Who drives a run and how its steps are shown."""

    actor: str
    on_event: EventHandler | None = None


def run_config(ctx: Context, actor: str) -> dict[str, Any]:
    """The server run's config: the budgets' recursion limit, and who drives it."""
    return {"recursion_limit": recursion_limit(ctx), "configurable": {"actor": actor}}


def thread_metadata(env_name: str, question: str) -> dict[str, Any]:
    """What the server's thread search (and Studio's thread list) can filter on."""
    return {
        "env": env_name,
        "question": question[:QUESTION_IN_METADATA],
        "started_by": "react-agent",
    }


def stream_run(
    client: SyncLangGraphClient,
    thread_id: str,
    env_name: str,
    ctx: Context,
    run: RemoteRun,
    *,
    input: Mapping[str, Any] | None = None,
    command: Mapping[str, Any] | None = None,
) -> None:
    """One run on the thread, its steps passed to `run.on_event` as they finish; a run that
    fails raises with the server's message (the agent's errors reach clients verbatim)."""
    sdk_command: Any = dict(command) if command is not None else None
    config: Any = run_config(ctx, run.actor)
    with talking_to(client, thread_id):
        for part in client.runs.stream(
            thread_id,
            env_name,
            input=dict(input) if input is not None else None,
            command=sdk_command,
            stream_mode="custom",
            config=config,
            multitask_strategy="reject",
            durability=durability_of(env_name, ctx),
        ):
            if part.event == "error":
                data = part.data if isinstance(part.data, Mapping) else {}
                message = data.get("message") or data.get("error") or str(part.data)
                raise AgentError(RUN_FAILED.format(message=message))
            if part.event == "custom" and run.on_event and isinstance(part.data, dict):
                run.on_event(part.data)


def read_state(client: SyncLangGraphClient, thread_id: str) -> StateSnapshot:
    """The thread's latest state on the server, as a `StateSnapshot`."""
    with talking_to(client, thread_id):
        state: Any = client.threads.get_state(thread_id)
    interrupts = tuple(
        Interrupt(value=item.get("value"), id=str(item.get("id") or ""))
        for item in state.get("interrupts") or []
    )
    config = RunnableConfig(configurable={"thread_id": thread_id})
    return StateSnapshot(
        values=dict(state.get("values") or {}),
        next=tuple(state.get("next") or ()),
        config=config,
        metadata=state.get("metadata"),
        created_at=state.get("created_at"),
        parent_config=None,
        tasks=(),
        interrupts=interrupts,
    )


def outcome(client: SyncLangGraphClient, thread_id: str, question: str = "") -> dict[str, Any]:
    """The episode's outcome, as `ask`, `resume` and `show` print it locally."""
    state = read_state(client, thread_id)
    if not state.values:
        url = server_url(client)
        raise ThreadNotFoundError(EMPTY_THREAD.format(thread_id=thread_id, url=url))
    pending = [{"id": item.id, "value": item.value} for item in state.interrupts]
    return outcome_of(thread_id, state.values, pending, question)


def start_episode(
    client: SyncLangGraphClient,
    env_name: str,
    question: str,
    ctx: Context,
    run: RemoteRun,
    thread_id: str | None = None,
) -> dict[str, Any]:
    """Answer `question` in a new thread on the server (a `thread_id` that exists there is
    refused); returns the outcome."""
    if thread_id and _exists(client, thread_id):
        where, note = server_words(plain_url(client))
        resume = terminal.command("react-agent", "resume", thread_id, *where)
        message = THREAD_EXISTS.format(
            thread_id=terminal.line(thread_id), url=server_url(client), resume=resume, note=note
        )
        raise AgentError(message)
    with talking_to(client):
        thread: Any = client.threads.create(
            thread_id=thread_id,
            graph_id=env_name,
            metadata=thread_metadata(env_name, question),
            if_exists="raise",
        )
    thread_id = str(thread["thread_id"])
    value = {"question": question, "settings": settings_of(env_name, ctx)}
    stream_run(client, thread_id, env_name, ctx, run, input=value)
    return outcome(client, thread_id, question)


def _exists(client: SyncLangGraphClient, thread_id: str) -> bool:
    """Whether the server holds a thread with this id."""
    with talking_to(client):
        found: Any = client.threads.search(ids=[thread_id], limit=1)
    return bool(found)


def _refusal(after: StateSnapshot, request_id: str) -> str:
    """The server's reason for not applying a decision on `request_id` ('' when applied):
    the same request asked again with an `error` saying why."""
    pending = pending_request(after)
    if pending is None or pending.request_id != request_id:
        return ""
    value = after.interrupts[0].value if after.interrupts else {}
    error = str(value.get("error") or "") if isinstance(value, Mapping) else ""
    return error if error.startswith(REFUSED_BY_SERVER) else ""


def _expired(state: StateSnapshot) -> bool:
    """Whether the pending request is past the expiry its payload gives (the server's
    `review` node checks again against the policy as it reads then)."""
    from tools.library.audit import utc_now

    value = state.interrupts[0].value if state.interrupts else {}
    expires_at = str(value.get("expires_at") or "") if isinstance(value, Mapping) else ""
    return bool(expires_at) and expires_at <= utc_now()


def resume_episode(
    client: SyncLangGraphClient,
    thread_id: str,
    decision: Mapping[str, Any] | None,
    run: RemoteRun,
    *,
    request_id: str | None = None,
    changes: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Continue a thread on the server, answering its pending request with `decision`.

    `request_id`, if given, must name the pending request; settings `changes`
    that differ from the thread's stored ones are refused (a resume runs with
    the thread's settings).
    """
    state = read_state(client, thread_id)
    if not state.values:
        url = server_url(client)
        raise ThreadNotFoundError(EMPTY_THREAD.format(thread_id=thread_id, url=url))
    stored = dict(state.values.get("settings") or {})
    env_name = str(stored.get("env") or "wikipedia")
    ctx = make_context(env_name, stored)
    if changes:
        wanted = settings_of(env_name, make_context(env_name, stored | dict(changes)))
        differing = settings_changes(with_defaults(env_name, stored), wanted)
        if differing:
            raise AgentError(describe_changes(thread_id, differing))
    pending = pending_request(state)
    if request_id and (pending is None or pending.request_id != request_id):
        raise not_pending(state, thread_id, request_id)
    if pending is not None:
        if decision is None and not _expired(state):
            raise AgentError(AWAITS_DECISION.format(request_id=pending.request_id))
        value = dict(decision or {"type": "expire"}) | {"request_id": pending.request_id}
        try:
            stream_run(client, thread_id, env_name, ctx, run, command={"resume": value})
        except AgentError as failed:
            if NOT_PENDING.format(named=pending.request_id, thread_id=thread_id) in str(failed):
                after = read_state(client, thread_id)
                raise not_pending(after, thread_id, pending.request_id) from None
            raise
        refused = _refusal(read_state(client, thread_id), pending.request_id)
        if refused:
            kind = RequestError if refused.startswith(REFUSED_BY_SERVER[0]) else DecisionError
            raise kind(refused)
    elif decision is not None:
        raise RequestError(NOT_AWAITING.format(last=last_answered(state)))
    elif state.next or state.values.get("status", "running") == "running":
        stream_run(client, thread_id, env_name, ctx, run)
    elif state.values.get("status") == "error":
        restart = {"status": "running", "stop_reason": ""}
        with talking_to(client, thread_id):
            client.threads.update_state(thread_id, restart, as_node="observe")
        stream_run(client, thread_id, env_name, ctx, run)
    else:
        raise AgentError(ENDED.format(status=state.values.get("status", "unknown")))
    return outcome(client, thread_id)
