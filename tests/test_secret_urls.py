"""No password of a database or server URL is stored in a thread or printed.

The library database here is a PostgreSQL role that must give its password
(a `scram-sha-256` line in the test server's `pg_hba.conf`), so a resume
that lost the password fails, and one that finds it again works.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psycopg
import pytest
from cli_utils import run_cli
from reliability_utils import RESERVE_QUESTION, RESERVE_SCRIPT, write_model

from graph.agent import build_agent
from graph.cli.output import resume_hint
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.errors import AgentError
from graph.remote.client import connect
from graph.remote.episodes import RemoteRun, start_episode
from graph.settings.context import LibraryContext, WikipediaContext
from tools.library.db import audit_log, reservations

SECRET = "s3cret-Pw-71"
CLOSED_PORT_URL = f"http://watcher:{SECRET}@127.0.0.1:9"


def with_secret(url: str) -> str:
    """`postgresql://role@host/db` with the password in it."""
    return url.replace("@", f":{SECRET}@", 1)


@pytest.fixture
def keeper(postgres_server: str) -> Iterator[str]:
    """A fresh database owned by a new role that must give `SECRET` over TCP; its URL
    without the password."""
    name = f"keeper_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_server, autocommit=True) as admin:
        hba = Path(str(admin.execute("SHOW hba_file").fetchone()[0]))  # type: ignore[index]
        admin.execute(f"CREATE ROLE {name} LOGIN PASSWORD '{SECRET}'")
        admin.execute(f'CREATE DATABASE "{name}" OWNER {name}')
        before = hba.read_text()
        hba.write_text(f"host all {name} 127.0.0.1/32 scram-sha-256\n{before}")
        admin.execute("SELECT pg_reload_conf()")
    host = postgres_server.split("@", 1)[1].rsplit("/", 1)[0]
    try:
        yield f"postgresql://{name}@{host}/{name}"
    finally:
        hba.write_text(before)
        with psycopg.connect(postgres_server, autocommit=True) as admin:
            admin.execute("SELECT pg_reload_conf()")
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f"DROP ROLE IF EXISTS {name}")


@pytest.fixture(autouse=True)
def no_password_elsewhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """libpq finds no password but the one a URL gives."""
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no.pgpass"))


def stored_text(db: Path) -> str:
    """Everything the checkpoint file holds, as text: every checkpoint and write read back
    through the saver (blobs are compressed) and a dump of every table."""
    with open_checkpointer(db, create=False) as saver:
        tuples = list(saver.list(None))
    with sqlite3.connect(db) as conn:
        dump = "\n".join(conn.iterdump())
    return repr(tuples) + dump


def outputs(*runs: Any) -> str:
    return "".join(run.stdout + run.stderr for run in runs)


@pytest.mark.postgres
def test_a_library_password_is_never_stored_nor_printed_and_resume_asks_for_it(
    keeper: str, postgres_library_url: str, tmp_path: Path
) -> None:
    db, model = str(tmp_path / "episodes.sqlite3"), write_model(tmp_path / "r.json", RESERVE_SCRIPT)
    given = with_secret(keeper)
    common = ("--db", db)
    paused = run_cli(
        "ask", RESERVE_QUESTION, "--env", "library", "--patron", "P1003", "--model", model,
        "--library-db", given, "--thread-id", "kept", *common,
    )  # fmt: skip
    assert paused.returncode == 5, paused.stderr
    lost = run_cli("resume", "kept", "--approve", *common)
    assert lost.returncode == 2 and len(lost.stderr.strip().splitlines()) == 1, lost.stderr
    assert "password" in lost.stderr and "PGPASSWORD" in lost.stderr, lost.stderr
    another = with_secret(postgres_library_url)
    other = run_cli("resume", "kept", "--approve", "--library-db", another, *common)
    assert other.returncode == 2 and "--library-db" in other.stderr, other.stderr
    audit = run_cli("audit", "kept", "--library-db", given, "--json", *common)
    assert [row["event"] for row in json.loads(audit.stdout)] == ["proposed"], audit.stderr
    done = run_cli("resume", "kept", "--approve", "--library-db", given, "--json", *common)
    assert done.returncode == 0, done.stderr
    assert [row["copy_id"] for row in reservations(given)] == ["W22"]
    fork_from = json.loads(run_cli("history", "kept", "--json", *common).stdout)[-2]
    forked = run_cli(
        "resume", "kept", "--from", fork_from["checkpoint_id"], "--library-db", given, *common
    )
    assert forked.returncode in (0, 3, 5), forked.stderr
    reads = [
        run_cli("show", "kept", *common),
        run_cli("show", "kept", "--json", *common),
        run_cli("history", "kept", *common),
        run_cli("history", "kept", "--json", *common),
        run_cli("threads", "--json", *common),
        run_cli("audit", "kept", "--library-db", given, *common),
        run_cli("ask", "again?", "--thread-id", "kept", "--env", "library", *common),
    ]
    printed = outputs(paused, lost, other, audit, done, forked, *reads)
    assert keeper in printed and SECRET not in printed
    assert keeper in stored_text(Path(db)) and SECRET not in stored_text(Path(db))
    assert SECRET not in repr(audit_log(given))


@pytest.mark.postgres
def test_a_thread_stored_with_its_password_before_still_resumes_and_shows_none(
    keeper: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "episodes.sqlite3"
    script = write_model(tmp_path / "r.json", RESERVE_SCRIPT)
    from graph.core import passwords

    monkeypatch.setattr(passwords, "URL_SETTINGS", ())  # how threads were stored before
    with open_checkpointer(db) as saver:
        agent = build_agent("library", saver)
        ctx = LibraryContext(model=script, library_db=with_secret(keeper), patron="P1003")
        paused = run_episode(agent, RESERVE_QUESTION, ctx, thread_id="old")
    assert paused["status"] == "awaiting_approval"
    assert SECRET in stored_text(db)
    monkeypatch.undo()
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no.pgpass"))
    done = run_cli("resume", "old", "--approve", "--db", str(db), "--max-seconds", "30")
    assert done.returncode == 2 and "--change-settings" in done.stderr, done.stderr
    assert SECRET not in done.stderr
    done = run_cli("resume", "old", "--approve", "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert [row["copy_id"] for row in reservations(with_secret(keeper))] == ["W22"]
    assert SECRET not in outputs(done)


@pytest.mark.slow
def test_printed_server_urls_hide_their_password() -> None:
    hint = resume_hint("t1", "r1", server=CLOSED_PORT_URL)
    assert SECRET not in hint and "watcher:***@127.0.0.1:9" in hint and "give the real URL" in hint
    for command in (["show", "t1"], ["resume", "t1", "--approve"], ["ask", "q?"]):
        shown = run_cli(*command, "--server", CLOSED_PORT_URL)
        assert shown.returncode == 2 and len(shown.stderr.strip().splitlines()) == 1, shown.stderr
        assert "watcher:***@" in shown.stderr and SECRET not in outputs(shown), shown.stderr
    refused = run_cli("show", "t1", "--server", f"ftp://watcher:{SECRET}@127.0.0.1:9")
    assert refused.returncode == 2 and SECRET not in outputs(refused), refused.stderr


class KnowsEveryThread(BaseHTTPRequestHandler):
    """A LangGraph server that holds every thread id it is asked about."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        asked = json.loads(self.rfile.read(length) or b"{}")
        body = json.dumps([{"thread_id": found} for found in asked.get("ids") or []]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        """Quiet."""


def test_a_thread_that_exists_on_the_server_is_refused_without_the_password() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), KnowsEveryThread)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        url = f"http://watcher:{SECRET}@127.0.0.1:{server.server_address[1]}"
        taken = run_cli("ask", "q?", "--thread-id", "t1", "--server", url)
        with pytest.raises(AgentError) as refused:  # what Python callers get
            start_episode(connect(url), "wikipedia", "q?", WikipediaContext(), RemoteRun("t"), "t1")
    finally:
        server.shutdown()
        server.server_close()
    assert SECRET not in str(refused.value) and "watcher:***@" in str(refused.value)
    assert taken.returncode == 2 and "already exists" in taken.stderr, taken.stderr
    assert "--server 'http://watcher:***@127.0.0.1:" in taken.stderr, taken.stderr
    assert SECRET not in outputs(taken)


