"""Fencing tokens on PostgreSQL: a holder frozen past its lease's time to live keeps its
session (and the advisory lock); the process taking over ends that session, and the
woken holder writes nothing (issue 30)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_utils import run_cli
from fencing_utils import PATIENT, TTL_S, lease_expired, start_stopping, wake_and_check
from reliability_utils import RESERVE_QUESTION, RESERVE_SCRIPT, wait_for, write_model

from graph.store.leases import TTL_ENV_VAR

pytestmark = pytest.mark.postgres


@pytest.fixture(autouse=True)
def short_lease(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TTL_ENV_VAR, TTL_S)


def test_a_stale_ask_writes_nothing_after_another_process_finished_its_thread(
    postgres_url: str, postgres_library_url: str, tmp_path: Path
) -> None:
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    stale = start_stopping(
        "model:2", tmp_path / "stopped", "ask", "--env", "library", RESERVE_QUESTION,
        "--model", model, "--db", postgres_url, "--library-db", postgres_library_url,
        "--thread-id", "t", *PATIENT,
    )  # fmt: skip
    wait_for(lambda: lease_expired(postgres_url, "t"), what="the stopped holder's lease to expire")
    took = run_cli("resume", "t", "--db", postgres_url)
    assert took.returncode == 5, took.stderr
    approved = run_cli("resume", "t", "--db", postgres_url, "--approve")
    assert approved.returncode == 0, approved.stderr
    wake_and_check(stale, postgres_url, postgres_library_url, "t")


def test_a_holder_stopped_between_approval_and_write_writes_nothing(
    postgres_url: str, postgres_library_url: str, tmp_path: Path
) -> None:
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    paused = run_cli(
        "ask", "--env", "library", RESERVE_QUESTION, "--model", model, "--db", postgres_url,
        "--library-db", postgres_library_url, "--thread-id", "t", *PATIENT,
    )  # fmt: skip
    assert paused.returncode == 5, paused.stderr
    stale = start_stopping(
        "reserve", tmp_path / "stopped", "resume", "t", "--db", postgres_url, "--approve"
    )
    wait_for(lambda: lease_expired(postgres_url, "t"), what="the stopped holder's lease to expire")
    took = run_cli("resume", "t", "--db", postgres_url)
    assert took.returncode == 0, took.stderr
    wake_and_check(stale, postgres_url, postgres_library_url, "t")
