"""A server run that is cancelled mid-run gives its thread up at once, and only once its
node has returned: a real `langgraph dev` on SQLite and on PostgreSQL checkpoints, driven
with `langgraph-sdk` as Studio drives it.

The scripted model sleeps in every call, so a cancel lands while the run's `reason`
node is in the model call; LangGraph cannot stop that node's worker thread, which runs
on to its end while the run is already reported as interrupted.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import psycopg
import pytest
from conftest import fresh_database
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import (
    EDIT_TO_W22,
    LIBRARY_QUESTION,
    LIBRARY_SCRIPT,
    Server,
    start_server,
    state_values,
    stop_server,
)

from graph.errors import LeaseHeldError
from graph.store.leases import LEASE_TTL_S, SqliteThreadLease
from graph.store.pg_leases import lock_key
from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
IN_MODEL_CALL_S = 0.3  # after the run takes the lease, its first node is in the model call


@dataclass
class Setup:
    """The running server, its client, its checkpoint store and a scratch directory."""

    server: Server
    client: SyncLangGraphClient
    backend: str
    root: Path

    def holder(self, thread_id: str) -> str | None:
        """The owner named by the thread's lease row (a server run's id), or None (a released
        row, which keeps the fencing token, names none)."""
        if self.backend == "sqlite":
            found = SqliteThreadLease(self.server.db).holder(thread_id)
            return found.owner if found else None
        with psycopg.connect(str(self.server.db)) as conn:
            row = conn.execute(
                "SELECT owner FROM thread_leases WHERE thread_id = %s AND expires_at <> 0",
                (thread_id,),
            ).fetchone()
        return str(row[0]) if row else None

    def another_process_can_take(self, thread_id: str) -> bool:
        """Whether a driver outside the server (this test process, as the CLI would) gets
        the thread's lease right now; given back at once if so."""
        if self.backend == "sqlite":
            lease = SqliteThreadLease(self.server.db)
            try:
                lease.acquire(thread_id, "cli:test")
            except LeaseHeldError:
                return False
            lease.release(thread_id, "cli:test")
            return True
        with psycopg.connect(str(self.server.db), autocommit=True) as conn:
            (got,) = conn.execute(
                "SELECT pg_try_advisory_lock(%s)", (lock_key(thread_id),)
            ).fetchone() or (False,)
        return bool(got)  # the session ends here, and a lock it got with it

    def context(self, name: str, delay_s: float) -> dict[str, Any]:
        """Library run settings: a model that sleeps `delay_s` per call, a library of its own."""
        script = self.root / f"{name}.json"
        replies = {"responses": LIBRARY_SCRIPT, "delay_s": delay_s}
        script.write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
        return {
            "model": f"scripted:{script}",
            "library_db": str(self.root / f"{name}.sqlite3"),
            "max_seconds": 300,
        }

    def started(self, context: dict[str, Any]) -> tuple[str, str]:
        """A new library thread whose first run is inside its first model call."""
        thread_id = self.client.threads.create()["thread_id"]
        run = self.client.runs.create(
            thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
        )
        deadline = time.monotonic() + 60
        while self.holder(thread_id) != run["run_id"] and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.holder(thread_id) == run["run_id"], self.server.log_tail()
        time.sleep(IN_MODEL_CALL_S)
        return thread_id, str(run["run_id"])


def serve(request: pytest.FixtureRequest, root: Path) -> Iterator[Setup]:
    """A `langgraph dev` on the backend `request.param` names, its store new, for a module."""
    backend = str(request.param)
    if backend == "sqlite":
        server = start_server(root, root / "episodes.sqlite3")
        try:
            yield Setup(server, get_sync_client(url=server.url, api_key=None), backend, root)
        finally:
            stop_server(server)
        return
    with fresh_database(request.getfixturevalue("postgres_server")) as url:
        server = start_server(root, url)
        try:
            yield Setup(server, get_sync_client(url=server.url, api_key=None), backend, root)
        finally:
            stop_server(server)


@pytest.fixture(scope="module", params=BACKENDS)
def setup(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Setup]:
    yield from serve(request, tmp_path_factory.mktemp(f"cancel-{request.param}"))


def paused_consistently(setup: Setup, thread_id: str, library_db: str) -> str:
    """Check the thread is paused at its one write proposal with steps 1 and 2, each once;
    returns the pending request id."""
    state = setup.client.threads.get_state(thread_id)
    assert state["next"] == ["review"], state
    assert [step["index"] for step in state_values(state)["steps"]] == [1, 2]
    (interrupt,) = state["interrupts"]
    assert [row["event"] for row in audit_log(library_db)] == ["proposed"]
    assert reservations(library_db) == []
    return str(interrupt["value"]["request_id"])


def test_a_cancelled_run_keeps_the_thread_until_its_node_returns_then_frees_it(
    setup: Setup,
) -> None:
    context = setup.context(f"cancel-other-{setup.backend}", delay_s=3.0)
    thread_id, run_id = setup.started(context)
    setup.client.runs.cancel(thread_id, run_id)
    cancelled_at = time.monotonic()
    assert not setup.another_process_can_take(thread_id), "the cancelled node still runs"
    while setup.holder(thread_id) is not None and time.monotonic() - cancelled_at < LEASE_TTL_S:
        time.sleep(0.05)
    assert setup.holder(thread_id) is None, "released by the run, not left to expire"
    assert setup.another_process_can_take(thread_id)
    assert setup.client.runs.get(thread_id, run_id)["status"] == "interrupted"

    resumed = setup.client.runs.wait(thread_id, "library", input=None, context=context)
    assert "__error__" not in resumed, resumed
    request_id = paused_consistently(setup, thread_id, context["library_db"])
    decision = EDIT_TO_W22 | {"request_id": request_id}
    setup.client.runs.wait(thread_id, "library", command={"resume": decision}, context=context)
    values = state_values(setup.client.threads.get_state(thread_id))
    assert values["status"] == "verified"
    assert [step["index"] for step in values["steps"]] == [1, 2, 3, 4, 5, 6]
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]
    events = [row["event"] for row in audit_log(context["library_db"])]
    assert events == ["proposed", "decision", "executed"]
    assert setup.holder(thread_id) is None


@pytest.mark.parametrize("how", ["cancel", "interrupt"])
def test_a_new_run_on_a_cancelled_runs_thread_proceeds_at_once(
    setup: Setup, how: Literal["cancel", "interrupt"]
) -> None:
    """Studio's cancel-and-run-again, and a new run with multitask_strategy="interrupt": the
    new run waits for the cancelled run's node (still in its model call) to return, not for
    the lease to expire, and never runs beside it. ("rollback": `test_server_rollback.py`.)"""
    context = setup.context(f"rerun-{how}-{setup.backend}", delay_s=2.0)
    thread_id, first = setup.started(context)
    started_at = time.monotonic()
    if how == "cancel":
        setup.client.runs.cancel(thread_id, first)
        run = setup.client.runs.create(thread_id, "library", input=None, context=context)
    else:
        run = setup.client.runs.create(
            thread_id, "library", input=None, context=context, multitask_strategy=how
        )
    joined = setup.client.runs.join(thread_id, run["run_id"])
    assert "__error__" not in joined, joined
    assert time.monotonic() - started_at < LEASE_TTL_S
    assert setup.client.runs.get(thread_id, run["run_id"])["status"] == "success"
    paused_consistently(setup, thread_id, context["library_db"])
    assert setup.holder(thread_id) is None, "the paused run gave the thread up"