@pytest.mark.postgres
def test_a_bench_record_keeps_no_store_password(postgres_url: str, tmp_path: Path) -> None:
    out, given = tmp_path / "out", with_secret(postgres_url)  # the test server trusts any
    done = run_cli(
        "bench", "qa", "--model", "graph.evaluation.oracles:hotpot_oracle_model",
        "--methods", "react",
        "--n", "1", "--seeds", "1", "--out", str(out), "--workers", "1", "--db", given,
        "--no-progress",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "config.json").read_text(encoding="utf-8"))["db"] == postgres_url
    written = "".join(path.read_text(errors="replace") for path in out.rglob("*") if path.is_file())
    assert SECRET not in written + outputs(done)


@pytest.mark.postgres
def test_the_server_stores_no_password_and_a_run_context_gives_it(
    keeper: str, tmp_path: Path
) -> None:
    from langgraph_sdk import get_sync_client
    from server_utils import EDIT_TO_W22, LIBRARY_QUESTION, LIBRARY_SCRIPT, serving, write_script

    context = {"model": write_script(tmp_path / "l.json", LIBRARY_SCRIPT)}
    context["library_db"] = with_secret(keeper)
    with serving(tmp_path) as server:
        client = get_sync_client(url=server.url, api_key=None)
        studio = client.threads.create()["thread_id"]  # as Studio runs: settings as context
        client.runs.wait(studio, "library", input={"question": LIBRARY_QUESTION}, context=context)
        paused = client.threads.get_state(studio)
        client.runs.wait(studio, "library", command={"resume": EDIT_TO_W22}, context=context)
        done = client.threads.get_state(studio)
        api = client.threads.create()["thread_id"]  # settings in the input
        given: dict[str, Any] = {"question": LIBRARY_QUESTION}
        given["settings"] = context | {"env": "library"}
        client.runs.wait(api, "library", input=given, context=context)
        states = [paused, done, client.threads.get_state(api)]
        history = client.threads.get_history(api) + client.threads.get_history(studio)
        threads = [client.threads.get(studio), client.threads.get(api)]
    assert paused["next"] == ["review"] and state_settings(paused)["library_db"] == keeper
    assert state_settings(done)["status"] == "verified"
    assert [row["copy_id"] for row in reservations(context["library_db"])] == ["W22"]
    assert state_settings(states[2])["library_db"] == keeper
    assert SECRET not in repr(states) + repr(history) + repr(threads)
    assert SECRET not in stored_text(tmp_path / "episodes.sqlite3")


