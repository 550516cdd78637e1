"""One status word per state, in Studio too: an episode whose process was killed mid-run
reads `interrupted` through the server API (what Studio shows), as `show` says, while
its checkpoint keeps what the nodes wrote; a run in progress still reads `running`."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from langgraph_sdk import get_sync_client
from reliability_utils import checkpoint_count, finish, start_cli, wait_for, write_model
from server_utils import Server, state_values

from graph.testing import DEMO_QUESTION, DEMO_REPLIES

pytestmark = pytest.mark.server


def test_a_killed_episode_reads_interrupted_in_the_api_as_in_show(
    shared_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> None:
    client = get_sync_client(url=shared_server.url, api_key=None)
    thread_id = client.threads.create(graph_id="wikipedia")["thread_id"]
    model = write_model(tmp_path_factory.mktemp("status") / "slow.json", DEMO_REPLIES, 3.0)
    db = str(shared_server.db)
    db_file = Path(db)
    process = start_cli(
        "ask", DEMO_QUESTION, "--model", model, "--db", db, "--thread-id", thread_id
    )  # fmt: skip
    wait_for(lambda: checkpoint_count(db_file, thread_id) >= 3, 120, "the first step")
    assert state_values(client.threads.get_state(thread_id))["status"] == "running"
    process.send_signal(signal.SIGKILL)
    finish(process)

    assert state_values(client.threads.get_state(thread_id))["status"] == "interrupted"
    shown = run_cli("show", thread_id, "--db", db, "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["status"] == "interrupted"
    newest = client.threads.get_history(thread_id, limit=50)[0]
    assert state_values(newest)["status"] == "running", "the checkpoint keeps what was written"
    latest = newest["checkpoint"]["checkpoint_id"]
    at_checkpoint: Any = client.threads.get_state(thread_id, checkpoint_id=latest)
    assert at_checkpoint["values"]["status"] == "running"
