"""`--approvals deny` on a fork or resume after a write was approved: the write runs at
most once overall, only under an approval recorded for that very request, and the
output says which decision governed it.

Each test drives a library episode on real SQLite files through the CLI's `main`:
approve `reserve_copy[W22]`, then fork (or resume) with `--approvals deny` from the
checkpoints around the approval.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from reliability_utils import in_process, paused_reservation

from graph.agent import build_agent
from graph.episodes.audit import untruths
from graph.episodes.history import checkpoint_rows
from graph.episodes.runner import local_actor, open_checkpointer
from tools.library.backend import LibraryBackend
from tools.library.db import audit_log, reservations

Run = Callable[..., tuple[int, str, str]]
DENY = ("--approvals", "deny", "--change-settings")
GOVERNED = "Decision 3: approve by {actor} (request {request}) governed this action"


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Run:
    """`react-agent ARGS` in this process: exit status, stdout, stderr."""
    return in_process(capsys)


@pytest.fixture
def paused(tmp_path: Path, cli: Run) -> tuple[str, Path, str]:
    """A library episode waiting for approval of reserve_copy[W22]: (db, library, request)."""
    db, library, request = paused_reservation(tmp_path, cli)
    return str(db), library, request


def checkpoint_before(db: str, node: str) -> str:
    """The checkpoint on the current branch whose next node is `node` (the write's turn)."""
    rows = checkpoint_rows(build_agent("library", open_checkpointer(db)), "t")
    (row,) = [r for r in rows if r["current"] and r["next"] == [node] and r["step"] >= 7]
    return str(row["checkpoint_id"])


def write_step(out: str) -> dict[str, Any]:
    trajectory = json.loads(out)["trajectory"]
    return next(step for step in trajectory if step["action"] == "reserve_copy")


def assert_truthful(library: Path) -> None:
    held = reservations(library)
    assert [r["copy_id"] for r in held] == ["W22"]
    assert untruths(audit_log(library), held) == []


@pytest.mark.parametrize("node", ["review", "act", "observe"])
def test_a_deny_fork_around_an_approval_runs_nothing_twice_and_names_the_governing_decision(
    paused: tuple[str, Path, str], cli: Run, node: str
) -> None:
    """Before the decision the fork's new request is denied; after it (before or after
    the write) the original approval governs, and the output says so."""
    db, library, request = paused
    code, _, err = cli("resume", "t", "--db", db, "--approve")
    assert code == 0, err
    at = checkpoint_before(db, node)
    code, out, err = cli("resume", "t", "--db", db, "--from", at, *DENY, "--json")
    assert code in (0, 3), err
    step = write_step(out)
    if node == "review":
        assert step["observation"].startswith("reserve_copy[W22] was not run")
        assert step["request_id"] != request and step["decided_by"] == "policy:deny"
        assert "decision_note" not in step
    else:
        assert step["request_id"] == request and step["decided_by"] == local_actor("cli")
        assert "approvals=deny" in step["decision_note"]
    assert_truthful(library)
    code, text, err = cli("show", "t", "--db", db)
    assert code in (0, 3), err
    governed = GOVERNED.format(actor=local_actor("cli"), request=request)
    assert (governed in text) == (node != "review")


def test_an_approved_write_stopped_before_it_ran_runs_once_under_its_approval(
    paused: tuple[str, Path, str], cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C after the approval was recorded, before the reservation: a resume that turns
    approvals to deny still carries out that approval (final, recorded for this very
    request), once, saying it did so; a second fork from there reserves nothing new."""
    db, library, request = paused

    def stopped(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    with monkeypatch.context() as patched:
        patched.setattr(LibraryBackend, "reserve", stopped)
        assert cli("resume", "t", "--db", db, "--approve")[0] == 130
    assert reservations(library) == []
    code, out, err = cli("resume", "t", "--db", db, *DENY)
    assert code == 0, err
    assert "Observation 3: Reserved: copy W22" in out
    assert GOVERNED.format(actor=local_actor("cli"), request=request) in out
    assert_truthful(library)
    code, out, err = cli("resume", "t", "--db", db, "--from", checkpoint_before(db, "act"))
    assert code == 0, err
    assert "Already done" in write_step_text(out)
    assert_truthful(library)


def write_step_text(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("Observation 3:"))


@pytest.mark.parametrize("fork", [False, True])
@pytest.mark.parametrize(
    ("decision", "approvals"),
    [(("--reject", "do not reserve"), "auto"), (("--approve",), "deny")],
)
def test_a_decision_given_with_a_policy_is_refused_not_overridden(
    paused: tuple[str, Path, str],
    cli: Run,
    fork: bool,
    decision: tuple[str, ...],
    approvals: str,
) -> None:
    """`--reject ... --approvals auto --change-settings` used to record `policy:auto` and
    reserve the copy the person had just rejected (a fork did so, then said the decision
    was not used); now the command is refused in one line and nothing changes."""
    db, library, _ = paused
    where = ("--from", checkpoint_before(db, "review")) if fork else ()
    change = ("--approvals", approvals, "--change-settings")
    code, _, err = cli("resume", "t", "--db", db, *where, *decision, *change)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"a decision cannot be given with approvals={approvals}" in err
    assert reservations(library) == []
    assert [r["event"] for r in audit_log(library, thread_id="t")] == ["proposed"]
    code, out, err = cli("resume", "t", "--db", db, "--reject", "do not reserve", "--json")
    assert code in (3, 4), err
    assert write_step(out)["observation"].startswith("A human rejected reserve_copy[W22]")
    assert reservations(library) == []
