"""`langgraph dev` on PostgreSQL checkpoints: `REACT_AGENT_DB` is a `postgresql://` URL, so
the server (`graph/server/checkpointer.py`'s factory, `AsyncPostgresSaver`) and the CLI share one
database, its threads and its thread leases."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cli_utils import run_cli
from conftest import fresh_database
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import (
    LIBRARY_QUESTION,
    LIBRARY_SCRIPT,
    RESERVE_QUESTION,
    Server,
    paused_library_thread,
    start_server,
    state_values,
    stop_server,
)

from graph.testing import DEMO_QUESTION, DEMO_REPLIES

pytestmark = [pytest.mark.server, pytest.mark.postgres]
LOST_RACE = "is being run by another process since"


@dataclass
class Setup:
    """The running server, its client, its database and a scratch directory."""

    server: Server
    client: SyncLangGraphClient
    url: str
    root: Path


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, postgres_server: str) -> Iterator[Setup]:
    root = tmp_path_factory.mktemp("server-pg")
    with fresh_database(postgres_server) as url:
        server = start_server(root, url)
        try:
            yield Setup(server, get_sync_client(url=server.url, api_key=None), url, root)
        finally:
            stop_server(server)


def lease_holder(url: str, thread_id: str) -> str | None:
    """The owner of the thread's lease as its holder row says (a server run's id); a released
    row, which keeps the fencing token, names none."""
    with psycopg.connect(url) as conn:
        row = conn.execute(
            "SELECT owner FROM thread_leases WHERE thread_id = %s AND expires_at <> 0",
            (thread_id,),
        ).fetchone()
    return str(row[0]) if row else None


def scripted(setup: Setup, name: str, replies: list[str], delay_s: float = 0.0) -> str:
    """A scripted model spec for the server's runs."""
    path = setup.root / f"{name}.json"
    path.write_text(json.dumps({"responses": replies, "delay_s": delay_s}, ensure_ascii=False))
    return f"scripted:{path}"


def test_a_server_run_is_stored_on_postgresql_and_the_cli_reads_and_lists_it(
    setup: Setup,
) -> None:
    log = setup.server.log_tail(400)
    assert "Using custom checkpointer: RollbackAsyncPostgresSaver" in log
    assert "missing adelete_for_runs" not in log
    client = setup.client
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(
        thread_id,
        "wikipedia",
        input={"question": DEMO_QUESTION},
        context={"model": scripted(setup, "wiki", DEMO_REPLIES)},
    )
    values = state_values(client.threads.get_state(thread_id))
    assert (values["status"], values["answer"]) == ("verified", "1970")
    shown = run_cli("show", thread_id, "--db", setup.url, "--json")
    assert shown.returncode == 0, shown.stderr
    assert (json.loads(shown.stdout)["answer"], json.loads(shown.stdout)["steps"]) == ("1970", 4)
    listed = json.loads(run_cli("threads", "--db", setup.url, "--json").stdout)
    assert {row["thread_id"]: row["status"] for row in listed}[thread_id] == "verified"


def test_the_cli_cannot_drive_a_thread_while_a_server_run_does_then_decides_it(
    setup: Setup,
) -> None:
    library = setup.root / "library.sqlite3"
    model = scripted(setup, "slow-library", LIBRARY_SCRIPT, delay_s=6.0)
    context: dict[str, Any] = {"model": model, "library_db": str(library), "max_seconds": 120}
    thread_id = setup.client.threads.create()["thread_id"]
    run = setup.client.runs.create(
        thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
    )
    deadline = time.monotonic() + 60
    while lease_holder(setup.url, thread_id) is None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert lease_holder(setup.url, thread_id) == run["run_id"]
    busy = run_cli("resume", thread_id, "--db", setup.url)
    assert busy.returncode == 2 and LOST_RACE in busy.stderr, busy.stderr
    setup.client.runs.join(thread_id, run["run_id"])
    done = run_cli("resume", thread_id, "--db", setup.url, "--edit", '{"copy_id": "W22"}')
    assert done.returncode == 0, done.stderr
    audit = json.loads(run_cli("audit", thread_id, "--db", setup.url, "--json").stdout)
    assert [row["event"] for row in audit] == ["proposed", "decision", "executed"]
    assert audit[1]["actor"].startswith("cli:")


def test_a_copied_paused_thread_on_postgresql_is_listed_and_takes_its_own_request(
    setup: Setup,
) -> None:
    """`threads.copy` through the PostgreSQL saver (`graph.store.copies`): the copy is in the
    registry `threads` lists from, and the request it shows is the one it takes."""
    client = setup.client
    library = setup.root / "copied-library.sqlite3"
    model = "graph.testing:library_demo_model"
    source, source_request = paused_library_thread(client, library, RESERVE_QUESTION, model)
    threads: Any = client.threads
    copy = str(threads.copy(source)["thread_id"])
    listed = json.loads(run_cli("threads", "--db", setup.url, "--json").stdout)
    statuses = {row["thread_id"]: row["status"] for row in listed}
    assert statuses[copy] == statuses[source] == "awaiting_approval"
    (item,) = client.threads.get_state(copy)["interrupts"]
    assert isinstance(item["value"], dict)
    shown = str(item["value"]["request_id"])
    assert shown != source_request
    decision = {"decisions": [{"type": "approve"}], "request_id": shown}
    client.runs.wait(copy, "library", command={"resume": decision})
    assert state_values(client.threads.get_state(copy))["status"] == "verified"
    (still,) = client.threads.get_state(source)["interrupts"]
    assert isinstance(still["value"], dict) and still["value"]["request_id"] == source_request
