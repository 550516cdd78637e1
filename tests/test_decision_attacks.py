"""Decisions that go wrong on the way in: "rejected, not run" and "one decision per request".

Each test attacks a paused library episode on real SQLite files through the CLI's
`main`, the way the defect was found: a decision whose recording failed, text
that cannot be stored, a raw decision naming another request, a flag that
would have been ignored, and a malformed decision sent while someone else
holds the thread.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from reliability_utils import in_process, paused_reservation

from graph.store.leases import SqliteThreadLease
from tools.library.db import audit_log, reservations
from tools.library.environment import LibraryEnvironment

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Run:
    """`react-agent ARGS` in this process: exit status, stdout, stderr."""
    return in_process(capsys)


@pytest.fixture
def paused(tmp_path: Path, cli: Run) -> tuple[Path, Path, str]:
    """A library episode waiting for approval of reserve_copy[W22]: (db, library, request)."""
    return paused_reservation(tmp_path, cli)


def decisions(library: Path) -> list[dict[str, Any]]:
    return [
        row["detail"] for row in audit_log(library, thread_id="t") if row["event"] == "decision"
    ]


def one_line(err: str) -> None:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_a_decision_whose_recording_failed_is_not_carried_out_in_place_of_a_later_one(
    paused: tuple[Path, Path, str], cli: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, library, _ = paused
    record = LibraryEnvironment.record_audit

    def failing(self: LibraryEnvironment, event: str, detail: Any, ctx: Any) -> None:
        if event == "decision":
            raise sqlite3.OperationalError("database is locked")
        record(self, event, detail, ctx)

    monkeypatch.setattr(LibraryEnvironment, "record_audit", failing)
    for flag, value in (("--approve", None), ("--edit", '{"copy_id": "E17"}')):
        code, _, err = cli("resume", "t", "--db", str(db), flag, *([value] if value else []))
        assert code == 1 and "database is locked" in err
    monkeypatch.setattr(LibraryEnvironment, "record_audit", record)
    code, out, err = cli("resume", "t", "--db", str(db), "--reject", "not today")
    assert code == 3, err
    assert "A human rejected reserve_copy[W22]: not today. It was not run." in out
    assert reservations(library) == []
    assert decisions(library) == [{"type": "reject", "message": "not today"}]


def test_a_reject_reason_that_is_not_text_is_refused_and_the_next_decision_is_taken(
    paused: tuple[Path, Path, str], cli: Run
) -> None:
    db, library, _ = paused
    # a byte that is not UTF-8 on the command line arrives as a lone surrogate; the CLI
    # refuses such an argument before anything runs (`parse_decision` refuses it too)
    code, _, err = cli("resume", "t", "--db", str(db), "--reject", "caf\udce9 non")
    assert code == 2 and "is not UTF-8 text" in err, err
    one_line(err)
    code, _, err = cli("resume", "t", "--db", str(db), "--approve")
    assert code == 0, err
    assert [r["copy_id"] for r in reservations(library)] == ["W22"]
    assert decisions(library) == [{"type": "approve"}]


def test_a_raw_decision_naming_another_request_is_refused_and_runs_nothing(
    paused: tuple[Path, Path, str], cli: Run
) -> None:
    db, library, request = paused
    stale = json.dumps({"decisions": [{"type": "approve"}], "request_id": "Rdeadbeef0000"})
    code, _, err = cli("resume", "t", "--db", str(db), "--decision", stale)
    assert code == 2, err
    assert "request Rdeadbeef0000 is not pending on thread t" in err and request in err
    one_line(err)
    conflicting = json.dumps({"type": "approve", "request_id": request})
    code, _, err = cli(
        "resume", "t", "--db", str(db), "--decision", conflicting, "--request", "Rdeadbeef0000"
    )
    assert code == 2 and "--request" in err, err
    assert reservations(library) == [] and decisions(library) == []
    code, _, err = cli("resume", "t", "--db", str(db), "--decision", conflicting)
    assert code == 0, err
    assert [r["copy_id"] for r in reservations(library)] == ["W22"]


def test_edit_action_without_edit_is_refused_not_ignored(
    paused: tuple[Path, Path, str], cli: Run
) -> None:
    db, library, _ = paused
    code, _, err = cli("resume", "t", "--db", str(db), "--approve", "--edit-action", "search")
    assert code == 2 and "--edit-action" in err and "--edit" in err, err
    one_line(err)
    assert reservations(library) == [] and decisions(library) == []


def test_a_malformed_decision_is_refused_before_the_lease_is_touched(
    paused: tuple[Path, Path, str], cli: Run
) -> None:
    db, library, _ = paused
    lease = SqliteThreadLease(db)
    assert lease.acquire("t", "someone-deciding")
    malformed = [
        ("--reject", "x" * 4001),
        ("--decision", '{"type": "maybe"}'),
        ("--decision", "{not json"),
        ("--edit", "[1]"),
    ]
    for flag, value in malformed:
        code, _, err = cli("resume", "t", "--db", str(db), flag, value)
        assert code == 2 and "being run by another process" not in err, err
        one_line(err)
        holder = lease.holder("t")
        assert holder is not None and holder.owner == "someone-deciding"
    lease.release("t", "someone-deciding")
    assert reservations(library) == [] and decisions(library) == []


def test_a_crash_log_is_written_when_the_command_line_holds_bytes_that_are_not_utf8(
    tmp_path: Path,
) -> None:
    from graph.cli.boundary import write_crash_log

    path = write_crash_log(
        ValueError("caf\udce9"), ["resume", "t", "--reject", "caf\udce9"], tmp_path
    )
    assert "--reject caf\\udce9" in path.read_text(encoding="utf-8")


def test_parse_decision_refuses_a_reject_reason_that_is_not_text() -> None:
    """The API path: a resume value is parsed without the CLI's argument check."""
    from graph.core.approval import parse_decision
    from graph.errors import DecisionError

    with pytest.raises(DecisionError, match="not valid text: character 4"):
        parse_decision({"type": "reject", "message": "caf\udce9 non"})
