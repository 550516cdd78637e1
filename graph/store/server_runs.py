"""The LangGraph server's runs in this process: which are running a node, which have ended.

A server run drives its thread under the run id as lease owner
(`graph.core.thread_guard`). Its nodes give the lease up when the run pauses, ends
the episode or fails; but a run that is *cancelled* (`runs.cancel`, Studio's
cancel button, `multitask_strategy="interrupt"` or `"rollback"`) stops
between or around nodes, where no node of ours runs. LangGraph cannot stop a
synchronous node that is already running in its worker thread: cancelling the
run only drops the node's result, and the node runs on to its end.

So the server's graphs are entered once per run (`graph.server.studio`), and leaving
that, which the server does when the run's stream ends for whatever reason,
calls `ServerRuns.ended`:

- no node of the run is running: its lease is released at once;
- a node is still finishing in its worker thread: that node keeps the lease
  (renewed by its heartbeat, so no other driver can start meanwhile, in this
  process or any other) and releases it when it returns;
- a node of an ended run that had not started yet refuses to start.

A run ended by a rollback (`runs.cancel(action="rollback")`,
`multitask_strategy="rollback"`) is *rolling back* until the saver's
`adelete_for_runs` has dealt with its checkpoints (`graph.store.rollback`);
a new run of its thread in this process waits for that before it reads the
thread, so it never starts from checkpoints about to be deleted.

A new run of the same thread in this process that finds the lease held by an
ended run still finishing a node waits for that node (`wait_for_release`),
instead of being refused for the lease's time to live: the langgraph-api
queue marks a cancelled run as no longer running as soon as the cancel is
asked for, so the next run on its thread can start while the cancelled run's
node still runs. Runs of another process never take this path; for them the
lease is free as soon as the cancelled run has no node left.
"""

from __future__ import annotations

import sqlite3
import threading
from collections import OrderedDict
from contextlib import suppress
from dataclasses import dataclass

from graph.errors import AgentError
from graph.store.heartbeats import release
from graph.store.leases import ThreadLease

MAX_REMEMBERED = 1024  # runs with no node running, remembered so a late node is refused
RUN_ENDED = (
    "run {owner} of thread {thread_id} has ended (cancelled, or its thread deleted):"
    " its node does not start"
)


class RunEndedError(AgentError):
    """A node of a server run whose stream has ended (the run was cancelled) was to start."""


@dataclass
class _Run:
    """One run's nodes in progress and where it stands."""

    nodes: int = 0
    streaming: bool = False
    ended: bool = False
    released: bool = False
    rolling_back: bool = False
    lease: ThreadLease | None = None


