"""The agents behind `langgraph dev`, driven with `langgraph-sdk` as Studio drives them.

One server per module (CI has two cores). It keeps its checkpoints in the
SQLite file named by `REACT_AGENT_DB` (`langgraph.json`'s checkpointer), and
the tests open the same file with the CLI's runner to check what is shared.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from langgraph_sdk.errors import NotFoundError
from server_utils import (
    EDIT_TO_W22,
    LIBRARY_QUESTION,
    LIBRARY_SCRIPT,
    Server,
    start_server,
    state_values,
    stop_server,
    write_script,
)

from graph.agent import build_agent
from graph.episodes.history import checkpoint_rows
from graph.episodes.resuming import resume_episode
from graph.episodes.runner import (
    Agent,
    episode_result,
    list_threads,
    make_context,
    open_checkpointer,
)
from graph.episodes.starting import run_episode
from graph.settings.context import Context, EnvName, LibraryContext, McpContext, WikipediaContext
from graph.settings.validation import MAX_QUESTION_CHARS, SettingsError, validate_run
from graph.testing import DEMO_QUESTION, DEMO_REPLIES
from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server


@dataclass
class Setup:
    """The running server, its client and the files both sides use (`db`: the checkpoints)."""

    server: Server
    client: SyncLangGraphClient
    root: Path
    db: Path
    wiki_model: str
    library_model: str

    def library_context(self, name: str) -> dict[str, Any]:
        """Run settings for a library episode with its own library database."""
        return {"model": self.library_model, "library_db": str(self.root / f"{name}.sqlite3")}


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("server")
    db = root / "episodes.sqlite3"
    server = start_server(root, db)
    try:
        yield Setup(
            server,
            get_sync_client(url=server.url, api_key=None),
            root,
            db,
            write_script(root / "wiki.json", DEMO_REPLIES),
            write_script(root / "library.json", LIBRARY_SCRIPT),
        )
    finally:
        stop_server(server)


@contextmanager
def cli_saver(db: Path) -> Iterator[SqliteSaver]:
    """The CLI's checkpointer on the server's checkpoint file."""
    saver = open_checkpointer(db)
    try:
        yield saver
    finally:
        saver.conn.close()


@contextmanager
def cli_agent(db: Path, env_name: EnvName) -> Iterator[Agent]:
    """The agent as the CLI builds it, on the server's checkpoint file."""
    with cli_saver(db) as saver:
        yield build_agent(env_name, saver)


def _assistant(client: SyncLangGraphClient, graph_id: str) -> str:
    found = client.assistants.search(graph_id=graph_id)
    assert len(found) == 1, found
    return str(found[0]["assistant_id"])


def _interrupt_values(state: Any) -> list[Any]:
    return [item["value"] for item in state["interrupts"]]


def test_server_starts_with_our_checkpointer(setup: Setup) -> None:
    log = setup.server.log_tail(400)
    assert "Using custom checkpointer: CompactAsyncSqliteSaver" in log
    assert "missing adelete_for_runs" not in log
    assert setup.db.exists()


@pytest.mark.parametrize(
    ("graph_id", "context_type"),
    [("wikipedia", WikipediaContext), ("library", LibraryContext), ("mcp", McpContext)],
)
def test_assistants_show_every_setting_with_its_description(
    setup: Setup, graph_id: str, context_type: type[Context]
) -> None:
    schemas = setup.client.assistants.get_schemas(_assistant(setup.client, graph_id))
    assert schemas["context_schema"] is not None
    properties = schemas["context_schema"]["properties"]
    assert list(properties) == [f.name for f in fields(context_type)]
    for item in fields(context_type):
        assert properties[item.name]["description"] == item.metadata["description"]


