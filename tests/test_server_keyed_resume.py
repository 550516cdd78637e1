"""A decision keyed by interrupt id (`Command(resume={interrupt_id: value})`, Studio's and
the SDK's form) through the server: it answers the interrupt it names; sent late, or
naming an interrupt that is not pending, it is refused in one line and nothing is stored.

It used to be dropped silently: the run "succeeded" and the thread stayed as it was.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import RESERVE_QUESTION as QUESTION
from server_utils import Server, paused_library_thread, state_values

from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server

MODEL = "graph.testing:library_demo_model"
APPROVE = {"decisions": [{"type": "approve"}]}
REJECT = {"decisions": [{"type": "reject", "message": "not today"}]}
UNKNOWN = "0123456789abcdef0123456789abcdef"


@pytest.fixture(scope="module")
def server(
    shared_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Path]]:
    yield shared_server, tmp_path_factory.mktemp("keyed-libraries")


def _paused(server: tuple[Server, Path], name: str) -> tuple[SyncLangGraphClient, Path, str]:
    """A client, a library database and a thread paused for approval on it."""
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    root.mkdir(exist_ok=True)
    library_db = root / f"{name}.sqlite3"
    thread_id, _ = paused_library_thread(client, library_db, QUESTION, MODEL)
    return client, library_db, thread_id


def _interrupt_id(client: SyncLangGraphClient, thread_id: str) -> str:
    (item,) = client.threads.get_state(thread_id)["interrupts"]
    return str(item["id"])


def _refusal(running: Server, thread_id: str, resume: dict[str, Any]) -> str:
    """The error a run with this resume value ends with (its `runs/wait` body)."""
    body = {"assistant_id": "library", "command": {"resume": resume}}
    answer = httpx.post(f"{running.url}/threads/{thread_id}/runs/wait", json=body, timeout=60)
    error = answer.json().get("__error__")
    assert error is not None, answer.text[:300]
    assert error["error"] == "RequestError"
    return str(error["message"])


def _stored(client: SyncLangGraphClient, thread_id: str) -> int:
    return len(client.threads.get_history(thread_id, limit=1000))


def _decisions(library_db: Path, thread_id: str) -> list[dict[str, Any]]:
    rows = audit_log(str(library_db), thread_id)
    return [row["detail"] for row in rows if row["event"] == "decision"]


def test_a_keyed_decision_answers_the_pending_interrupt(server: tuple[Server, Path]) -> None:
    client, library_db, thread_id = _paused(server, "current")
    client.runs.wait(
        thread_id, "library", command={"resume": {_interrupt_id(client, thread_id): APPROVE}}
    )
    state = client.threads.get_state(thread_id)
    assert not state["interrupts"] and state_values(state)["status"] == "verified"
    assert [row["copy_id"] for row in reservations(str(library_db))] == ["E60"]
    assert _decisions(library_db, thread_id) == [{"type": "approve"}]


def test_a_late_keyed_decision_is_refused_in_one_line_and_stores_nothing(
    server: tuple[Server, Path],
) -> None:
    running, (client, library_db, thread_id) = server[0], _paused(server, "late")
    answered = _interrupt_id(client, thread_id)
    client.runs.wait(thread_id, "library", command={"resume": {answered: APPROVE}})
    before = _stored(client, thread_id)
    message = _refusal(running, thread_id, {answered: REJECT})
    assert message == (
        f"interrupt {answered} is not pending on thread {thread_id} (it was already answered"
        " or superseded, or never asked): nothing waits for a decision, and nothing was run"
    )
    assert _stored(client, thread_id) == before
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"
    assert _decisions(library_db, thread_id) == [{"type": "approve"}]
    assert next(run["status"] for run in client.runs.list(thread_id)) == "error"


def test_a_decision_keyed_by_an_unknown_interrupt_is_refused_and_the_request_still_waits(
    server: tuple[Server, Path],
) -> None:
    running, (client, library_db, thread_id) = server[0], _paused(server, "unknown")
    pending, before = _interrupt_id(client, thread_id), _stored(client, thread_id)
    message = _refusal(running, thread_id, {UNKNOWN: REJECT})
    assert message.startswith(f"interrupt {UNKNOWN} is not pending on thread {thread_id}")
    assert f"it waits on interrupt {pending}, and nothing was run" in message
    assert "\n" not in message
    assert _stored(client, thread_id) == before and _interrupt_id(client, thread_id) == pending
    assert _refusal(running, thread_id, {}).startswith("the decision names no interrupt")
    assert _decisions(library_db, thread_id) == []
    client.runs.wait(thread_id, "library", command={"resume": {pending: APPROVE}})
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"
