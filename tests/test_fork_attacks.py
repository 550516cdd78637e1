"""Attacks on time travel from the CLI: forks, edits and what the audit log keeps of them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from server_utils import LIBRARY_QUESTION, LIBRARY_SCRIPT, write_script

from graph import cli
from graph.agent import build_agent
from graph.episodes.history import checkpoint_rows
from graph.episodes.runner import local_actor, open_checkpointer, snapshot
from tools.library.db import audit_log


@pytest.fixture
def paused(db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """A library episode paused at its approval request, started from the CLI."""
    model = write_script(tmp_path / "library.json", LIBRARY_SCRIPT)
    library = tmp_path / "library.sqlite3"
    args = ["ask", "--env", "library", LIBRARY_QUESTION, "--model", model, "--db", str(db_path)]
    status = cli.main([*args, "--library-db", str(library), "--thread-id", "t", "--json"])
    assert status == 5
    capsys.readouterr()
    return {"db": str(db_path), "library": library}


def head(db: str) -> str:
    agent = build_agent("library", open_checkpointer(db))
    return str(snapshot(agent, "t").config["configurable"]["checkpoint_id"])


def approval_point(db: str) -> str:
    agent = build_agent("library", open_checkpointer(db))
    (row,) = [r for r in checkpoint_rows(agent, "t") if r["next"] == ["review"]]
    return str(row["checkpoint_id"])


def test_a_refused_edit_state_leaves_the_thread_as_it_was(
    paused: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    db, before = paused["db"], head(paused["db"])
    at = approval_point(db)
    for extra in (["--max-model-turns", "20"], ["--request", "R1"]):
        status = cli.main(
            [
                "resume",
                "t",
                "--db",
                db,
                "--from",
                at,
                "--edit-state",
                "get_copy_status[E17]",
                *extra,
            ]
        )
        assert status == 2, capsys.readouterr()
        assert head(db) == before
    assert [r["event"] for r in audit_log(paused["library"], thread_id="t")] == ["proposed"]


def test_every_fork_and_settings_change_from_one_checkpoint_is_in_the_audit_log(
    paused: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """Two forks from one checkpoint, each changing the same setting the same way, are
    four events, not one fork and one change with their replays skipped."""
    db, at = paused["db"], approval_point(paused["db"])
    change = ["--max-model-turns", "9", "--change-settings"]
    for _ in range(2):
        assert cli.main(["resume", "t", "--db", db, "--from", at, *change, "--json"]) == 5
        json.loads(capsys.readouterr().out)
    events = [r["event"] for r in audit_log(paused["library"], thread_id="t")]
    assert (events.count("fork"), events.count("settings_changed")) == (2, 2)


@pytest.mark.parametrize("flag", ["--from", "--request"])
def test_a_blank_checkpoint_or_request_is_refused_not_taken_as_none(
    paused: dict[str, Any], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--from "$CHECKPOINT" --approve` with the variable unset must not approve the
    original's pending request in place of a fork's."""
    db, before = paused["db"], head(paused["db"])
    with pytest.raises(SystemExit) as stopped:
        cli.main(["resume", "t", "--db", db, flag, "", "--approve"])
    assert stopped.value.code == 2
    assert "must not be blank" in capsys.readouterr().err
    assert head(db) == before
    assert [r["event"] for r in audit_log(paused["library"], thread_id="t")] == ["proposed"]


def test_a_huge_unreadable_edit_is_refused_in_a_short_line(
    paused: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    db, before = paused["db"], head(paused["db"])
    edit = "search_catalog[" + "a" * 100_000 + "]"
    assert cli.main(["resume", "t", "--db", db, "--edit-state", edit]) == 2
    err = capsys.readouterr().err
    assert "cannot use 'search_catalog[aaa" in err and len(err) < 1_000
    assert head(db) == before


def test_a_write_proposed_by_edit_state_is_credited_to_the_person_who_edited(
    paused: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """`--edit-state` puts a person's action where the model's was: its `proposed` row
    names them and says it was an edit of state (it used to say `agent`)."""
    db, at = paused["db"], approval_point(paused["db"])
    edit = ["--edit-state", "reserve_copy[W22]"]
    status = cli.main(["resume", "t", "--db", db, "--from", at, *edit])
    assert status == 5, capsys.readouterr()
    rows = [r for r in audit_log(paused["library"], thread_id="t") if r["event"] == "proposed"]
    assert [(r["actor"], r["detail"]) for r in rows] == [
        ("agent", {"action": "reserve_copy", "args": {"copy_id": "E17"}}),
        (
            local_actor("cli"),
            {"action": "reserve_copy", "args": {"copy_id": "W22"}, "source": "edit_state"},
        ),
    ]
    capsys.readouterr()
    assert cli.main(["audit", "t", "--db", db]) == 0
    assert "edit_state" in capsys.readouterr().out.splitlines()[-1]


def test_an_edit_of_state_is_recorded_with_its_fork_even_for_a_read(
    paused: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """An `--edit-state` to a read-only action has no `proposed` row: its fork row says
    what the person put in place of the model's action, and where."""
    db, at = paused["db"], approval_point(paused["db"])
    status = cli.main(
        ["resume", "t", "--db", db, "--from", at, "--edit-state", "get_copy_status[E17]"]
    )
    assert status in (0, 3, 5), capsys.readouterr()
    (fork,) = [r for r in audit_log(paused["library"], thread_id="t") if r["event"] == "fork"]
    assert fork["actor"] == local_actor("cli")
    assert fork["detail"]["edited_action"] == "get_copy_status[E17]"
    assert fork["detail"]["edited_from"] == at != fork["detail"]["from_checkpoint"]