@pytest.mark.parametrize("graph_id", ["wikipedia", "library", "mcp"])
def test_assistants_show_the_question_as_input_and_the_state(setup: Setup, graph_id: str) -> None:
    schemas = setup.client.assistants.get_schemas(_assistant(setup.client, graph_id))
    inputs, outputs = schemas["input_schema"], schemas["output_schema"]
    assert inputs is not None and outputs is not None, "the server log says why"
    assert inputs["required"] == ["question"]
    assert {"steps", "evidence", "status", "answer", "verdict"} <= set(outputs["properties"])


def test_wikipedia_run_streams_steps_and_ends_verified(setup: Setup) -> None:
    client = setup.client
    thread_id = client.threads.create()["thread_id"]
    parts = list(
        client.runs.stream(
            thread_id,
            "wikipedia",
            input={"question": DEMO_QUESTION},
            context={"model": setup.wiki_model},
            stream_mode=["updates", "custom"],
        )
    )
    custom = [part.data for part in parts if part.event == "custom"]
    updated = [next(iter(part.data)) for part in parts if part.event == "updates"]
    actions = [
        "Search[The Prestige (film)]",
        "Lookup[directed]",
        "Search[Christopher Nolan]",
        "Finish[1970]",
    ]
    assert [
        (e["event"], e.get("action") or e.get("step", {}).get("action_text")) for e in custom
    ] == [(event, a) for a in actions for event in ("proposal", "step")]
    assert updated == ["reason", "act", "observe"] * 3 + ["reason", "verify"]
    values = state_values(client.threads.get_state(thread_id))
    assert (values["status"], values["answer"]) == ("verified", "1970")
    evidence = {item["id"]: item for item in values["evidence"]}
    supporting = [evidence[i]["text"] for i in values["verdict"]["evidence_ids"]]
    assert any("30 July 1970" in text for text in supporting)
    with cli_agent(setup.db, "wikipedia") as agent:
        result = episode_result(agent, thread_id)
    assert (result["status"], result["answer"], result["steps"]) == ("verified", "1970", 4)


def test_history_through_the_server_is_the_sqlite_history(setup: Setup) -> None:
    client = setup.client
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(
        thread_id,
        "wikipedia",
        input={"question": DEMO_QUESTION},
        context={"model": setup.wiki_model},
    )
    history = client.threads.get_history(thread_id, limit=100)
    with cli_agent(setup.db, "wikipedia") as agent:
        rows = checkpoint_rows(agent, thread_id)
    assert [h["checkpoint"]["checkpoint_id"] for h in reversed(history)] == [
        row["checkpoint_id"] for row in rows
    ]
    steps_seen = [len(state_values(h).get("steps") or []) for h in reversed(history)]
    assert steps_seen == sorted(steps_seen) and steps_seen[-1] == 4
    assert [s["index"] for s in state_values(history[0])["steps"]] == [1, 2, 3, 4]


def test_library_pauses_for_approval_and_resumes_with_an_edit(setup: Setup) -> None:
    client = setup.client
    context = setup.library_context("edit")
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context)
    state = client.threads.get_state(thread_id)
    assert state["next"] == ["review"]
    (payload,) = _interrupt_values(state)
    (request,) = payload["action_requests"]
    assert (request["name"], request["args"]) == ("reserve_copy", {"copy_id": "E17"})
    assert payload["review_configs"] == [
        {"action_name": "reserve_copy", "allowed_decisions": ["approve", "edit", "reject"]}
    ]
    assert reservations(context["library_db"]) == []

    client.runs.wait(thread_id, "library", command={"resume": EDIT_TO_W22}, context=context)
    values = state_values(client.threads.get_state(thread_id))
    reserve = values["steps"][2]
    assert reserve["observation"].startswith("Reserved: copy W22 is now ON HOLD")
    assert reserve["decision"] == EDIT_TO_W22["decisions"][0]
    assert values["status"] == "verified"
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]
    events = [row["event"] for row in audit_log(context["library_db"])]
    assert events == ["proposed", "decision", "executed"]


