"""A decision that comes after its request was answered (by someone else, a moment
earlier) is refused with the line that says so, whichever decision it is; decision
flags that do not go together are refused before anything runs (`--edit-action`
only means something with `--edit`: given with `--approve` it once was dropped
without a word and the proposed write ran as it was)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_utils import run_cli

from tools.library.db import audit_log, reservations

MODEL = "graph.testing:library_demo_model"
QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."


def _waiting(db: Path, library: Path) -> tuple[str, str]:
    """A thread awaiting approval of a reservation: its id and request id."""
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", MODEL,
        "--db", str(db), "--library-db", str(library),
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    thread_id = re.search(r"Thread: (\S+)", asked.stdout)
    request_id = re.search(r"request (R\w+)", asked.stdout)
    assert thread_id and request_id, asked.stdout
    return thread_id[1], request_id[1]


def _answered(db: Path, library: Path) -> tuple[str, str]:
    """A thread whose reservation request was approved and ran: its id and request id."""
    thread_id, request_id = _waiting(db, library)
    approved = run_cli("resume", thread_id, "--db", str(db), "--approve")
    assert approved.returncode == 0, approved.stderr
    return thread_id, request_id


def test_an_edit_of_an_answered_request_says_it_was_answered(tmp_path: Path) -> None:
    db, library = tmp_path / "episodes.sqlite3", tmp_path / "library.sqlite3"
    thread_id, request_id = _answered(db, library)
    late = run_cli("resume", thread_id, "--db", str(db), "--edit", '{"copy_id": "W60"}')
    assert late.returncode == 2
    assert late.stderr == (
        "react-agent: this episode is not waiting for an approval decision (its last "
        f"request, {request_id}, was already answered: approve at step 3)\n"
    )
    rejected = run_cli("resume", thread_id, "--db", str(db), "--reject", "no")
    assert rejected.returncode == 2 and rejected.stderr == late.stderr
    assert [row["copy_id"] for row in reservations(library)] == ["E60"]
    decisions = [
        row["detail"] for row in audit_log(library, thread_id) if row["event"] == "decision"
    ]
    assert decisions == [{"type": "approve"}]


@pytest.mark.parametrize(
    "decision",
    [("--approve",), ("--reject", "no"), ("--decision", '{"type": "approve"}'), ()],
    ids=["approve", "reject", "decision", "alone"],
)
def test_edit_action_without_edit_is_refused_and_nothing_runs(
    tmp_path: Path, decision: tuple[str, ...]
) -> None:
    db, library = tmp_path / "episodes.sqlite3", tmp_path / "library.sqlite3"
    thread_id, _ = _waiting(db, library)
    done = run_cli(
        "resume", thread_id, "--db", str(db), *decision, "--edit-action", "get_copy_status"
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == (
        "react-agent: --edit-action goes with --edit (the arguments of the action to run "
        "instead); nothing was run\n"
    )
    assert reservations(library) == []
    shown = run_cli("show", thread_id, "--db", str(db))
    assert "Awaiting approval" in shown.stdout, shown.stdout
