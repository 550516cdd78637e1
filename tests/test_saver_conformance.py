"""LangGraph's conformance suite for checkpoint savers (`langgraph-checkpoint-conformance`)
against every saver `langgraph.json` gives the server: the SQLite one on a real file and
the PostgreSQL one on a real database. Every capability is detected and passes in full.

The CLI's savers (`CompactSqliteSaver`, `PostgresCheckpointSaver`) are synchronous: the suite
drives the async interface only (`aput`, `alist`, ...), which LangGraph's synchronous
savers do not implement, so it does not apply to them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import fresh_database
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.conformance.capabilities import Capability

from graph.server.checkpointer import attach_thread_stores
from graph.store.aio import open_async_sqlite_saver
from graph.store.pg_aio import open_async_postgres_saver

EVERY_CAPABILITY = {capability.value for capability in Capability}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An SQLite file, then an empty PostgreSQL database (each suite gets its own)."""
    if request.param == "sqlite":
        yield str(tmp_path / "episodes.sqlite3")
        return
    with fresh_database(request.getfixturevalue("postgres_server")) as url:
        yield url


def report_of(location: str) -> dict[str, Any]:
    """The suite's report on the server's saver at `location`, as a dict."""

    @checkpointer_test(name=f"server saver on {location.split(':')[0]}")
    async def server_saver() -> AsyncIterator[Any]:
        if location.startswith("postgresql://"):
            async with open_async_postgres_saver(location) as pg_saver:
                yield pg_saver
            return
        async with open_async_sqlite_saver(location) as saver:
            attach_thread_stores(saver, Path(location))
            yield saver

    report = asyncio.run(validate(server_saver))
    found: dict[str, Any] = report.to_dict()
    return found


def test_the_server_savers_pass_every_capability_of_the_suite(location: str) -> None:
    report = report_of(location)
    results = report["results"]
    assert set(results) == EVERY_CAPABILITY
    failures = {name: result["failures"] for name, result in results.items() if result["failures"]}
    assert failures == {}
    for name, result in results.items():
        assert result["detected"] and result["passed"] is True, (name, result)
        assert result["tests_passed"] > 0 and result["tests_skipped"] == 0, (name, result)
    assert report["conformance_level"] == "FULL"
