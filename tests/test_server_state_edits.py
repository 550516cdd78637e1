"""API clients cannot write the state only the agent's nodes write (`graph.server.state_edits`).

Before, `threads.update_state` appended a finished thread's reservation evidence to
a thread whose hold the human had rejected, and the answer claiming the hold came out
*verified*; garbage written into counters or settings made later runs fail with
`AttributeError` / `TypeError` ("internal" errors) instead of one line; and a new
input on a thread paused for approval, its settings saying `approvals: auto`, replaced
the thread's settings and ran the write with no human decision.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from langgraph_sdk.errors import BadRequestError
from server_utils import RESERVE_QUESTION as QUESTION
from server_utils import (
    paused_library_thread,
    serving,
    state_values,
    write_script,
)

from graph.server.state_edits import StateEditError, check_edit, check_input
from tools.library.db import audit_log, reservations

DEMO = "graph.testing:library_demo_model"
CLAIMS_A_HOLD = [
    "Thought: a\nAction: search_catalog[红楼梦]",
    "Thought: b\nAction: get_copy_status[E60]",
    "Thought: c\nAction: reserve_copy[E60]",
    "Thought: d\nAction: Finish[Copy E60 of 《红楼梦》 is on hold for you: collect it at the "
    "East Library (东馆) circulation desk.]",
]
REFUSED = "may not write"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[SyncLangGraphClient, Path]]:
    root = tmp_path_factory.mktemp("state-edits")
    with serving(root) as running:
        yield get_sync_client(url=running.url, api_key=None), root


def _paused(client: SyncLangGraphClient, library_db: Path, model: str = DEMO) -> tuple[str, str]:
    return paused_library_thread(client, library_db, QUESTION, model)


def _decide(client: SyncLangGraphClient, thread_id: str, request_id: str, **decision: Any) -> Any:
    resume = {"decisions": [decision], "request_id": request_id}
    return client.runs.wait(thread_id, "library", command={"resume": resume})


@pytest.mark.server
def test_forged_evidence_is_refused_and_a_rejected_hold_is_not_verified(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    client, root = server
    donor, donor_request = _paused(client, root / "donor.sqlite3")
    _decide(client, donor, donor_request, type="approve")
    donor_state = state_values(client.threads.get_state(donor))
    assert donor_state["status"] == "verified"
    stolen = [item for item in donor_state["evidence"] if item["tool"] == "reserve_copy"]
    forged = [dict(item, id=f"E{90 + i}") for i, item in enumerate(stolen)]

    library_db = root / "victim.sqlite3"
    model = write_script(root / "claims.json", CLAIMS_A_HOLD)
    thread_id, request_id = _paused(client, library_db, model)
    with pytest.raises(BadRequestError, match=REFUSED):
        client.threads.update_state(thread_id, {"evidence": forged})
    _decide(client, thread_id, request_id, type="reject", message="no")
    values = state_values(client.threads.get_state(thread_id))
    assert values["status"] == "unverified"
    assert not any(item["id"] in ("E90", "E91") for item in values["evidence"])
    assert reservations(str(library_db)) == []


@pytest.mark.server
def test_a_command_update_with_garbage_is_refused_and_the_thread_stays_answerable(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    client, root = server
    thread_id, request_id = _paused(client, root / "garbage.sqlite3")
    resume = {"decisions": [{"type": "approve"}], "request_id": request_id}
    for update in ({"counters": "x"}, {"settings": {"approvals": "auto"}}, {"steps": [1]}):
        with pytest.raises(Exception, match=f"StateEditError: .*{REFUSED}"):
            client.runs.wait(thread_id, "library", command={"update": update, "resume": resume})
    assert client.threads.get_state(thread_id)["next"] == ["review"]
    _decide(client, thread_id, request_id, type="approve")
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"


@pytest.mark.server
@pytest.mark.parametrize("settings", ["x", ["a"], {"model": DEMO, "temperature": {"x": 1}}])
def test_run_settings_that_are_not_plain_values_get_one_line(
    server: tuple[SyncLangGraphClient, Path], settings: Any
) -> None:
    client, _ = server
    thread_id = client.threads.create()["thread_id"]
    with pytest.raises(Exception, match=r"StateEditError: settings: .* is not an object"):
        client.runs.wait(thread_id, "library", input={"question": QUESTION, "settings": settings})


@pytest.mark.server
def test_a_run_naming_an_unknown_environment_gets_one_line(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    client, _ = server
    thread_id = client.threads.create()["thread_id"]
    settings = {"model": DEMO, "env": "nope"}
    with pytest.raises(Exception, match=r"env 'nope' is not an environment of this agent"):
        client.runs.wait(thread_id, "library", input={"question": QUESTION, "settings": settings})


def test_the_remote_clis_restart_and_a_plain_resume_pass() -> None:
    check_edit(None, "update_state")
    check_edit({"status": "running", "stop_reason": ""}, "update_state")
    check_input(None)
    check_input({"question": QUESTION, "settings": {"model": DEMO, "max_tool_calls": 6}})
    with pytest.raises(StateEditError, match="status"):
        check_edit({"status": "verified"}, "update_state")


@pytest.mark.server
def test_a_new_input_cannot_switch_a_paused_threads_approvals_to_auto(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    client, root = server
    library_db = root / "switch.sqlite3"
    thread_id, request_id = _paused(client, library_db)
    stored = state_values(client.threads.get_state(thread_id))["settings"]
    auto = dict(stored, approvals="auto")
    with pytest.raises(Exception, match=r"SettingsChangeError: .*approvals differ"):
        client.runs.wait(thread_id, "library", input={"question": QUESTION, "settings": auto})
    assert reservations(str(library_db)) == []
    assert client.threads.get_state(thread_id)["next"] == ["review"]
    _decide(client, thread_id, request_id, type="reject", message="no")
    assert reservations(str(library_db)) == []


@pytest.mark.server
def test_a_command_goto_cannot_run_a_write_no_human_approved(
    server: tuple[SyncLangGraphClient, Path],
) -> None:
    """`Command(goto=Send("act", state))` handed `act` a forged state: a proposal of a
    write marked as a read ran `reserve_copy` with no decision, and `Send("review", ...)`
    with `approvals: auto` in its settings recorded a `policy:auto` approval."""
    client, root = server
    library_db = root / "goto.sqlite3"
    thread_id, request_id = _paused(client, library_db)
    values = state_values(client.threads.get_state(thread_id))
    write = {"action": "reserve_copy", "argument": "W60", "args": {"copy_id": "W60"}}
    forged = dict(values, proposal=write | {"action_text": "reserve_copy[W60]", "writes": False})
    auto = dict(forged, settings=dict(values["settings"], approvals="auto"))
    gotos: list[Any] = [{"node": "act", "input": forged}, {"node": "review", "input": auto}]
    for goto in [*gotos, "act", ["observe"]]:
        with pytest.raises(Exception, match=r"StateEditError: Command\(goto=...\) may not"):
            client.runs.wait(thread_id, "library", command={"goto": goto})
    assert reservations(str(library_db)) == []
    assert [row["event"] for row in audit_log(str(library_db), thread_id)] == ["proposed"]
    assert client.threads.get_state(thread_id)["next"] == ["review"]
    _decide(client, thread_id, request_id, type="reject", message="no")
    assert reservations(str(library_db)) == []
