"""The thread lease and registry on PostgreSQL: advisory locks, holder rows, takeover."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import psycopg
import pytest

from graph.episodes.runner import open_checkpointer
from graph.errors import DatabaseError, LeaseHeldError
from graph.store.pg_leases import PostgresThreadLease, lock_key
from graph.store.postgres import PostgresCheckpointSaver

pytestmark = pytest.mark.postgres
THREAD = "0b5e7f3a-pg-lease"
HOLD_AND_WAIT = """
import sys, time
from graph.episodes.runner import open_checkpointer
saver = open_checkpointer(sys.argv[1])
saver.lease.acquire(sys.argv[2], "other-process")
print("held", flush=True)
time.sleep(300)
"""


@pytest.fixture
def saver(postgres_url: str) -> Iterator[PostgresCheckpointSaver]:
    with open_checkpointer(postgres_url) as opened:
        assert isinstance(opened, PostgresCheckpointSaver)
        yield opened


def test_one_owner_at_a_time_and_the_loser_is_told_who_and_since_when(
    saver: PostgresCheckpointSaver,
) -> None:
    lease = saver.thread_lease
    assert lease.acquire(THREAD, "a") is True
    assert lease.acquire(THREAD, "a") is False
    with pytest.raises(LeaseHeldError) as lost:
        lease.acquire(THREAD, "b")
    message = str(lost.value)
    assert message.startswith(f"thread {THREAD} is being run by another process since ")
    assert f"pid {os.getpid()}" in message
    assert set(lease.live_holders()) == {THREAD}
    lease.release(THREAD, "b")
    assert lease.holder(THREAD) is not None
    lease.release(THREAD, "a")
    assert lease.holder(THREAD) is None and lease.live_holders() == {}
    assert lease.acquire(THREAD, "b") is True


def test_a_lease_in_another_process_holds_until_it_is_killed_then_frees_at_once(
    saver: PostgresCheckpointSaver, postgres_url: str
) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_AND_WAIT, postgres_url, THREAD],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        lease = saver.thread_lease
        with pytest.raises(LeaseHeldError, match=f"pid {holder.pid} "):
            lease.acquire(THREAD, "me")
        assert set(lease.live_holders()) == {THREAD}
    finally:
        holder.kill()
        holder.wait()
    deadline = time.monotonic() + 10
    while True:
        try:
            assert lease.acquire(THREAD, "me") is True
            break
        except LeaseHeldError:
            assert time.monotonic() < deadline, "the killed process's lock was not freed"
            time.sleep(0.05)
    current = lease.holder(THREAD)
    assert current is not None and (current.owner, current.pid) == ("me", os.getpid())


def test_a_lost_session_loses_the_lease_and_renewal_says_so(
    saver: PostgresCheckpointSaver, postgres_url: str
) -> None:
    lease = saver.thread_lease
    lease.acquire(THREAD, "a")
    assert lease.renew(THREAD, "a") is True
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks"
            " WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
        )
    assert lease.renew(THREAD, "a") is False
    with pytest.raises(DatabaseError, match="lease to the checkpoint database was lost"):
        lease.check_file(THREAD)
    lease.check_file(THREAD)  # said once; a new run may take the thread again
    other = PostgresThreadLease(lease.conninfo, saver.pool)
    try:
        assert other.acquire(THREAD, "b") is True
    finally:
        other.close()


def test_an_owner_that_stopped_renewing_is_taken_over_in_the_same_process(
    postgres_url: str,
) -> None:
    with open_checkpointer(postgres_url) as opened:
        lease = PostgresThreadLease(opened.thread_lease.conninfo, opened.pool, ttl_s=0.3)
        try:
            lease.acquire(THREAD, "stopped-run")
            with pytest.raises(LeaseHeldError):
                lease.acquire(THREAD, "next-run")
            time.sleep(0.4)
            assert lease.acquire(THREAD, "next-run") is True
        finally:
            lease.close()


def test_the_registry_keeps_each_threads_first_question_and_latest_status(
    saver: PostgresCheckpointSaver,
) -> None:
    registry = saver.thread_registry
    registry.register("t1", "wikipedia", "First?")
    registry.register("t2", "library", "Second?", "awaiting_approval")
    registry.register("t1", "wikipedia", "", "verified")
    registry.set_status("missing", "verified")
    rows = registry.rows()
    assert {r.thread_id: r.status for r in rows} == {"t1": "verified", "t2": "awaiting_approval"}
    found = registry.get("t1")
    assert found is not None and found.question == "First?"
    assert registry.get("missing") is None


def test_a_read_only_open_of_an_empty_database_creates_nothing(postgres_url: str) -> None:
    with pytest.raises(DatabaseError, match="no checkpoint database at postgresql://"):
        open_checkpointer(postgres_url, create=False)
    with psycopg.connect(postgres_url) as conn:
        tables = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    assert tables == (0,)


def test_a_library_database_is_not_taken_for_checkpoints(postgres_url: str) -> None:
    from tools.library.db import ensure_database

    ensure_database(postgres_url)
    for create in (True, False):
        with pytest.raises(DatabaseError, match="is a library database, not a checkpoint"):
            open_checkpointer(postgres_url, create=create)


def test_processes_opening_a_new_database_at_once_set_it_up_once_without_deadlock(
    postgres_url: str,
) -> None:
    question = "In what year was the director of the film The Prestige born?"
    command = [sys.executable, "-m", "graph.cli", "ask", question, "--db", postgres_url]
    askers = [
        subprocess.Popen(
            [*command, "--model", "graph.testing:demo_model"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [process.communicate(timeout=300)[0] for process in askers]
    assert [process.returncode for process in askers] == [0] * 4, [o[-300:] for o in outputs]
    with psycopg.connect(postgres_url) as conn:
        versions = conn.execute("SELECT count(*), count(DISTINCT v) FROM checkpoint_migrations")
        total, distinct = versions.fetchone() or (0, 0)
    assert total == distinct > 0


def test_a_released_row_is_no_frozen_holder_to_take_over(
    saver: PostgresCheckpointSaver, postgres_url: str
) -> None:
    """Between a newcomer's lock and its row the row still says released: a second
    newcomer is told the thread is held and ends no session (it ended the first one's)."""
    lease = saver.thread_lease
    assert isinstance(lease, PostgresThreadLease)
    lease.acquire(THREAD, "earlier-run")
    lease.release(THREAD, "earlier-run")
    with psycopg.connect(postgres_url, autocommit=True) as newcomer:
        newcomer.execute("SELECT pg_advisory_lock(%s)", (lock_key(THREAD),))
        with pytest.raises(LeaseHeldError):
            lease.acquire(THREAD, "second-newcomer")
        assert newcomer.execute("SELECT 1").fetchone() == (1,)
