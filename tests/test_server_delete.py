"""`threads.delete` through the server removes the whole thread, also from the CLI's view.

Before, a thread deleted while a run was on it came back half: the run's node, still
running, finished and the run stored its later checkpoints, so `react-agent show`
printed a thread with no question and without its first steps, paused for approval;
and a thread deleted while paused stayed in `react-agent threads` as awaiting approval.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_utils import run_cli
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from server_utils import RESERVE_QUESTION as QUESTION
from server_utils import (
    Server,
    paused_library_thread,
    state_values,
    wait_for_run_end,
)

pytestmark = pytest.mark.server

SLOW_READS = [
    "Thought: a\nAction: search_catalog[红楼梦]",
    "Thought: b\nAction: get_copy_status[E60]",
    "Thought: c\nAction: get_copy_status[W60]",
    "Thought: d\nAction: get_open_hours[East Library, today]",
    "Thought: e\nAction: Finish[E60 is available at the East Library.]",
]
DELAY_S = 1.5


@pytest.fixture(scope="module")
def server(
    shared_server: Server, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Server, Path]]:
    yield shared_server, tmp_path_factory.mktemp("delete")


def _rows(db: Path, table: str, thread_id: str) -> int:
    with sqlite3.connect(db) as conn:
        found = conn.execute(f"SELECT count(*) FROM {table} WHERE thread_id = ?", (thread_id,))
        return int(found.fetchone()[0])


def _gone_for_the_cli(db: Path, thread_id: str) -> None:
    shown = run_cli("show", thread_id, "--db", str(db))
    assert shown.returncode == 2 and "no episode with thread id" in shown.stderr, shown
    assert thread_id not in run_cli("threads", "--db", str(db)).stdout
    assert _rows(db, "checkpoints", thread_id) == 0
    assert _rows(db, "threads", thread_id) == 0


def test_a_thread_deleted_while_paused_leaves_the_thread_list(
    server: tuple[Server, Path],
) -> None:
    running, root = server
    client = get_sync_client(url=running.url, api_key=None)
    model = "graph.testing:library_demo_model"
    thread_id, _ = paused_library_thread(client, root / "paused.sqlite3", QUESTION, model)
    client.threads.delete(thread_id)
    _gone_for_the_cli(Path(running.db), thread_id)


def test_a_thread_deleted_while_a_run_is_on_it_does_not_come_back_half(
    server: tuple[Server, Path],
) -> None:
    running, root = server
    client: SyncLangGraphClient = get_sync_client(url=running.url, api_key=None)
    script = f"scripted:{root / 'slow.json'}"
    slow = {"delay_s": DELAY_S, "responses": SLOW_READS}
    (root / "slow.json").write_text(json.dumps(slow, ensure_ascii=False), encoding="utf-8")
    context = {"model": script, "library_db": str(root / "running.sqlite3")}
    thread_id = client.threads.create()["thread_id"]
    run = client.runs.create(thread_id, "library", input={"question": QUESTION}, context=context)
    deadline = time.monotonic() + 30
    while not state_values(client.threads.get_state(thread_id)).get("steps"):
        assert time.monotonic() < deadline, "the run made no step"
        time.sleep(0.2)
    client.threads.delete(thread_id)
    # the run's node goes on after the delete: look once the server says the run ended
    wait_for_run_end(running, run["run_id"], len(SLOW_READS) * DELAY_S + 2)
    _gone_for_the_cli(Path(running.db), thread_id)
