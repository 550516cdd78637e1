"""Agent Inbox's responses read as our decisions: accept -> approve, edit (with `args`) ->
edit (validated again), ignore -> reject, response -> reject with its text as the reason."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli

from graph.core.approval import IGNORED, Decision, parse_decision
from graph.errors import DecisionError
from tools.library.db import audit_log, reservations

MODEL = "graph.testing:library_demo_model"
QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."


@pytest.mark.parametrize(
    ("value", "decision"),
    [
        ([{"type": "accept", "args": None}], Decision("approve")),
        ({"type": "accept"}, Decision("approve")),
        ([{"type": "ignore", "args": None}], Decision("reject", message=IGNORED)),
        ([{"type": "response", "args": "not today"}], Decision("reject", message="not today")),
        (
            [{"type": "edit", "args": {"action": "reserve_copy", "args": {"copy_id": "W60"}}}],
            Decision("edit", name="reserve_copy", args={"copy_id": "W60"}),
        ),
        (
            {"type": "edit", "edited_action": {"name": "reserve_copy", "args": {}}},
            Decision("edit", name="reserve_copy", args={}),
        ),
    ],
)
def test_agent_inbox_responses_are_read_as_decisions(value: Any, decision: Decision) -> None:
    assert parse_decision(value) == decision


@pytest.mark.parametrize(
    "value",
    [
        [{"type": "response", "args": None}],
        [{"type": "edit", "args": "W60"}],
        [{"type": "accept"}, {"type": "ignore"}],
        [],
    ],
)
def test_a_malformed_agent_inbox_response_is_refused_in_one_line(value: Any) -> None:
    with pytest.raises(DecisionError) as refused:
        parse_decision(value)
    assert "\n" not in str(refused.value)


def _waiting(tmp_path: Path) -> str:
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", MODEL,
        "--db", str(tmp_path / "e.sqlite3"), "--library-db", str(tmp_path / "l.sqlite3"),
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    found = re.search(r"Thread: (\S+)", asked.stdout)
    assert found
    return found[1]


def test_a_response_rejects_with_its_text_and_an_edit_is_validated_again(
    tmp_path: Path,
) -> None:
    thread_id = _waiting(tmp_path)
    db = str(tmp_path / "e.sqlite3")
    bad = [{"type": "edit", "args": {"action": "reserve_copy", "args": {"copy_id": "nope!"}}}]
    refused = run_cli("resume", thread_id, "--db", db, "--decision", json.dumps(bad))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1, refused.stderr
    response = [{"type": "response", "args": "the patron changed their mind"}]
    done = run_cli("resume", thread_id, "--db", db, "--decision", json.dumps(response))
    assert done.returncode == 0, done.stderr
    assert "A human rejected reserve_copy[E60]: the patron changed their mind." in done.stdout
    decisions = [r["detail"] for r in audit_log(tmp_path / "l.sqlite3") if r["event"] == "decision"]
    assert decisions == [{"type": "reject", "message": "the patron changed their mind"}]
    assert reservations(tmp_path / "l.sqlite3") == []
