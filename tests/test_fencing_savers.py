"""The fencing token itself, its time to live setting, and the LangGraph server's savers
(async, SQLite and PostgreSQL): a holder whose lease was taken over stores nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import fresh_database
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import empty_checkpoint
from library_utils import fetch

from graph.episodes.runner import open_checkpointer
from graph.errors import AgentError, LeaseLostError
from graph.server.checkpointer import attach_thread_stores
from graph.store.aio import open_async_sqlite_saver
from graph.store.leases import TTL_ENV_VAR, SqliteThreadLease, lease_ttl_s
from graph.store.pg_aio import open_async_postgres_saver
from graph.store.pg_connection import conninfo, parse_url
from graph.store.pg_leases import PostgresThreadLease
from graph.store.postgres import open_pool

THREAD = "0b9e5a52-7c1e-4bb2-a1f4-3e2f9d6c8a71"


def test_the_time_to_live_is_a_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TTL_ENV_VAR, raising=False)
    assert lease_ttl_s() == 30.0
    monkeypatch.setenv(TTL_ENV_VAR, "2.5")
    assert lease_ttl_s() == 2.5
    for bad in ("0", "-1", "soon", "1e9"):
        monkeypatch.setenv(TTL_ENV_VAR, bad)
        with pytest.raises(AgentError, match=f"^{TTL_ENV_VAR}="):
            lease_ttl_s()


def test_the_token_grows_with_every_take_over_and_survives_a_release(db_path: Path) -> None:
    open_checkpointer(db_path)
    lease = SqliteThreadLease(db_path, ttl_s=0.2)
    lease.acquire(THREAD, "a")
    assert lease.token_of(THREAD) == 1
    lease.acquire(THREAD, "a")
    assert lease.token_of(THREAD) == 1
    lease.release(THREAD, "a")
    assert lease.token_of(THREAD) is None and lease.holder(THREAD) is None
    lease.acquire(THREAD, "b")
    assert lease.token_of(THREAD) == 2
    other = SqliteThreadLease(db_path)
    time.sleep(0.25)  # b's lease expires unrenewed
    other.acquire(THREAD, "c")
    assert other.token_of(THREAD) == 3
    with pytest.raises(LeaseLostError, match=f"^thread {THREAD} was taken over by another"):
        lease.acquire(THREAD, "b")


@asynccontextmanager
async def server_saver(backend: str, tmp_path: Path, url: str) -> AsyncIterator[Any]:
    """A server saver whose lease expires in 0.2 s, and a second lease on its database
    (another process's)."""
    if backend == "sqlite":
        path = tmp_path / "episodes.sqlite3"
        async with open_async_sqlite_saver(path) as saver:
            attach_thread_stores(saver, path)
            saver.thread_lease.ttl_s = 0.2  # type: ignore[attr-defined]
            yield saver, SqliteThreadLease(path), str(path)
        return
    async with open_async_postgres_saver(url) as saver:
        saver.thread_lease.ttl_s = 0.2  # type: ignore[attr-defined]
        pool = open_pool(parse_url(url))
        other = PostgresThreadLease(conninfo(parse_url(url)), pool)
        try:
            yield saver, other, url
        finally:
            other.close()
            pool.close()


@pytest.mark.parametrize(
    "backend", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def test_a_server_saver_stores_nothing_for_a_run_whose_lease_was_taken_over(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    async def scenario(url: str) -> None:
        async with server_saver(backend, tmp_path, url) as (saver, other, location):
            lease = saver.thread_lease
            await asyncio.to_thread(lease.acquire, THREAD, "run-1")
            config = RunnableConfig(configurable={"thread_id": THREAD, "checkpoint_ns": ""})
            first = await saver.aput(config, empty_checkpoint(), {"step": -1}, {})
            await saver.aput_writes(first, [("question", "Q?")], "task-1")
            await asyncio.sleep(0.25)  # run-1 stopped renewing
            await asyncio.to_thread(other.acquire, THREAD, "run-2")
            with pytest.raises(LeaseLostError, match="this process stopped without writing"):
                await saver.aput_writes(first, [("question", "stale")], "task-2")
            with pytest.raises(LeaseLostError):
                await saver.aput(first, empty_checkpoint(), {"step": 0}, {})
        writes = "checkpoint_writes" if backend == "postgres" else "writes"
        assert fetch(location, "SELECT COUNT(*) FROM checkpoints") == [(1,)]
        assert fetch(location, f"SELECT task_id FROM {writes}") == [("task-1",)]

    if backend == "sqlite":
        asyncio.run(scenario(""))
        return
    with fresh_database(request.getfixturevalue("postgres_server")) as url:
        asyncio.run(scenario(url))