class ServerRuns:
    """The server runs of this process, by (thread id, owner)."""

    def __init__(self) -> None:
        self._runs: OrderedDict[tuple[str, str], _Run] = OrderedDict()
        self._changed = threading.Condition()

    def _trim(self) -> None:
        """Forget the oldest runs with no node running, beyond `MAX_REMEMBERED`."""
        idle = [key for key, run in self._runs.items() if run.nodes == 0]
        for key in idle[: max(0, len(self._runs) - MAX_REMEMBERED)]:
            del self._runs[key]

    def started(self, thread_id: str, owner: str) -> None:
        """The run's stream begins (a retried attempt starts afresh)."""
        key = (thread_id, owner)
        with self._changed:
            run = self._runs.get(key)
            if run is None or run.nodes == 0:
                self._runs[key] = _Run(streaming=True)
            else:  # an earlier attempt's node still counts until it returns
                run.streaming, run.ended, run.released = True, False, False
            self._runs.move_to_end(key)
            self._trim()

    def node_starting(self, lease: ThreadLease, thread_id: str, owner: str) -> None:
        """A node of the run starts; raises `RunEndedError` when the run has ended."""
        with self._changed:
            run = self._runs.setdefault((thread_id, owner), _Run())
            if run.ended:
                raise RunEndedError(RUN_ENDED.format(owner=owner, thread_id=thread_id))
            run.nodes += 1
            run.lease = lease
            if len(self._runs) > MAX_REMEMBERED:  # runs driven without the server never end
                self._trim()

    def node_finished(self, thread_id: str, owner: str) -> None:
        """A node of the run returned or raised; the last one of an ended run releases."""
        with self._changed:
            run = self._runs.get((thread_id, owner))
            if run is None:
                return
            run.nodes -= 1
            last = run.ended and run.nodes == 0
        if last:
            self._release(run, thread_id, owner)

    def ended(
        self, lease: ThreadLease | None, thread_id: str, owner: str, *, rolled_back: bool = False
    ) -> None:
        """The run's stream ended: release its lease now, or when its running node returns.
        A run ended by a rollback is rolling back until `rollback_done`."""
        if self.mark_ended(lease, thread_id, owner, rolled_back=rolled_back):
            self.release_ended(thread_id, owner)

    def mark_ended(
        self, lease: ThreadLease | None, thread_id: str, owner: str, *, rolled_back: bool = False
    ) -> bool:
        """The in-memory half of `ended` (no database call, so it is safe on the event
        loop, where a second cancel cannot interrupt it): True when no node of the run is
        running, and `release_ended` must give its lease up now."""
        with self._changed:
            run = self._runs.setdefault((thread_id, owner), _Run())
            run.ended = True
            run.rolling_back = rolled_back
            run.lease = run.lease or lease
            self._trim()
            return run.nodes == 0 and not run.released

    def release_ended(self, thread_id: str, owner: str) -> None:
        """Give up the lease of an ended run with no node running (the database half)."""
        with self._changed:
            run = self._runs.get((thread_id, owner))
            if run is None or run.nodes or run.released:
                return
        self._release(run, thread_id, owner)

    def thread_deleted(self, thread_id: str) -> None:
        """The thread was deleted (`threads.delete`): its runs end as a cancelled run does,
        so their next node does not start and a node still running has its result dropped."""
        with self._changed:
            owners = [key[1] for key, run in self._runs.items() if key[0] == thread_id]
        for owner in owners:
            self.ended(None, thread_id, owner)

    def has_ended(self, thread_id: str, owner: str) -> bool:
        """Whether the run's stream has ended (its node's result is dropped)."""
        with self._changed:
            run = self._runs.get((thread_id, owner))
            return run is not None and run.ended

    def rollback_done(self, owner: str) -> list[str]:
        """The checkpoints of the run `owner` were rolled back (or the rollback refused).
        A rolled-back run has ended, whether or not its stream's end was seen: its next
        node does not start. Returns the threads where `release_ended` must free its lease
        (no node of it running; a running one frees it when it returns)."""
        freed: list[str] = []
        with self._changed:
            for (thread_id, key_owner), run in self._runs.items():
                if key_owner == owner:
                    run.rolling_back = False
                    run.ended = True
                    if run.nodes == 0 and not run.released and run.lease is not None:
                        freed.append(thread_id)
            self._changed.notify_all()
        return freed

    def wait_for_rollbacks(self, thread_id: str, timeout_s: float) -> bool:
        """Wait until no run of the thread in this process is rolling back (a new run must
        not start from checkpoints about to be deleted); False if `timeout_s` passed first."""
        with self._changed:
            return self._changed.wait_for(
                lambda: (
                    not any(
                        run.rolling_back for key, run in self._runs.items() if key[0] == thread_id
                    )
                ),
                timeout_s,
            )

    def _release(self, run: _Run, thread_id: str, owner: str) -> None:
        try:
            if run.lease is not None:
                with suppress(sqlite3.Error):  # a gone file: the lease went with it
                    release(run.lease, thread_id, owner)
        finally:
            with self._changed:
                run.released = True
                self._changed.notify_all()

    def wait_for_release(self, thread_id: str, owner: str, timeout_s: float) -> bool:
        """Wait until `owner`, a server run of this process, has ended and released the
        thread's lease; False at once when `owner` is not one, or when `timeout_s` passed
        first.

        A run still streaming is waited for too: the server starts another run on the
        thread only once this one is cancelled (or done), and the cancel may reach its
        stream a moment after the next run's first node asks for the lease.
        """
        with self._changed:
            run = self._runs.get((thread_id, owner))
            if run is None or not run.streaming:
                return False
            return self._changed.wait_for(lambda: run.released, timeout_s)


SERVER_RUNS = ServerRuns()
