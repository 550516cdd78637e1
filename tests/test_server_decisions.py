"""Two people answering one approval request through the server: one decision is taken,
the other is refused in one line, and nothing of it runs.

langgraph-api queues a second run on a thread behind the first by default
(`multitask_strategy="enqueue"`), so the second decision reaches the thread after
the first has answered the request and ended the episode.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import RESERVE_QUESTION as QUESTION
from server_utils import Server, paused_library_thread, state_values

from graph.errors import RequestError
from graph.remote import episodes
from graph.remote.episodes import RemoteRun, read_state, resume_episode
from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server

MODEL = "graph.testing:library_demo_model"
REJECT = {"decisions": [{"type": "reject", "message": "not today"}]}
APPROVE = {"decisions": [{"type": "approve"}]}


@pytest.fixture(scope="module")
def server(
    shared_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[SyncLangGraphClient, Path]]:
    client = get_sync_client(url=shared_server.url, api_key=None)
    yield client, tmp_path_factory.mktemp("decisions")


def _paused(client: SyncLangGraphClient, library_db: Path) -> tuple[str, str]:
    return paused_library_thread(client, library_db, QUESTION, MODEL)


def _decisions(library_db: Path, thread_id: str) -> list[dict[str, Any]]:
    rows = audit_log(str(library_db), thread_id)
    return [row["detail"] for row in rows if row["event"] == "decision"]


def test_a_queued_second_decision_is_refused_in_one_line_and_runs_nothing(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    library_db = server[1] / "queued.sqlite3"
    client, (thread_id, request_id) = server[0], _paused(server[0], library_db)
    approve = client.runs.create(
        thread_id, "library", command={"resume": APPROVE | {"request_id": request_id}}
    )
    reject = client.runs.create(
        thread_id, "library", command={"resume": REJECT | {"request_id": request_id}}
    )
    client.runs.join(thread_id, approve["run_id"])
    client.runs.join(thread_id, reject["run_id"])
    assert client.runs.get(thread_id, approve["run_id"])["status"] == "success"
    assert client.runs.get(thread_id, reject["run_id"])["status"] == "error"
    with pytest.raises(Exception, match=f"request {request_id} is not pending") as refused:
        client.runs.wait(
            thread_id, "library", command={"resume": REJECT | {"request_id": request_id}}
        )
    assert "nothing was run" in str(refused.value) and "\n" not in str(refused.value)
    assert [row["copy_id"] for row in reservations(str(library_db))] == ["E60"]
    assert _decisions(library_db, thread_id) == [{"type": "approve"}]
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"


def test_a_cli_decision_read_before_another_was_taken_is_refused_not_printed_as_done(
    server: tuple[SyncLangGraphClient, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`resume --server` read the pending request, then another client answered it and
    the episode ended before this run started: the CLI says so (exit 2), not the answer."""
    client, library_db = server[0], server[1] / "cli.sqlite3"
    thread_id, request_id = _paused(client, library_db)
    read_before = read_state(client, thread_id)
    client.runs.wait(thread_id, "library", command={"resume": APPROVE | {"request_id": request_id}})
    reads = iter([read_before])
    monkeypatch.setattr(episodes, "read_state", lambda c, t: next(reads, None) or read_state(c, t))
    with pytest.raises(RequestError, match=f"request {request_id} .* already answered"):
        resume_episode(client, thread_id, REJECT, RemoteRun(actor="cli:test"))
    assert [row["copy_id"] for row in reservations(str(library_db))] == ["E60"]
    assert _decisions(library_db, thread_id) == [{"type": "approve"}]


def test_a_late_cli_edit_through_the_server_says_the_request_was_answered(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    client, library_db = server[0], server[1] / "late-edit.sqlite3"
    thread_id, request_id = _paused(client, library_db)
    client.runs.wait(thread_id, "library", command={"resume": APPROVE | {"request_id": request_id}})
    url = str(client.http.client.base_url).rstrip("/")
    late = run_cli("resume", thread_id, "--server", url, "--edit", '{"copy_id": "W60"}')
    assert late.returncode == 2
    assert late.stderr == (
        "react-agent: this episode is not waiting for an approval decision (its last "
        f"request, {request_id}, was already answered: approve at step 3)\n"
    )
    assert _decisions(library_db, thread_id) == [{"type": "approve"}]


def test_a_decision_naming_no_request_is_refused_when_nothing_waits(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    """A decision without `request_id` (Studio's, an Agent Inbox's) queued behind an
    approval, or sent after the episode ended, "succeeded" showing the approval's
    outcome, the rejection silently dropped."""
    library_db = server[1] / "unnamed.sqlite3"
    client, (thread_id, _) = server[0], _paused(server[0], library_db)
    approve = client.runs.create(thread_id, "library", command={"resume": APPROVE})
    reject = client.runs.create(thread_id, "library", command={"resume": REJECT})
    client.runs.join(thread_id, approve["run_id"])
    client.runs.join(thread_id, reject["run_id"])
    assert client.runs.get(thread_id, approve["run_id"])["status"] == "success"
    assert client.runs.get(thread_id, reject["run_id"])["status"] == "error"
    with pytest.raises(Exception, match=f"nothing waits for a decision on thread {thread_id}"):
        client.runs.wait(thread_id, "library", command={"resume": REJECT})
    assert [row["copy_id"] for row in reservations(str(library_db))] == ["E60"]
    assert _decisions(library_db, thread_id) == [{"type": "approve"}]
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"
