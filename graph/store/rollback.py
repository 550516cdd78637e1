"""Rolling a server run back: what langgraph-api's `adelete_for_runs` does on our savers.

`multitask_strategy="rollback"` and `runs.cancel(..., action="rollback")` end
a run and then call the checkpointer's `adelete_for_runs([run_id])`, which
must leave the thread as it was before the run, and touch no other thread. A
run's checkpoints carry its id and its thread's in their metadata (`run_id`,
`thread_id`, added by the server); a copied thread's checkpoints keep the
original's (`graph.store.copies`), so only those whose `thread_id` is the
thread they are on are the run's. Not every write of the run is on one of
them: a run that resumes a thread first writes on the checkpoint it starts
from (the resume value, the results of the tasks that checkpoint had pending),
which belongs to the run before. So the server's
savers note, in a `run_writes` table, each write a run puts on a checkpoint
it did not make (`RunLog` tells which), and a rollback deletes the run's
checkpoints with all their writes, plus exactly those noted writes.

A rollback is refused and nothing is deleted when:

- the run answered an approval request (its resume value), or got or started
  from an approved write: the write may have run, its decision and execution
  are in the append-only audit log, and a write that ran must stay recorded
  once; cancel such a run with `action="interrupt"` instead;
- a checkpoint of another run (or a fork) already builds on the run's
  checkpoints and rebuilds its `DeltaChannel` states from their writes:
  deleting them would cut that history off, and its state would lose the
  steps before it.

The last rule is these savers' one deviation from LangGraph's saver contract,
whose conformance suite (`tests/test_saver_conformance.py`) deletes a run's
checkpoints whatever builds on them: there the later checkpoints carry no
`DeltaChannel`, so nothing of theirs is lost and the run is deleted. The
refusal cannot move to where langgraph-api decides to roll back (inside
langgraph-runtime-inmem, which then calls `adelete_for_runs`), and a later
checkpoint could only be kept whole by rewriting it as a snapshot of every
`DeltaChannel`; `tests/test_rollback_savers.py` shows what deleting anyway does.

`aprune` (langgraph-api's thread TTLs) follows the contract: `delete` deletes
each thread as `adelete_thread` does; `keep_latest` keeps each namespace's
latest checkpoint with its writes, and refuses (`NotImplementedError`) a
thread whose `DeltaChannel` states need their history, as LangGraph's own
PostgreSQL saver does.

The refusal (`RollbackRefusedError`, a `ValueError`, so the server shows its
message) reaches the client that asks for the rollback when langgraph-api
deletes the run at once (`runs.cancel(..., action="rollback")` and
`multitask_strategy="rollback"` with nobody streaming the run: HTTP 400).
When a client streams the run, langgraph-api answers the cancel at once and
calls `adelete_for_runs` from the run's worker task only, where the refusal is
logged, not raised (an error there leaves the run marked running and its
thread blocked). Either way the run is stopped, as `action="interrupt"` stops
it, and what it did stays in the thread's history. (`runs.delete` of a run
calls `adelete_for_runs` too, under the same rules.)

Noted rows stay until their run is rolled back or their thread deleted
(`adelete_thread`): a few per run that resumed a thread.

After a rollback the thread registry shows the status of the thread's
restored head (a thread left with no checkpoint leaves the registry).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import WRITES_IDX_MAP, CheckpointTuple
from langgraph.checkpoint.base.id import uuid6

from graph.errors import AgentError

RESUME = "__resume__"
INTERRUPT = "__interrupt__"
PROPOSAL = "proposal"
APPROVING = ("approve", "edit")
MAX_REMEMBERED_RUNS = 1024
RUN_WRITES_TABLE = (
    "CREATE TABLE IF NOT EXISTS run_writes (run_id TEXT NOT NULL, thread_id TEXT NOT NULL,"
    " checkpoint_ns TEXT NOT NULL, checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL,"
    " idx INTEGER NOT NULL, channel TEXT NOT NULL,"
    " PRIMARY KEY (run_id, thread_id, checkpoint_ns, checkpoint_id, task_id, idx))"
)
"""Writes server runs put on checkpoints they did not make (see `RunLog`)."""
REFUSED = "run {run_id} of thread {thread_id} cannot be rolled back: {reason}; nothing was deleted"
ANSWERED = (
    "it answered the approval request for {request}, whose decision (and write, if it ran)"
    ' the audit log keeps; cancel it with action="interrupt" instead'
)
APPROVED = (
    "it carried the approved write {request}, which may have run and must stay recorded once;"
    ' cancel it with action="interrupt" instead'
)
BUILT_ON = "{count} later checkpoint(s) of another run or fork build on it"


class RollbackRefusedError(AgentError):
    """A run cannot be rolled back without losing a write's record or later checkpoints."""


@dataclass
class RunRows:
    """What one run left in one namespace of one thread."""

    run_id: str
    thread_id: str
    checkpoint_ns: str
    checkpoint_ids: list[str] = field(default_factory=list)
    start_id: str | None = None
    """The checkpoint the run started from (its first checkpoint's parent, or the one its
    noted writes are on)."""
    noted: list[tuple[str, str, int, str]] = field(default_factory=list)
    """Writes on checkpoints the run did not make: (checkpoint id, task id, idx, channel)."""
    proposals: list[Any] = field(default_factory=list)
    """The `proposal` values the run wrote, decoded."""
    children: int = 0
    """Checkpoints of other runs whose parent is one of the run's."""