def test_episode_paused_from_the_cli_resumes_through_the_server(setup: Setup) -> None:
    client = setup.client
    context = setup.library_context("cli")
    with cli_agent(setup.db, "library") as agent:
        paused = run_episode(agent, LIBRARY_QUESTION, make_context("library", context))
    thread_id = paused["thread_id"]
    assert paused["status"] == "awaiting_approval"

    with pytest.raises(NotFoundError):
        client.threads.get(thread_id)
    client.threads.create(thread_id=thread_id, graph_id="library", if_exists="do_nothing")
    state = client.threads.get_state(thread_id)
    assert _interrupt_values(state) == [paused["pending"][0]["value"]]
    assert len(state_values(state)["steps"]) == 2

    client.runs.wait(
        thread_id,
        "library",
        command={"resume": {"decisions": [{"type": "approve"}]}},
        context=context,
    )
    with cli_agent(setup.db, "library") as agent:
        done = episode_result(agent, thread_id)
    assert done["trajectory"][2]["decision"] == {"type": "approve"}
    assert done["trajectory"][2]["observation"].startswith("Not reserved: copy E17")
    assert (done["status"], done["steps"]) == ("verified", 6)
    assert reservations(context["library_db"]) == []


def test_episode_paused_in_the_server_resumes_from_the_cli(setup: Setup) -> None:
    client = setup.client
    context = setup.library_context("server")
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context)
    with cli_saver(setup.db) as saver:
        assert thread_id in list(list_threads(saver))
    with cli_agent(setup.db, "library") as agent:
        assert episode_result(agent, thread_id)["status"] == "awaiting_approval"
        done = resume_episode(
            agent, thread_id, make_context("library", context), decision=EDIT_TO_W22
        )
    assert (done["status"], done["steps"]) == ("verified", 6)
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"
    assert client.threads.get(thread_id)["status"] == "interrupted"
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]


BAD_RUNS = [
    ("library", LIBRARY_QUESTION, {"now": "yesterday"}),
    ("library", LIBRARY_QUESTION, {"deadline": "noon"}),
    ("library", LIBRARY_QUESTION, {"origin": "Mars"}),
    ("library", LIBRARY_QUESTION, {"faults": "get_copy_status:W22"}),
    ("wikipedia", DEMO_QUESTION, {"max_model_turns": 0}),
    ("wikipedia", DEMO_QUESTION, {"temperature": "hot"}),
    ("wikipedia", "   ", {}),
    ("wikipedia", "x" * (MAX_QUESTION_CHARS + 1), {}),
]


@pytest.mark.parametrize(("graph_id", "question", "context"), BAD_RUNS)
def test_a_run_with_bad_settings_gets_the_validation_message_back(
    setup: Setup, graph_id: EnvName, question: str, context: dict[str, Any]
) -> None:
    settings = {"model": setup.wiki_model} | context
    with pytest.raises(SettingsError) as expected:
        validate_run(question, make_context(graph_id, settings), naming="setting")
    thread_id = setup.client.threads.create()["thread_id"]
    response = setup.client.runs.wait(
        thread_id, graph_id, input={"question": question}, context=settings, raise_error=False
    )
    assert isinstance(response, dict)
    assert response["__error__"] == {"error": "SettingsError", "message": str(expected.value)}
    assert not state_values(setup.client.threads.get_state(thread_id)).get("steps")


def test_a_run_with_no_model_key_gets_the_missing_key_message_back(setup: Setup) -> None:
    thread_id = setup.client.threads.create()["thread_id"]
    response = setup.client.runs.wait(
        thread_id,
        "wikipedia",
        input={"question": DEMO_QUESTION},
        context={"model": "groq:qwen/qwen3.6-27b"},
        raise_error=False,
    )
    assert isinstance(response, dict)
    error = response["__error__"]
    assert error["error"] == "ModelConfigError"
    assert error["message"].startswith("No API key for the model provider 'groq': set GROQ_API_KEY")
    assert "scripted:FILE" in error["message"]


# The thread lease and approval requests through the server: its runs and the CLI's
# commands take part in the same lease, and a decision answers only its own request.

