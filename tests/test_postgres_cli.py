"""The CLI end to end on PostgreSQL checkpoints, in separate processes as users run it:
a verified answer, `threads`, a kill in one process and the resume from another, the
approval race, and two resumes at once."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import psycopg
import pytest
from cli_utils import run_cli
from reliability_utils import (
    RESERVE_QUESTION,
    RESERVE_SCRIPT,
    finish,
    start_cli,
    wait_for,
    write_model,
)

from graph.episodes.audit import untruths
from graph.testing import DEMO_QUESTION, DEMO_REPLIES
from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.postgres
LOST_RACE = "is being run by another process since"


def checkpoint_count(url: str, thread_id: str) -> int:
    """How many checkpoints a thread has on PostgreSQL (0 before the table exists)."""
    with psycopg.connect(url) as conn:
        try:
            row = conn.execute(
                "SELECT count(*) FROM checkpoints WHERE thread_id = %s", (thread_id,)
            ).fetchone()
        except psycopg.errors.UndefinedTable:
            return 0
    return int(row[0]) if row else 0


def killed_episode(url: str, model: str, thread_id: str, checkpoints: int) -> None:
    """Start the demo episode and SIGKILL it once it has written `checkpoints` checkpoints."""
    process = start_cli(
        "ask", DEMO_QUESTION, "--model", model, "--db", url, "--thread-id", thread_id
    )
    wait_for(lambda: checkpoint_count(url, thread_id) >= checkpoints, 120, "the steps")
    process.send_signal(signal.SIGKILL)
    finish(process)


def threads_of(url: str) -> dict[str, str]:
    """`react-agent threads --json` as thread id -> status."""
    listed = run_cli("threads", "--db", url, "--json")
    assert listed.returncode == 0, listed.stderr
    return {row["thread_id"]: row["status"] for row in json.loads(listed.stdout)}


def test_a_verified_answer_is_stored_listed_shown_and_its_history_read(postgres_url: str) -> None:
    done = run_cli(
        "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", postgres_url,
        "--thread-id", "demo", "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["status"] == "verified"
    assert threads_of(postgres_url) == {"demo": "verified"}
    shown = json.loads(run_cli("show", "demo", "--db", postgres_url, "--json").stdout)
    assert (shown["answer"], shown["steps"]) == ("1970", 4)
    history = json.loads(run_cli("history", "demo", "--db", postgres_url, "--json").stdout)
    assert len(history) == checkpoint_count(postgres_url, "demo") > 4
    again = run_cli(
        "ask", "Another?", "--model", "graph.testing:demo_model", "--db", postgres_url,
        "--thread-id", "demo",
    )  # fmt: skip
    assert again.returncode == 2 and "thread demo already exists" in again.stderr
    first_reason = next(row for row in history if row["node"] == "reason")
    fork = run_cli(
        "resume", "demo", "--db", postgres_url, "--from", first_reason["checkpoint_id"], "--json"
    )
    assert fork.returncode == 0, fork.stderr
    assert (json.loads(fork.stdout)["status"], json.loads(fork.stdout)["steps"]) == ("verified", 4)
    assert checkpoint_count(postgres_url, "demo") > len(history)


def test_an_episode_killed_in_one_process_is_resumed_from_another(
    postgres_url: str, tmp_path: Path
) -> None:
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=1.0)
    whole = run_cli("ask", DEMO_QUESTION, "--model", model, "--db", postgres_url,
                    "--thread-id", "whole")  # fmt: skip
    assert whole.returncode == 0, whole.stderr
    killed_episode(postgres_url, model, "killed", 4)
    assert threads_of(postgres_url)["killed"] == "interrupted"
    resumed = run_cli("resume", "killed", "--db", postgres_url, "--json")
    assert resumed.returncode == 0, resumed.stderr
    result = json.loads(resumed.stdout)
    assert (result["status"], result["steps"], result["answer"]) == ("verified", 4, "1970")
    assert [step["index"] for step in result["trajectory"]] == [1, 2, 3, 4]
    assert checkpoint_count(postgres_url, "killed") == checkpoint_count(postgres_url, "whole")
    assert threads_of(postgres_url) == {"whole": "verified", "killed": "verified"}


def test_approve_and_reject_at_once_exactly_one_wins_and_a_rejected_write_never_runs(
    postgres_url: str, postgres_library_url: str, tmp_path: Path
) -> None:
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    paused = run_cli(
        "ask", RESERVE_QUESTION, "--env", "library", "--patron", "P1003", "--model", model,
        "--db", postgres_url, "--library-db", postgres_library_url, "--thread-id", "race",
    )  # fmt: skip
    assert paused.returncode == 5, paused.stderr
    sides = {
        "approve": start_cli("resume", "race", "--db", postgres_url, "--approve"),
        "reject": start_cli("resume", "race", "--db", postgres_url, "--reject", "not today"),
    }
    outcomes = {name: finish(process) for name, process in sides.items()}
    rows = audit_log(postgres_library_url, thread_id="race")
    decided = [row["detail"]["type"] for row in rows if row["event"] == "decision"]
    assert len(decided) == 1, (decided, outcomes)
    loser = "reject" if decided[0] == "approve" else "approve"
    code, _, err = outcomes[loser]
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    held = reservations(postgres_library_url)
    assert [r["copy_id"] for r in held] == (["W22"] if decided[0] == "approve" else [])
    executed = [row for row in rows if row["event"] == "executed"]
    assert len(executed) == (1 if decided[0] == "approve" else 0)
    assert untruths(rows, held) == []


def test_two_resumes_at_once_one_drives_and_the_other_is_told_who(
    postgres_url: str, tmp_path: Path
) -> None:
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=2.0)
    killed_episode(postgres_url, model, "twice", 2)
    racers = [start_cli("resume", "twice", "--db", postgres_url, "--json") for _ in range(2)]
    (won, won_out, _), (lost, _, lost_err) = sorted(finish(racer) for racer in racers)
    assert (won, lost) == (0, 2), (won_out, lost_err)
    assert LOST_RACE in lost_err and len(lost_err.strip().splitlines()) == 1
    assert json.loads(won_out)["status"] == "verified"


def test_a_unique_thread_id_prefix_names_the_thread_on_postgres(postgres_url: str) -> None:
    for thread in ("abcd-1111", "abcd-2222", "ab_d-3333"):
        done = run_cli(
            "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", postgres_url,
            "--thread-id", thread,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
    shown = run_cli("show", "abcd-1", "--db", postgres_url, "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["thread_id"] == "abcd-1111"
    shown = run_cli("show", "ab_d", "--db", postgres_url, "--json")  # "_" is no wildcard
    assert shown.returncode == 0 and json.loads(shown.stdout)["thread_id"] == "ab_d-3333"
    both = run_cli("history", "abcd", "--db", postgres_url)
    assert both.returncode == 2 and both.stdout == ""
    assert both.stderr.count("\n") == 1
    assert "thread id prefix 'abcd' names 2 episodes" in both.stderr
    assert "abcd-1111" in both.stderr and "abcd-2222" in both.stderr