class RunLog:
    """When this saver first saw each recent run, to tell the checkpoints a run made from
    older ones it writes on. Checkpoint ids are time-ordered (uuid6), so a checkpoint made
    by an earlier run has a smaller id than one made now. LangGraph puts a checkpoint and
    the writes on it in the background, in no fixed order, so what a run put last says
    nothing; the first sight errs only one way: a run's own first checkpoint may be made
    just before it, and its writes are then noted needlessly (and deleted with it)."""

    def __init__(self) -> None:
        self._first_seen: OrderedDict[str, str] = OrderedDict()
        self._rolled_back: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

    def rolled_back(self, run_id: str) -> None:
        """The run was rolled back: what it still puts (a node that ran on in its worker
        thread) is dropped."""
        with self._lock:
            self._rolled_back[run_id] = None
            while len(self._rolled_back) > MAX_REMEMBERED_RUNS:
                self._rolled_back.popitem(last=False)

    def dropped(self, config: RunnableConfig, metadata: Mapping[str, Any] | None = None) -> bool:
        """Whether a checkpoint or writes of a rolled-back run are to be dropped."""
        run_id = (metadata or {}).get("run_id") or run_of(config)
        with self._lock:
            return bool(run_id) and str(run_id) in self._rolled_back

    def seen(self, run_id: str | None) -> str:
        """The run puts something: its first sight (kept from the first call)."""
        with self._lock:
            if run_id and run_id not in self._first_seen:
                self._first_seen[run_id] = str(uuid6())
                while len(self._first_seen) > MAX_REMEMBERED_RUNS:
                    self._first_seen.popitem(last=False)
            return self._first_seen.get(run_id or "", "")

    def foreign_rows(
        self, config: RunnableConfig, writes: Sequence[tuple[str, Any]], task_id: str
    ) -> list[tuple[Any, ...]]:
        """The `run_writes` rows (in the table's column order) to note for writes a run
        puts on a checkpoint made before this saver first saw it; [] for a later checkpoint
        (the run's own) or writes that are no run's (the CLI's)."""
        run_id = run_of(config)
        first_seen = self.seen(run_id)
        conf = config["configurable"]
        where = (str(conf["thread_id"]), str(conf.get("checkpoint_ns", "")))
        checkpoint_id = str(conf.get("checkpoint_id") or "")
        if not run_id or not checkpoint_id or checkpoint_id > first_seen:
            return []
        return [
            (run_id, *where, checkpoint_id, task_id, write_index(channel, at), channel)
            for at, (channel, _) in enumerate(writes)
        ]


RUN_LOG = RunLog()
"""Shared by every saver of the process: langgraph-api makes one per event loop, and a run's
rollback may come through another loop's saver than its writes."""


def in_worker_of(run_id: str) -> bool:
    """Whether this is the worker task of the run (langgraph-api's queue names it
    `run-{run_id}-attempt-{n}`), rather than an API request."""
    task = asyncio.current_task()
    return task is not None and f"run-{run_id}-attempt-" in task.get_name()


def run_of(config: RunnableConfig) -> str | None:
    """The server run a config belongs to (langgraph-api puts its id in the metadata)."""
    run_id = (config.get("metadata") or {}).get("run_id")
    return str(run_id) if run_id else None


def write_index(channel: str, at: int) -> int:
    """The `idx` a saver stores a write under (special channels have fixed negative ones)."""
    return int(WRITES_IDX_MAP.get(channel, at))


def request_of(proposal: Any) -> str | None:
    """The request id (else the action) of a write proposal, else None."""
    value = getattr(proposal, "value", proposal)  # a DeltaChannel seed is a snapshot
    if not isinstance(value, Mapping) or not value.get("writes"):
        return None
    return str(value.get("request_id") or value.get("action_text") or value.get("action"))


def approved_request(proposal: Any) -> str | None:
    """The request id (or action) of an approved write proposal, else None."""
    value = getattr(proposal, "value", proposal)
    if not isinstance(value, Mapping) or (value.get("decision") or {}).get("type") not in APPROVING:
        return None
    return request_of(value)


def refusal(rows: RunRows, start_proposal: Any) -> str | None:
    """Why the run must not be rolled back, or None."""
    for _, task_id, _, channel in rows.noted:
        if channel == RESUME:
            answered = request_of(start_proposal) or f"of task {task_id}"
            return ANSWERED.format(request=answered)
    for proposal in [start_proposal, *rows.proposals]:
        approved = approved_request(proposal)
        if approved is not None:
            return APPROVED.format(request=approved)
    if rows.children:
        return BUILT_ON.format(count=rows.children)
    return None


def refuse_unless_safe(rows: RunRows, start_proposal: Any) -> None:
    """Raise `RollbackRefusedError` (one line) if the run must not be rolled back."""
    reason = refusal(rows, start_proposal)
    if reason is not None:
        raise RollbackRefusedError(
            REFUSED.format(run_id=rows.run_id, thread_id=rows.thread_id, reason=reason)
        )


def status_at(head: CheckpointTuple | None) -> str | None:
    """The registry status a thread's head checkpoint stands for (None: no checkpoint)."""
    if head is None:
        return None
    if any(channel == INTERRUPT for _, channel, _ in head.pending_writes or ()):
        return "awaiting_approval"
    return str(head.checkpoint["channel_values"].get("status") or "running")


async def restore_registry(saver: Any, thread_ids: set[str]) -> None:
    """Bring the registry rows of rolled-back threads back to their heads' status."""
    registry = getattr(saver, "thread_registry", None)
    if registry is None:
        return
    for thread_id in thread_ids:
        head = await saver.aget_tuple({"configurable": {"thread_id": thread_id}})
        status = status_at(head)
        if status is None:
            await asyncio.to_thread(registry.forget, thread_id)
        else:
            await asyncio.to_thread(registry.set_status, thread_id, status)
