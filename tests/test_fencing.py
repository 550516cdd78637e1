"""Fencing tokens on SQLite: a process stopped past its lease's time to live, whose thread
another process took over and finished, writes nothing when it wakes (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_utils import run_cli
from fencing_utils import PATIENT, TTL_S, lease_expired, start_stopping, wake_and_check
from reliability_utils import (
    RESERVE_QUESTION,
    RESERVE_SCRIPT,
    wait_for,
    write_model,
)

from graph.store.leases import TTL_ENV_VAR

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def short_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TTL_ENV_VAR, TTL_S)


def test_a_stale_ask_writes_nothing_after_another_process_finished_its_thread(
    tmp_path: Path,
) -> None:
    from tools.library.db import ensure_database

    db, library = tmp_path / "episodes.sqlite3", ensure_database(tmp_path / "library.sqlite3")
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    stale = start_stopping(
        "model:2", tmp_path / "stopped", "ask", "--env", "library", RESERVE_QUESTION,
        "--model", model, "--db", str(db), "--library-db", str(library), "--thread-id", "t",
        *PATIENT,
    )  # fmt: skip
    wait_for(lambda: lease_expired(str(db), "t"), what="the stopped holder's lease to expire")
    took = run_cli("resume", "t", "--db", str(db))
    assert took.returncode == 5, took.stderr
    approved = run_cli("resume", "t", "--db", str(db), "--approve")
    assert approved.returncode == 0, approved.stderr
    wake_and_check(stale, str(db), str(library), "t")


def test_a_holder_stopped_between_approval_and_write_writes_nothing(tmp_path: Path) -> None:
    from tools.library.db import ensure_database

    db, library = tmp_path / "episodes.sqlite3", ensure_database(tmp_path / "library.sqlite3")
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    paused = run_cli(
        "ask", "--env", "library", RESERVE_QUESTION, "--model", model, "--db", str(db),
        "--library-db", str(library), "--thread-id", "t", *PATIENT,
    )  # fmt: skip
    assert paused.returncode == 5, paused.stderr
    stale = start_stopping(
        "reserve", tmp_path / "stopped", "resume", "t", "--db", str(db), "--approve"
    )
    wait_for(lambda: lease_expired(str(db), "t"), what="the stopped holder's lease to expire")
    took = run_cli("resume", "t", "--db", str(db))
    assert took.returncode == 0, took.stdout + took.stderr
    wake_and_check(stale, str(db), str(library), "t")
