"""`threads.copy` through the server makes a new thread of its own.

A copy used to have no row in the thread registry (so a registry-only listing,
PostgreSQL's, left it out) and its pending approval showed the original's request
id, which the copy refused as another thread's request, asking again under a new id.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import RESERVE_QUESTION as QUESTION
from server_utils import Server, paused_library_thread, state_values

from tools.library.db import reservations

pytestmark = pytest.mark.server

MODEL = "graph.testing:library_demo_model"


@pytest.fixture(scope="module")
def server(
    shared_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Path]]:
    yield shared_server, tmp_path_factory.mktemp("copies")


def _registry_row(db: Path, thread_id: str) -> tuple[str, str, str] | None:
    with sqlite3.connect(db) as conn:
        row = conn.execute(
            "SELECT env, question, status FROM threads WHERE thread_id = ?", (thread_id,)
        ).fetchone()
    return (str(row[0]), str(row[1]), str(row[2])) if row else None


def _copy(client: SyncLangGraphClient, thread_id: str) -> str:
    """Copy a thread; the new thread's id (the SDK types `copy` as returning None)."""
    threads: Any = client.threads
    return str(threads.copy(thread_id)["thread_id"])


def _pending_request(client: SyncLangGraphClient, thread_id: str) -> str:
    (item,) = client.threads.get_state(thread_id)["interrupts"]
    assert isinstance(item["value"], dict)
    return str(item["value"]["request_id"])


def _approve(client: SyncLangGraphClient, thread_id: str, request_id: str) -> None:
    decision = {"decisions": [{"type": "approve"}], "request_id": request_id}
    client.runs.wait(thread_id, "library", command={"resume": decision})


def test_a_copied_paused_thread_is_listed_and_its_shown_request_is_decidable(
    server: tuple[Server, Path],
) -> None:
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    library_db = root / "paused.sqlite3"
    source, source_request = paused_library_thread(client, library_db, QUESTION, MODEL)
    copy, db = _copy(client, source), Path(running.db)
    assert _registry_row(db, copy) == ("library", QUESTION, "awaiting_approval")
    shown = _pending_request(client, copy)
    assert shown != source_request  # a request of its own, shown the same everywhere
    assert f"request {shown}" in run_cli("show", copy, "--db", str(db)).stdout
    _approve(client, copy, shown)
    state = client.threads.get_state(copy)
    assert not state["interrupts"], state["interrupts"]
    assert state_values(state)["status"] == "verified"
    assert [row["copy_id"] for row in reservations(str(library_db))] == ["E60"]
    assert _pending_request(client, source) == source_request  # the original still waits
    assert _registry_row(db, copy) == ("library", QUESTION, "verified")


def test_a_thread_copied_after_its_approval_is_the_same_episode(
    server: tuple[Server, Path],
) -> None:
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    source, request = paused_library_thread(client, root / "approved.sqlite3", QUESTION, MODEL)
    _approve(client, source, request)
    copy = _copy(client, source)
    original, copied = (state_values(client.threads.get_state(t)) for t in (source, copy))
    assert copied["status"] == original["status"] == "verified"
    assert copied["steps"] == original["steps"]
    assert len(client.threads.get_history(copy, limit=100)) == len(
        client.threads.get_history(source, limit=100)
    )
    assert _registry_row(Path(running.db), copy) == ("library", QUESTION, "verified")


def test_a_copied_refusal_names_the_copy_and_its_request(server: tuple[Server, Path]) -> None:
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    source, source_request = paused_library_thread(
        client, root / "refused.sqlite3", QUESTION, MODEL
    )
    stale = {"decisions": [{"type": "approve"}], "request_id": "R000000000000"}
    client.runs.wait(source, "library", command={"resume": stale})
    (asked,) = client.threads.get_state(source)["interrupts"]
    assert isinstance(asked["value"], dict)
    assert f"thread {source} waits on request {source_request}" in asked["value"]["error"]

    copy = _copy(client, source)
    (item,) = client.threads.get_state(copy)["interrupts"]
    assert isinstance(item["value"], dict)
    shown, error = str(item["value"]["request_id"]), str(item["value"]["error"])
    assert error.startswith("Refused decision: this decision answers request R000000000000")
    assert f"thread {copy} waits on request {shown}" in error, error
    assert source not in error and source_request not in error
    _approve(client, copy, shown)  # the copied refused decision is refused again first
    assert state_values(client.threads.get_state(copy))["status"] == "verified"
    assert _pending_request(client, source) == source_request


def test_a_copy_s_audit_shows_the_decisions_it_inherited_and_where_they_are(
    server: tuple[Server, Path],
) -> None:
    """A copy's audit log used to say "the episode proposed no write action" until its
    own `review` ran: now it shows the original's rows of the requests it copied, marked
    as inherited, and a paused copy says whose log holds them."""
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    source, request = paused_library_thread(client, root / "audited.sqlite3", QUESTION, MODEL)
    paused_copy = _copy(client, source)
    _approve(client, source, request)
    copy, db = _copy(client, source), str(running.db)
    audit = run_cli("audit", copy, "--db", db, "--json")
    assert audit.returncode == 0, audit.stderr
    rows = json.loads(audit.stdout)
    assert [(r["event"], r["request_id"], r["inherited_from"]) for r in rows] == [
        ("proposed", request, source),
        ("decision", request, source),
        ("executed", request, source),
    ]
    text = run_cli("audit", copy, "--db", db).stdout
    assert f"Inherited from thread {source} ({copy} is a copy of it" in text
    assert "proposed no write action" not in text and text.count(request) == 3
    waiting = run_cli("audit", paused_copy, "--db", db)
    assert waiting.returncode == 0, waiting.stderr
    assert f"this thread is a copy of {source}" in waiting.stdout
    assert "proposed no write action" not in waiting.stdout
    original = json.loads(run_cli("audit", source, "--db", db, "--json").stdout)
    assert [r["event"] for r in original] == ["proposed", "decision", "executed"]
    assert not any("inherited_from" in r for r in original)


def test_a_copy_replaying_its_original_s_approved_write_runs_nothing_and_says_why(
    server: tuple[Server, Path],
) -> None:
    """A fork of a copy from before its copied write replays the original's approved
    request: it is not run (the reservation was the original's, made once), and the
    observation names the thread that decided it instead of saying none was recorded."""
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    library_db = root / "replayed.sqlite3"
    source, request = paused_library_thread(client, library_db, QUESTION, MODEL)
    _approve(client, source, request)
    copy, db = _copy(client, source), str(running.db)
    rows = json.loads(run_cli("history", copy, "--db", db, "--json").stdout)
    (before_act,) = [
        r for r in rows if r["next"] == ["act"] and r["summary"].startswith("Action 3")
    ]
    forked = run_cli("resume", copy, "--db", db, "--from", before_act["checkpoint_id"], "--json")
    assert forked.returncode == 5, forked.stderr
    step = json.loads(forked.stdout)["trajectory"][2]
    assert step["request_id"] == request
    assert step["observation"] == (
        f"reserve_copy[E60] was not run: request {request} was decided (approve) on thread "
        f"{source}, which this thread was copied from, not on this one; a decision carries "
        f"out its own thread's write only (see `react-agent audit {source}`)."
    )
    assert [r["copy_id"] for r in reservations(str(library_db))] == ["E60"]
