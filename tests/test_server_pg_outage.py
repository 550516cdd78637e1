"""A `langgraph dev` server whose PostgreSQL checkpoint database goes away while a thread
waits for approval, then comes back.

Before, the decision's run failed with `PoolTimeout: An internal error occurred`; now it
fails with the CLI's one line naming the database, and once the database is back the
same decision runs the write once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest
from conftest import fresh_database
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from langgraph_sdk.schema import Command
from server_utils import paused_library_thread, start_server, state_values, stop_server

from tools.library.db import reservations

pytestmark = [pytest.mark.server, pytest.mark.postgres]

QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
MODEL = "graph.testing:library_demo_model"


@pytest.fixture(scope="module")
def setup(
    tmp_path_factory: pytest.TempPathFactory, postgres_server: str
) -> Iterator[tuple[SyncLangGraphClient, str, Path]]:
    root = tmp_path_factory.mktemp("server-pg-outage")
    with fresh_database(postgres_server) as url:
        server = start_server(root, url)
        try:
            yield get_sync_client(url=server.url, api_key=None), url, root
        finally:
            stop_server(server)


@contextmanager
def unreachable(admin_url: str, url: str) -> Iterator[None]:
    """The database refuses connections and its sessions are ended, for the block."""
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )
        try:
            yield
        finally:
            admin.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')


def test_a_decision_while_the_database_is_away_is_one_line_then_runs_once(
    setup: tuple[SyncLangGraphClient, str, Path], postgres_server: str
) -> None:
    client, url, root = setup
    library_db = root / "library.sqlite3"
    thread_id, request_id = paused_library_thread(client, library_db, QUESTION, MODEL)
    approve: Command = {"resume": {"decisions": [{"type": "approve"}], "request_id": request_id}}
    with unreachable(postgres_server, url), pytest.raises(Exception) as refused:
        client.runs.wait(thread_id, "library", command=approve)
    message = str(refused.value)
    assert "the checkpoint database postgresql://" in message, message
    assert "internal error" not in message, message
    assert reservations(str(library_db)) == []
    client.runs.wait(thread_id, "library", command=approve)
    assert state_values(client.threads.get_state(thread_id))["status"] == "verified"
    assert len(reservations(str(library_db))) == 1
