"""A server run's decision for an approval request nothing waits on is refused.

Two API clients answering one request with langgraph-api's default
`multitask_strategy="enqueue"` both get a run: the second starts after the
first has answered the request (and maybe run the write and ended the
episode). Its `Command(resume=...)` then reaches a checkpoint with no pending
interrupt, so no node runs and the run "succeeds" with the first decision's
outcome, its own decision silently dropped. The server's savers see that
resume as a write on the head checkpoint with the null task id, before any
task runs; refusing it there fails the run with one line (a `RequestError`,
which langgraph-api passes on to the client) and stores nothing.

A decision that names no request (Studio's, an Agent Inbox's: the HITL shape
has no request id) is refused the same way when nothing waits: it used to
pass, and the second of two such clients saw the first one's outcome as its
own run's success.

A decision for another request while one *is* pending goes on to the `review`
node, which asks again with the reason in the payload's `error`.

A decision keyed by interrupt id (`Command(resume={interrupt_id: value})`, the
form Studio and the SDK can send) never reaches the saver as a write: LangGraph
hands it to the interrupt it names. Sent late, or naming an interrupt that is
not pending, it used to be dropped silently (the run "succeeded", the thread
unchanged). The server's graphs resume strictly (`strict_resume`), so LangGraph
refuses it before anything is written, and `refused_keyed` turns that
`UnknownInterruptError` into the same one-line `RequestError`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph._internal._constants import CONFIG_KEY_STRICT_RESUME
from langgraph.checkpoint.base import CheckpointTuple
from langgraph.errors import UnknownInterruptError

from graph.errors import RequestError

NULL_TASK_ID = "00000000-0000-0000-0000-000000000000"  # langgraph's task id for input writes
RESUME = "__resume__"
INTERRUPT = "__interrupt__"
NOT_PENDING = (
    "request {named} is not pending on thread {thread_id}: nothing waits for a decision "
    "(it was already answered or superseded), and nothing was run"
)
NOTHING_WAITS = (
    "nothing waits for a decision on thread {thread_id} (its request was already answered"
    " or superseded, or none was made), and nothing was run"
)

KEYED_NOT_PENDING = (
    "interrupt {named} is not pending on thread {thread_id} (it was already answered or"
    " superseded, or never asked): {waiting}, and nothing was run"
)
KEYED_EMPTY = (
    "the decision names no interrupt (an empty resume map) on thread {thread_id}: {waiting},"
    " and nothing was run"
)
KEYED_AMBIGUOUS = (
    "several interrupts wait on thread {thread_id} ({pending}): name the one the decision"
    " answers; nothing was run"
)


def strict_resume(config: RunnableConfig | None) -> RunnableConfig:
    """`config` asking LangGraph to refuse a resume that names no pending interrupt."""
    config = config or {}
    return {
        **config,
        "configurable": {**(config.get("configurable") or {}), CONFIG_KEY_STRICT_RESUME: True},
    }


def refused_keyed(error: UnknownInterruptError, thread_id: str) -> RequestError:
    """The one-line refusal of a decision keyed by interrupt ids that LangGraph's strict
    resume did not accept (nothing was written)."""
    pending = ", ".join(error.pending_ids)
    waiting = f"it waits on interrupt {pending}" if pending else "nothing waits for a decision"
    if error.reason == "empty_map":
        return RequestError(KEYED_EMPTY.format(thread_id=thread_id, waiting=waiting))
    if error.reason == "ambiguous":
        return RequestError(KEYED_AMBIGUOUS.format(thread_id=thread_id, pending=pending))
    named = ", ".join(error.interrupt_ids)
    return RequestError(KEYED_NOT_PENDING.format(named=named, thread_id=thread_id, waiting=waiting))


def named_decision(writes: Sequence[tuple[str, Any]], task_id: str) -> str | None:
    """The request id a run's resume value names ('' for none), or None when `writes`
    are not a run's resume value."""
    if task_id != NULL_TASK_ID:
        return None
    for channel, value in writes:
        if channel == RESUME:
            named = value.get("request_id") if isinstance(value, Mapping) else None
            return str(named or "")
    return None


def refused_decision(
    head: CheckpointTuple | None, thread_id: str, named: str
) -> RequestError | None:
    """Why a decision naming `named` (or no request: '') cannot be applied at `head` (None
    when an interrupt waits there: the `review` node then checks the request itself)."""
    pending = head.pending_writes or [] if head is not None else []
    if any(channel == INTERRUPT for _, channel, _ in pending):
        return None
    if not named:
        return RequestError(NOTHING_WAITS.format(thread_id=thread_id))
    return RequestError(NOT_PENDING.format(named=named, thread_id=thread_id))


def request_id_for(thread_id: str, task_id: str) -> str:
    """The id of the approval request a `review` task makes.

    A task id is fixed by its checkpoint, so every re-run of the same `review`
    (a resume, a retry after a crash) makes the same request, and a fork, whose
    checkpoint is new, makes a new one.
    """
    return "R" + hashlib.sha256(f"{thread_id}\x00{task_id}".encode()).hexdigest()[:12]
