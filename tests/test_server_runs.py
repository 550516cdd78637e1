"""`graph.store.server_runs` on a real SQLite lease: a server run that ends (is cancelled) gives
its thread up at once, or when its node still running returns, and never sooner."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from graph.episodes.runner import open_checkpointer
from graph.errors import LeaseHeldError
from graph.store.leases import SqliteThreadLease
from graph.store.server_runs import RunEndedError, ServerRuns

THREAD = "0b7e3c1a-6f42-4c1e-8d2b-3a9f5e7c1d20"
RUN, NEXT_RUN = "run-cancelled", "run-next"


@pytest.fixture
def lease(db_path: Path) -> SqliteThreadLease:
    open_checkpointer(db_path)
    return SqliteThreadLease(db_path)


def in_a_node(lease: SqliteThreadLease) -> ServerRuns:
    """Server runs where `RUN` streams and is inside a node, holding the thread's lease."""
    runs = ServerRuns()
    runs.started(THREAD, RUN)
    runs.node_starting(lease, THREAD, RUN)
    lease.acquire(THREAD, RUN)
    return runs


def test_a_run_that_ends_between_nodes_releases_at_once(lease: SqliteThreadLease) -> None:
    runs = in_a_node(lease)
    runs.node_finished(THREAD, RUN)
    assert lease.holder(THREAD) is not None, "between nodes a running run keeps its thread"
    runs.ended(lease, THREAD, RUN)
    assert lease.holder(THREAD) is None


def test_a_run_that_ends_mid_node_keeps_the_thread_until_the_node_returns(
    lease: SqliteThreadLease,
) -> None:
    runs = in_a_node(lease)
    runs.ended(lease, THREAD, RUN)
    with pytest.raises(LeaseHeldError):
        lease.acquire(THREAD, "cli:other")
    runs.node_finished(THREAD, RUN)
    assert lease.holder(THREAD) is None
    assert lease.acquire(THREAD, "cli:other") is True


def test_a_node_of_an_ended_run_does_not_start(lease: SqliteThreadLease) -> None:
    runs = ServerRuns()
    runs.started(THREAD, RUN)
    runs.ended(lease, THREAD, RUN)
    lease.acquire(THREAD, NEXT_RUN)
    with pytest.raises(RunEndedError):
        runs.node_starting(lease, THREAD, RUN)
    holder = lease.holder(THREAD)
    assert holder is not None
    assert holder.owner == NEXT_RUN
    runs.started(THREAD, RUN)  # a retried attempt of the same run starts afresh
    runs.node_starting(lease, THREAD, RUN)


def test_the_next_run_waits_for_the_cancelled_runs_node_and_no_longer(
    lease: SqliteThreadLease,
) -> None:
    runs = in_a_node(lease)
    waited: list[bool] = []
    waiter = threading.Thread(target=lambda: waited.append(runs.wait_for_release(THREAD, RUN, 30)))
    waiter.start()
    time.sleep(0.2)
    runs.ended(lease, THREAD, RUN)  # the cancel reaches the run's stream after the next run asked
    time.sleep(0.2)
    assert waited == [] and lease.holder(THREAD) is not None, "its node still runs"
    runs.node_finished(THREAD, RUN)
    waiter.join(5)
    assert waited == [True]
    assert lease.acquire(THREAD, NEXT_RUN) is True


def test_only_server_runs_of_this_process_are_waited_for(lease: SqliteThreadLease) -> None:
    runs = ServerRuns()
    runs.node_starting(lease, THREAD, "local-graph-run")  # a graph run outside the server
    lease.acquire(THREAD, "local-graph-run")
    started = time.monotonic()
    assert runs.wait_for_release(THREAD, "local-graph-run", 30) is False
    assert runs.wait_for_release(THREAD, "run-of-another-process", 30) is False
    assert time.monotonic() - started < 5


@pytest.mark.parametrize("node_running", [False, True])
def test_a_rolled_back_run_whose_stream_end_was_not_seen_still_frees_its_thread(
    lease: SqliteThreadLease, node_running: bool
) -> None:
    runs = in_a_node(lease)
    if not node_running:
        runs.node_finished(THREAD, RUN)
    for thread_id in runs.rollback_done(RUN):  # the saver rolled the run's checkpoints back
        runs.release_ended(thread_id, RUN)
    if node_running:
        assert lease.holder(THREAD) is not None, "its node still runs, and keeps the thread"
        runs.node_finished(THREAD, RUN)
    assert lease.holder(THREAD) is None
    with pytest.raises(RunEndedError):
        runs.node_starting(lease, THREAD, RUN)


def test_ending_is_marked_in_memory_then_released_once(lease: SqliteThreadLease) -> None:
    runs = in_a_node(lease)
    assert runs.mark_ended(lease, THREAD, RUN) is False, "a node runs: it frees the thread"
    runs.node_finished(THREAD, RUN)
    assert lease.holder(THREAD) is None
    assert runs.mark_ended(lease, THREAD, RUN) is False, "already released"
