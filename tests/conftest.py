"""Shared fixtures: a throwaway state directory, checkpoint files, scripted agents."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("LANGSMITH_TRACING", "false")

# A test with one of these marks is in the slow tier too (`-m "not slow"` leaves it out).
SLOW_MARKS = ("server", "postgres", "live")


def pytest_configure(config: pytest.Config) -> None:
    """Give SIGINT its default handler back when the test run inherited it ignored (a run
    started as a background job, `pytest &` in a script): the Ctrl-C tests, and the
    commands they start (a child inherits an ignored signal), need it as a user has it."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put every test that starts a server or needs PostgreSQL or the network in the slow
    tier; the others say so with `@pytest.mark.slow` themselves."""
    for item in items:
        if any(item.get_closest_marker(name) for name in SLOW_MARKS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def isolated_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keep every test's state files out of the user's home; share the snapshot index."""
    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("XDG_STATE_HOME", str(state))
    monkeypatch.delenv("GROQ_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)


@pytest.fixture
def db_path(tmp_path: Path) -> Iterator[Path]:
    """A fresh checkpoint database file."""
    yield tmp_path / "episodes.sqlite3"


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a PostgreSQL server: `.ci/run`'s, else one started from the machine's
    binaries for this session; the test skips only where the binaries are absent."""
    from postgres_server import URL_VARIABLE, PostgresUnavailable, start, stop

    configured = os.environ.get(URL_VARIABLE)
    if configured:
        yield configured
        return
    directory = tmp_path_factory.mktemp("postgres")
    try:
        url = start(directory)
    except PostgresUnavailable as error:
        pytest.skip(str(error))
    try:
        yield url
    finally:
        stop(directory)


@contextmanager
def fresh_database(server: str) -> Iterator[str]:
    """The URL of a new, empty database on `server`, dropped afterwards."""
    import uuid

    import psycopg

    name = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the test PostgreSQL server, dropped afterwards."""
    with fresh_database(postgres_server) as url:
        yield url


@pytest.fixture
def postgres_library_url(postgres_server: str) -> Iterator[str]:
    """A second fresh database on the test PostgreSQL server (a library next to the
    checkpoints of `postgres_url`), dropped afterwards."""
    with fresh_database(postgres_server) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def library_location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh library database location, so each test using it runs twice: an SQLite file
    path, then the URL of an empty PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "library.sqlite3")
    return str(request.getfixturevalue("postgres_url"))


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One `langgraph dev` (the repository's `langgraph.json`, its own SQLite file) for
    every test module of this session (an xdist worker) that needs no server settings of
    its own; each module keeps to its own threads and files."""
    from server_utils import serving

    with serving(tmp_path_factory.mktemp("shared-server")) as running:
        yield running