LOST_RACE = "is being run by another process since"
APPROVE = {"decisions": [{"type": "approve"}]}


def _paused(setup: Setup, context: dict[str, Any]) -> tuple[str, str]:
    """A library thread paused for approval by a server run; its id and request id."""
    thread_id = setup.client.threads.create()["thread_id"]
    setup.client.runs.wait(
        thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
    )
    (payload,) = _interrupt_values(setup.client.threads.get_state(thread_id))
    return thread_id, str(payload["request_id"])


def test_a_server_run_on_a_thread_another_process_drives_is_refused(setup: Setup) -> None:
    from graph.store.leases import SqliteThreadLease

    context = setup.library_context("held")
    thread_id, _ = _paused(setup, context)
    lease = SqliteThreadLease(setup.db)
    lease.acquire(thread_id, "cli:test")
    try:
        response = setup.client.runs.wait(
            thread_id, "library", command={"resume": EDIT_TO_W22}, context=context,
            raise_error=False,
        )  # fmt: skip
    finally:
        lease.release(thread_id, "cli:test")
    assert isinstance(response, dict)
    assert response["__error__"]["error"] == "LeaseHeldError"
    assert response["__error__"]["message"].startswith(f"thread {thread_id} {LOST_RACE}")
    assert reservations(context["library_db"]) == []
    setup.client.runs.wait(thread_id, "library", command={"resume": EDIT_TO_W22}, context=context)
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]
    decision = [row for row in audit_log(context["library_db"]) if row["event"] == "decision"]
    assert [row["actor"] for row in decision] == ["api"]


def test_the_cli_cannot_drive_a_thread_while_a_server_run_does(setup: Setup) -> None:
    from cli_utils import run_cli

    from graph.store.leases import SqliteThreadLease

    slow = setup.root / "slow-library.json"
    slow.write_text(json.dumps({"responses": LIBRARY_SCRIPT, "delay_s": 3.0}, ensure_ascii=False))
    context = {"model": f"scripted:{slow}", "library_db": str(setup.root / "busy.sqlite3")}
    thread_id = setup.client.threads.create()["thread_id"]
    run = setup.client.runs.create(
        thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
    )
    lease = SqliteThreadLease(setup.db)
    deadline = time.monotonic() + 60
    while lease.holder(thread_id) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    busy = run_cli("resume", thread_id, "--db", str(setup.db))
    assert busy.returncode == 2 and LOST_RACE in busy.stderr, busy.stderr
    setup.client.runs.join(thread_id, run["run_id"])
    assert lease.holder(thread_id) is None, "a run that pauses for approval gives the lease up"
    done = run_cli("resume", thread_id, "--db", str(setup.db), "--edit", '{"copy_id": "W22"}')
    assert done.returncode == 0, done.stderr
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]
    actors = [(row["event"], row["actor"]) for row in audit_log(context["library_db"])]
    assert actors[0] == ("proposed", "agent") and actors[1][1].startswith("cli:")


def test_an_api_decision_for_another_request_is_refused_and_settings_stay_the_threads(
    setup: Setup,
) -> None:
    context = setup.library_context("stale")
    thread_id, request_id = _paused(setup, context)
    stale = EDIT_TO_W22 | {"request_id": "R000000000000"}
    setup.client.runs.wait(thread_id, "library", command={"resume": stale}, context=context)
    state = setup.client.threads.get_state(thread_id)
    (payload,) = _interrupt_values(state)
    assert payload["request_id"] == request_id
    assert "R000000000000 was already answered or superseded" in payload["error"]
    assert reservations(context["library_db"]) == []
    elsewhere = context | {"library_db": str(setup.root / "elsewhere.sqlite3")}
    answer = EDIT_TO_W22 | {"request_id": request_id}
    setup.client.runs.wait(thread_id, "library", command={"resume": answer}, context=elsewhere)
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]
    assert reservations(elsewhere["library_db"]) == []
    assert state_values(setup.client.threads.get_state(thread_id))["status"] == "verified"