def state_settings(state: Any) -> dict[str, Any]:
    """A server thread state's stored settings, with its status."""
    values = state["values"]
    return dict(values.get("settings") or {}) | {"status": values.get("status")}


@pytest.mark.postgres
def test_a_password_given_as_a_query_parameter_is_hidden_and_not_stored(
    keeper: str, tmp_path: Path
) -> None:
    db, model = str(tmp_path / "episodes.sqlite3"), write_model(tmp_path / "r.json", RESERVE_SCRIPT)
    given = f"{keeper}?password={SECRET}"
    paused = run_cli(
        "ask", RESERVE_QUESTION, "--env", "library", "--patron", "P1003", "--model", model,
        "--library-db", given, "--thread-id", "q", "--db", db,
    )  # fmt: skip
    assert paused.returncode == 5, paused.stderr
    wrong = f"{keeper}?password=not-{SECRET}"
    refused = run_cli("resume", "q", "--approve", "--db", db, "--library-db", wrong)
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1
    assert "password=***: password authentication failed" in refused.stderr, refused.stderr
    done = run_cli("resume", "q", "--approve", "--db", db, "--library-db", given)
    assert done.returncode == 0, done.stderr
    assert SECRET not in outputs(paused, refused, done) + stored_text(Path(db))


def test_a_run_gives_a_password_only_for_the_same_database_and_only_one_it_holds() -> None:
    from graph.core.passwords import with_given_password

    stored = LibraryContext(library_db=f"postgresql://k:{SECRET}@h/db")  # stored before
    assert with_given_password(stored, LibraryContext(library_db="postgresql://k@h/db")) is stored
    given = LibraryContext(library_db="postgresql://k:other@h/db")
    assert with_given_password(stored, given).library_db == given.library_db
    bare = LibraryContext(library_db="postgresql://k@h/db2")
    assert with_given_password(bare, given) is bare
