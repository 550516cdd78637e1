"""The library backend's PostgreSQL side: a database says what it is, a server that cannot be
used is one line, reset touches only the project's tables, and the environment treats a lost
server as it treats a locked SQLite file."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest
from library_utils import fetch, tables

from graph.settings.context import LibraryContext
from tools.base import ExecContext, ToolOutcome
from tools.dbfiles import DatabaseFileError, DatabaseServerError
from tools.library.backend import LibraryBackend
from tools.library.db import audit_log, ensure_database, reservations, reset_database
from tools.library.environment import LibraryEnvironment

pytestmark = pytest.mark.postgres
USES: list[Callable[[str], Any]] = [
    LibraryBackend,
    ensure_database,
    reset_database,
    audit_log,
    reservations,
]


def run(url: str, *statements: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)


def with_password(url: str, password: str) -> str:
    return url.replace("postgres@", f"postgres:{password}@", 1)


@pytest.mark.parametrize(
    ("statements", "message"),
    [
        (
            ["CREATE TABLE customers (id int)", "INSERT INTO customers VALUES (1)"],
            "holds other tables (customers), not a library database",
        ),
        (
            ["CREATE TABLE checkpoints (id int)", "CREATE TABLE writes (id int)"],
            "is a checkpoint database, not a library database",
        ),
        (
            ["CREATE TABLE reservations (id int)", "CREATE TABLE audit_log (id int)"],
            "holds tables (audit_log, reservations) but does not say it is a library database",
        ),
        (
            [
                "CREATE TABLE meta (key text PRIMARY KEY, value text)",
                "INSERT INTO meta VALUES ('kind', 'inventory')",
            ],
            "is a inventory database, not a library one",
        ),
    ],
)
@pytest.mark.parametrize("use", USES)
def test_a_database_of_another_kind_is_refused_in_one_line_and_left_alone(
    postgres_url: str, statements: list[str], message: str, use: Callable[[str], Any]
) -> None:
    run(postgres_url, *statements)
    before = tables(postgres_url)
    given = with_password(postgres_url, "s3cret")
    with pytest.raises(DatabaseFileError) as raised:
        use(given)
    text = str(raised.value)
    shown = with_password(postgres_url, "***")
    assert text == f"{shown} {message}"
    assert tables(postgres_url) == before


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("use", USES)
def test_a_server_that_cannot_be_used_is_one_line_naming_the_url(
    postgres_server: str, use: Callable[[str], Any]
) -> None:
    base = postgres_server.rsplit("/", 1)[0]
    cases = {
        f"postgresql://postgres:s3cret@127.0.0.1:{closed_port()}/library": "Connection refused",
        f"{base}/no_such_database": 'database "no_such_database" does not exist',
        base.replace("postgres@", "nobody:s3cret@") + "/library": 'role "nobody" does not exist',
    }
    for url, reason in cases.items():
        with pytest.raises(DatabaseServerError) as raised:
            use(url)
        shown = url.replace("s3cret", "***")
        assert str(raised.value) == f"cannot open the library database {shown}: {reason}"
        assert raised.value.reason == reason


@pytest.mark.parametrize("use", USES)
def test_a_url_of_another_database_is_refused_and_nothing_is_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use: Callable[[str], Any]
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(DatabaseFileError) as raised:
        use("mysql://user:pw@127.0.0.1/library")
    assert str(raised.value) == (
        "mysql://user:***@127.0.0.1/library: the library database must be an SQLite file "
        "path or a postgresql://user@host:port/db URL"
    )
    assert list(tmp_path.iterdir()) == []


def test_readers_of_an_empty_database_return_nothing_and_create_nothing(
    postgres_url: str,
) -> None:
    assert audit_log(postgres_url) == [] and reservations(postgres_url) == []
    assert tables(postgres_url) == set()


def test_reset_drops_only_the_projects_tables_and_open_pools_go_on(postgres_url: str) -> None:
    run(postgres_url, "CREATE SCHEMA notes", "CREATE TABLE notes.kept (line text)")
    run(postgres_url, "INSERT INTO notes.kept VALUES ('mine')")
    backend = LibraryBackend(postgres_url)
    backend.reserve("W22", "P1001", "k", "2026-09-26T14:03:00", "t", 1)
    for _ in range(8):
        held = backend.copy_status("W22", "P1001")
        assert held is not None and held.status == "on_hold"
    assert reset_database(postgres_url) == backend.path
    fresh = backend.copy_status("W22", "P1001")
    assert fresh is not None and fresh.status == "available"
    assert reservations(postgres_url) == [] and audit_log(postgres_url) == []
    assert fetch(postgres_url, "SELECT line FROM notes.kept") == [("mine",)]
    assert backend.reserve("W22", "P1001", "k", "2026-09-26T14:03:00", "t", 1).outcome == (
        "reserved"
    )


def test_the_location_prints_with_its_password_hidden(postgres_url: str) -> None:
    location = ensure_database(with_password(postgres_url, "s3cret"))
    assert str(location) == with_password(postgres_url, "***")


def test_a_lost_server_is_retried_then_unknown_like_a_locked_file(
    postgres_server: str, postgres_url: str
) -> None:
    env, settings = LibraryEnvironment(), LibraryContext(library_db=postgres_url)

    def copy_status(copy_id: str) -> ToolOutcome:
        ctx = ExecContext(settings, {}, "thread-1", 2, "thread-1:2", tool_calls_left=6)
        return env.execute("get_copy_status", {"copy_id": copy_id}, ctx)

    assert not copy_status("W22").failed
    name = postgres_url.rsplit("/", 1)[1]
    run(
        postgres_server,
        f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'",
    )
    after_restart = copy_status("W22")
    assert not after_restart.failed and after_restart.calls == 1
    run(postgres_server, f'DROP DATABASE "{name}" WITH (FORCE)')
    lost = copy_status("E17")
    assert (lost.failed, lost.calls) == (True, 2)
    assert (
        f'the library system reported an error (database "{name}" does not exist) (2 attempts)'
        in lost.observation
    )
