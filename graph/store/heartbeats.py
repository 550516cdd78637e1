"""Renewing the leases a process holds, and the checks its nodes make against them.

`HEARTBEATS` is one daemon thread per process that renews every lease the
process holds (`holding`), and remembers when each renewal last succeeded, so
`ensure` (called before each run-driven node) mostly needs no database read.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

from graph.store.leases import LEASE_TTL_S, ThreadLease

MAX_REMEMBERED = 256  # renewals remembered past their heartbeat before old ones are dropped


class Heartbeats:
    """One daemon thread per process that renews every lease this process holds.

    It also remembers when each renewal last succeeded, so a node of a run
    whose lease this process renews (or renewed lately: a run-driven node's
    heartbeat only lasts as long as the node) checks it without reading the
    database; a renewal that finds the lease gone, or a release, forgets it,
    and the next check reads the database again (and refuses).
    """

    def __init__(self) -> None:
        self._held: dict[tuple[int, str, str], ThreadLease] = {}
        self._renewed: dict[tuple[int, str, str], float] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._period = LEASE_TTL_S / 3

    def add(self, lease: ThreadLease, thread_id: str, owner: str) -> tuple[int, str, str]:
        """Renew this lease (just taken) until `remove`; returns the key to remove it by."""
        key = (id(lease), thread_id, owner)
        with self._lock:
            self._held[key] = lease
            self._renewed[key] = time.monotonic()
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="lease-heartbeat", daemon=True
                )
                self._thread.start()
            sooner = lease.ttl_s / 3 < self._period
        if sooner:  # a shorter time to live than the ones held so far takes effect now
            self._wake.set()
        return key

    def remove(self, key: tuple[int, str, str]) -> None:
        """Stop renewing one lease (its last renewal still counts for `fresh`)."""
        with self._lock:
            self._held.pop(key, None)
            if len(self._renewed) > MAX_REMEMBERED:
                stale = time.monotonic() - LEASE_TTL_S
                for old in [k for k, at in self._renewed.items() if at < stale]:
                    if old not in self._held:
                        del self._renewed[old]

    def confirm(self, lease: ThreadLease, thread_id: str, owner: str, expires_at: float) -> None:
        """`owner` was seen holding the lease until `expires_at` (wall clock)."""
        renewed = time.monotonic() - (time.time() - (expires_at - lease.ttl_s))
        with self._lock:
            self._renewed[(id(lease), thread_id, owner)] = renewed

    def forget(self, lease: ThreadLease, thread_id: str, owner: str) -> None:
        """`owner` gave the lease up: the next check reads the database."""
        with self._lock:
            self._renewed.pop((id(lease), thread_id, owner), None)

    def fresh(self, lease: ThreadLease, thread_id: str, owner: str) -> bool:
        """Whether this process renewed `owner`'s lease within the last half time to live."""
        with self._lock:
            renewed = self._renewed.get((id(lease), thread_id, owner))
        return renewed is not None and time.monotonic() - renewed < lease.ttl_s / 2

    def _run(self) -> None:
        while True:
            with self._lock:
                held = list(self._held.items())
            period = min((lease.ttl_s for _, lease in held), default=LEASE_TTL_S) / 3
            with self._lock:
                self._period = period
            for key, lease in held:
                started = time.monotonic()
                try:
                    kept = lease.renew(key[1], key[2])
                except sqlite3.Error:
                    kept = False  # the next node's check reads the database and says why
                with self._lock:
                    if key in self._held:
                        if kept:
                            self._renewed[key] = started
                        else:
                            self._renewed.pop(key, None)
            self._wake.wait(period)
            self._wake.clear()


HEARTBEATS = Heartbeats()


def ensure(lease: ThreadLease, thread_id: str, owner: str) -> bool:
    """Make sure `owner` holds the lease; True when it was newly taken.

    No read at all when this process renewed or saw it lately (`Heartbeats.fresh`),
    a read when it is held and not near expiry, else a compare-and-set, which
    raises `LeaseHeldError` when another live owner holds it. The database
    file's identity is checked every time (a stat).
    """
    lease.check_file(thread_id)
    if HEARTBEATS.fresh(lease, thread_id, owner):
        return False
    current = lease.holder(thread_id)
    if (
        current is not None
        and current.owner == owner
        and current.expires_at - time.time() > lease.ttl_s / 2
    ):
        HEARTBEATS.confirm(lease, thread_id, owner, current.expires_at)
        return False
    expires_at = time.time() + lease.ttl_s
    taken = lease.acquire(thread_id, owner)
    HEARTBEATS.confirm(lease, thread_id, owner, expires_at)
    return taken


def release(lease: ThreadLease, thread_id: str, owner: str) -> None:
    """Give `owner`'s lease up: its renewal is forgotten (the next check reads the
    database), then the row is marked released."""
    HEARTBEATS.forget(lease, thread_id, owner)
    lease.release(thread_id, owner)


@contextmanager
def holding(lease: ThreadLease | None, thread_id: str, owner: str) -> Iterator[None]:
    """Hold `thread_id`'s lease for the block (heartbeat included); release it after."""
    if lease is None:
        yield
        return
    lease.acquire(thread_id, owner)
    key = HEARTBEATS.add(lease, thread_id, owner)
    try:
        yield
    finally:
        HEARTBEATS.remove(key)
        with suppress(sqlite3.Error):  # a dead holder's lease is taken over anyway
            release(lease, thread_id, owner)
