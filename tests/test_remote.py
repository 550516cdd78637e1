"""`ask|resume|show --server` and `bench qa --server` against a real `langgraph dev`.

One server for the module (CI has two cores); the CLI runs in its own
processes (`run_cli`), as a user's would, and talks to the server only
through its API. The library database is a file both sides can read, so the
tests check what the approval did.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import Server, free_port, start_server, stop_server

from graph.evaluation.config import BenchConfig
from graph.evaluation.qa_bench import run_qa_bench
from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server

RESERVE_QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
LIBRARY_MODEL = "graph.testing:library_demo_model"
ORACLE = "graph.evaluation.oracles:hotpot_oracle_model"
DEMO_MODEL = "graph.testing:demo_model"
REQUEST = re.compile(r"--request (R[0-9a-f]+)")


@dataclass
class Setup:
    """The running server and its client."""

    server: Server
    client: SyncLangGraphClient
    root: Path


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("remote")
    server = start_server(root, root / "episodes.sqlite3")
    try:
        yield Setup(server, get_sync_client(url=server.url, api_key=None), root)
    finally:
        stop_server(server)


def _ask_library(setup: Setup, library_db: Path) -> tuple[str, str]:
    """Start the reservation episode through the server; returns (thread id, request id)."""
    asked = run_cli(
        "ask",
        RESERVE_QUESTION,
        "--env",
        "library",
        "--model",
        LIBRARY_MODEL,
        "--library-db",
        str(library_db),
        "--server",
        setup.server.url,
    )
    assert asked.returncode == 5, asked.stderr
    assert "Action 3: " not in asked.stdout  # paused before the write's step ended
    (request_id,) = REQUEST.findall(asked.stdout)
    thread_id = asked.stdout.strip().splitlines()[-1].removeprefix("Thread: ")
    hint = f"react-agent resume {thread_id} --server {setup.server.url} --request {request_id}"
    assert f"Resume with: {hint} --approve" in asked.stdout
    return thread_id, request_id


def test_an_episode_started_from_the_cli_is_listed_paused_and_approved_through_the_server(
    setup: Setup,
) -> None:
    library_db = setup.root / "approve.sqlite3"
    thread_id, request_id = _ask_library(setup, library_db)
    listed = setup.client.threads.search(metadata={"question": RESERVE_QUESTION})
    assert [thread["thread_id"] for thread in listed] == [thread_id]
    assert listed[0]["status"] == "interrupted"
    assert reservations(library_db) == []

    server = ("--server", setup.server.url)
    stale = run_cli("resume", thread_id, *server, "--request", "R000000000000", "--approve")
    assert stale.returncode == 2
    assert stale.stderr.count("\n") == 1 and "was superseded" in stale.stderr
    approved = run_cli("resume", thread_id, *server, "--request", request_id, "--approve")
    assert approved.returncode == 0, approved.stderr
    assert "Answer (verified): Copy E60" in approved.stdout
    again = run_cli("resume", thread_id, *server, "--request", request_id, "--approve")
    assert again.returncode == 2
    assert f"request {request_id} of thread {thread_id} was already answered" in again.stderr

    assert [row["copy_id"] for row in reservations(library_db)] == ["E60"]
    rows = audit_log(library_db, thread_id)
    assert [row["event"] for row in rows] == ["proposed", "decision", "executed"]
    assert {row["request_id"] for row in rows} == {request_id}
    assert rows[1]["actor"].startswith("cli:") and rows[1]["detail"] == {"type": "approve"}
    other = run_cli("show", thread_id, *server, "--env", "wikipedia")
    assert (other.returncode, other.stdout) == (2, "")
    assert other.stderr == f"react-agent: thread {thread_id} is a library episode, not wikipedia\n"
    shown = run_cli("show", thread_id, *server, "--json", "--env", "library")
    assert shown.returncode == 0, shown.stderr
    result = json.loads(shown.stdout)
    assert (result["status"], result["trajectory"][2]["decision"]) == (
        "verified",
        {"type": "approve"},
    )


def test_a_rejection_through_the_server_never_runs_the_write(setup: Setup) -> None:
    library_db = setup.root / "reject.sqlite3"
    thread_id, request_id = _ask_library(setup, library_db)
    rejected = run_cli(
        "resume", thread_id, "--server", setup.server.url, "--reject", "I will fetch it myself"
    )
    assert rejected.returncode == 0, rejected.stderr
    assert "A human rejected reserve_copy[E60]: I will fetch it myself" in rejected.stdout
    assert reservations(library_db) == []
    events = [(row["event"], row["request_id"]) for row in audit_log(library_db, thread_id)]
    assert events == [("proposed", request_id), ("decision", request_id)]


def test_an_unreachable_server_and_local_only_flags_are_one_line() -> None:
    url = f"http://127.0.0.1:{free_port()}"
    asked = run_cli("ask", "Who?", "--model", ORACLE, "--server", url)
    assert asked.returncode == 2
    assert asked.stderr.startswith(f"react-agent: cannot reach the LangGraph server at {url} (")
    assert asked.stderr.count("\n") == 1 and asked.stderr.endswith("is it running?\n")
    forked = run_cli("resume", "x", "--server", url, "--from", "c1")
    assert (forked.returncode, forked.stderr.count("\n")) == (2, 1)
    assert "--from works on a local database" in forked.stderr


@pytest.mark.parametrize("url", ["http://[::1", "http://:2024", "http://127.0.0.1:99999"])
def test_a_server_url_that_cannot_be_one_is_refused_before_any_request(url: str) -> None:
    shown = run_cli("show", "x", "--server", url)
    assert (shown.returncode, shown.stderr.count("\n")) == (2, 1), shown.stderr
    assert f"--server {url!r} is not a server URL" in shown.stderr


def _verdicts(out: Path) -> dict[str, tuple[str, str]]:
    lines = (out / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    return {record["key"]: (record["status"], record["answer"]) for record in records}


def test_bench_qa_through_the_server_gives_the_local_verdicts_and_resumes(
    setup: Setup, tmp_path: Path
) -> None:
    options = ["--model", ORACLE, "--methods", "react+verify", "--n", "3", "--seeds", "1"]
    out = tmp_path / "server"
    command = ["bench", "qa", *options, "--out", str(out), "--no-progress"]
    submitted = run_cli(*command, "--server", setup.server.url)
    assert submitted.returncode == 0, submitted.stderr
    remote = _verdicts(out)
    local = tmp_path / "local"
    config = BenchConfig(out=local, model=ORACLE, methods=("react+verify",), n=3, seeds=1)
    run_qa_bench(config, progress=False)
    assert remote == _verdicts(local)
    assert {status for status, _ in remote.values()} <= {"verified", "unverified"}
    assert {t["metadata"]["bench_key"] for t in _bench_threads(setup)} == set(remote)

    lines = (out / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    (out / "episodes.jsonl").write_text(lines[0] + "\n", encoding="utf-8")
    runs_before = sum(len(setup.client.runs.list(t["thread_id"])) for t in _bench_threads(setup))
    resumed = run_cli(*command, "--server", setup.server.url)
    assert resumed.returncode == 0, resumed.stderr
    assert _verdicts(out) == remote
    runs_after = sum(len(setup.client.runs.list(t["thread_id"])) for t in _bench_threads(setup))
    assert runs_after == runs_before  # finished threads are read back, not run again


def _bench_threads(setup: Setup) -> list[dict[str, Any]]:
    found = setup.client.threads.search(limit=100)
    return [dict(t) for t in found if "bench_key" in (t["metadata"] or {})]


def _checkpoints(setup: Setup, thread_id: str) -> int:
    return len(setup.client.threads.get_history(thread_id, limit=200))


def test_a_server_run_saves_checkpoints_as_its_threads_durability_says(setup: Setup) -> None:
    """`--server` passes the thread's durability; a run through the API that asks for
    another (langgraph-api asks `async` for Studio's runs) gets the thread's own: with
    `exit`, only the input and the last checkpoint are stored."""
    from graph.episodes.runner import settings_of
    from graph.settings.context import WikipediaContext
    from graph.testing import DEMO_QUESTION

    server = ("--server", setup.server.url)
    counts = {}
    for mode in ("auto", "exit"):
        asked = run_cli("ask", DEMO_QUESTION, "--model", DEMO_MODEL, "--durability", mode, *server)
        assert asked.returncode == 0, asked.stderr
        thread_id = asked.stdout.strip().splitlines()[-1].removeprefix("Thread: ")
        counts[mode] = _checkpoints(setup, thread_id)
    assert counts["exit"] <= 2 < counts["auto"]
    ctx = WikipediaContext(model=DEMO_MODEL, durability="exit")
    thread = setup.client.threads.create(graph_id="wikipedia")
    value: Any = {"question": DEMO_QUESTION, "settings": settings_of("wikipedia", ctx)}
    setup.client.runs.wait(thread["thread_id"], "wikipedia", input=value, durability="sync")
    state: Any = setup.client.threads.get_state(thread["thread_id"])
    assert state["values"]["status"] == "verified"
    assert _checkpoints(setup, thread["thread_id"]) == counts["exit"]
