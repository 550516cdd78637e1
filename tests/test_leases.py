"""The thread lease on SQLite: one live owner, takeover from the dead, expiry, and the registry."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from graph.episodes.runner import open_checkpointer
from graph.errors import DatabaseError, LeaseHeldError
from graph.store.heartbeats import ensure, holding
from graph.store.leases import Holder, SqliteThreadLease, holder_alive, lease_of
from graph.store.processes import ThisProcess, process_alive, process_start
from graph.store.registry import registry_of

THREAD = "7d0c1b8e-5b1e-4a43-9a55-0c2f6f1a2b3c"


@pytest.fixture
def lease(db_path: Path) -> SqliteThreadLease:
    open_checkpointer(db_path)
    return SqliteThreadLease(db_path)


def test_one_owner_at_a_time_and_the_loser_is_told_who_and_since_when(
    lease: SqliteThreadLease,
) -> None:
    assert lease.acquire(THREAD, "a") is True
    assert lease.acquire(THREAD, "a") is False
    with pytest.raises(LeaseHeldError) as lost:
        lease.acquire(THREAD, "b")
    message = str(lost.value)
    assert message.startswith(f"thread {THREAD} is being run by another process since ")
    assert f"pid {os.getpid()}" in message
    lease.release(THREAD, "b")
    assert lease.holder(THREAD) is not None
    lease.release(THREAD, "a")
    assert lease.holder(THREAD) is None
    assert lease.acquire(THREAD, "b") is True


def test_compare_and_set_lets_exactly_one_of_many_threads_win(lease: SqliteThreadLease) -> None:
    wins: list[str] = []
    losses: list[str] = []
    start = threading.Barrier(8)

    def contend(owner: str) -> None:
        start.wait()
        try:
            SqliteThreadLease(lease.path).acquire(THREAD, owner)
            wins.append(owner)
        except LeaseHeldError:
            losses.append(owner)

    workers = [threading.Thread(target=contend, args=(f"o{i}",)) for i in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(wins) == 1 and len(losses) == 7


def test_a_dead_holder_on_this_host_is_taken_over_at_once(
    lease: SqliteThreadLease, tmp_path: Path
) -> None:
    program = (
        "import sys; from graph.store.leases import SqliteThreadLease; "
        f"SqliteThreadLease(sys.argv[1]).acquire({THREAD!r}, 'dead')"
    )
    done = subprocess.run([sys.executable, "-c", program, str(lease.path)], check=True)
    assert done.returncode == 0
    holder = lease.holder(THREAD)
    assert holder is not None and holder.owner == "dead"
    assert holder.expires_at > time.time() + 10
    assert not holder_alive(holder)
    assert lease.acquire(THREAD, "alive") is True


def test_a_killed_holder_is_dead_even_before_it_is_reaped(lease: SqliteThreadLease) -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        started = process_start(child.pid)
        assert process_alive(child.pid, started)
        child.kill()
        deadline = time.monotonic() + 10
        while process_alive(child.pid, started) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not process_alive(child.pid, started), "a zombie counts as dead"
    finally:
        child.wait()


def test_a_reused_pid_does_not_keep_a_lease(lease: SqliteThreadLease) -> None:
    me = ThisProcess.current()
    assert process_alive(me.pid, me.start)
    assert not process_alive(me.pid, me.start + "0")


def test_a_live_holder_elsewhere_keeps_the_lease_until_it_expires(db_path: Path) -> None:
    open_checkpointer(db_path)
    short = SqliteThreadLease(db_path, ttl_s=0.5)
    short.acquire(THREAD, "remote")
    short._conn().execute("UPDATE thread_leases SET host = 'elsewhere'")
    with pytest.raises(LeaseHeldError):
        short.acquire(THREAD, "local")
    time.sleep(0.6)
    assert short.acquire(THREAD, "local") is True


def test_ensure_reads_while_fresh_and_renews_near_expiry(db_path: Path) -> None:
    open_checkpointer(db_path)
    short = SqliteThreadLease(db_path, ttl_s=1.0)
    assert ensure(short, THREAD, "me") is True
    first = short.holder(THREAD)
    assert ensure(short, THREAD, "me") is False
    assert short.holder(THREAD) == first
    time.sleep(0.6)
    assert ensure(short, THREAD, "me") is False
    renewed = short.holder(THREAD)
    assert renewed is not None and first is not None
    assert renewed.expires_at > first.expires_at and renewed.since == first.since


def test_holding_renews_with_a_heartbeat_and_releases(db_path: Path) -> None:
    open_checkpointer(db_path)
    with holding(SqliteThreadLease(db_path), "another", "worker"):
        short = SqliteThreadLease(db_path, ttl_s=1.0)
        with holding(short, THREAD, "worker"):
            time.sleep(2.5)
            holder = short.holder(THREAD)
            assert isinstance(holder, Holder) and holder_alive(holder)
            with pytest.raises(LeaseHeldError):
                short.acquire(THREAD, "other")
        assert short.holder(THREAD) is None


def test_a_database_deleted_under_the_lease_is_reported(lease: SqliteThreadLease) -> None:
    lease.acquire(THREAD, "a")
    lease.path.unlink()
    with pytest.raises(DatabaseError, match="was deleted or replaced while thread"):
        ensure(lease, THREAD, "a")
    assert not lease.path.exists()


def test_a_saver_carries_its_lease_and_registry(db_path: Path) -> None:
    saver = open_checkpointer(db_path)
    assert lease_of(saver) is lease_of(saver)
    registry = registry_of(saver)
    assert registry is not None
    registry.register(THREAD, "library", "Q?")
    registry.set_status(THREAD, "awaiting_approval")
    row = registry.get(THREAD)
    assert row is not None and (row.env, row.status) == ("library", "awaiting_approval")
    registry.register(THREAD, "", "", "running")
    row = registry.get(THREAD)
    assert row is not None and (row.env, row.question, row.status) == ("library", "Q?", "running")


def test_a_lease_lost_while_held_is_noticed_by_the_next_check(db_path: Path) -> None:
    open_checkpointer(db_path)
    short = SqliteThreadLease(db_path, ttl_s=0.9)
    with holding(short, THREAD, "slow"):
        assert ensure(short, THREAD, "slow") is False
        short._conn().execute(
            "UPDATE thread_leases SET owner = 'thief', host = 'elsewhere', expires_at = ?",
            (time.time() + 60,),
        )
        time.sleep(1.0)
        with pytest.raises(LeaseHeldError):
            ensure(short, THREAD, "slow")
