"""A verifier that raises (a defect, say a number too long to read) does not fail the run:
the episode ends `unverified` with stop reason `verifier_error`, the answer kept and the
error named in the finish step, exit 3; the thread has ended (a resume does not repeat the
failure), and the CLI says so in one line naming a crash log with the traceback."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

import graph.verifier
from graph.cli import main
from graph.testing import DEMO_QUESTION
from tools.base import Evidence, Verdict


def _failing_verifier(question: str, answer: str, evidence: Sequence[Evidence]) -> Verdict:
    raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")


@pytest.fixture
def failing_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(graph.verifier, "verify_answer", _failing_verifier)


def _ask(db: Path, *flags: str) -> int:
    return main(
        ["ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db), *flags]
    )


@pytest.mark.usefixtures("failing_verifier")
def test_a_failing_verifier_ends_the_episode_unverified_with_the_error_named(
    db_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        assert _ask(db_path, "--json") == 3
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "unverified"
    assert result["stop_reason"] == "verifier_error"
    assert result["answer"] == "1970"
    assert result["verdict"] is None
    finish = result["trajectory"][-1]
    assert finish["action"] == "Finish" and finish["argument"] == "1970"
    assert finish["observation"].startswith("Not checked: the verifier failed (ValueError:")
    assert "4300 digits" in finish["observation"]
    assert any(record.exc_info for record in caplog.records), "no traceback was logged"

    thread_id = result["thread_id"]
    assert main(["resume", thread_id, "--db", str(db_path)]) == 2
    assert "already ended (unverified)" in capsys.readouterr().err
    assert main(["show", thread_id, "--db", str(db_path), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["stop_reason"] == "verifier_error"
    assert shown["trajectory"] == result["trajectory"]
    assert main(["threads", "--db", str(db_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(row["thread_id"], row["status"]) for row in rows] == [(thread_id, "unverified")]


@pytest.mark.usefixtures("failing_verifier")
def test_the_cli_says_the_answer_was_not_checked(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ask(db_path) == 3
    printed = capsys.readouterr()
    assert "Answer (NOT verified): 1970" in printed.out
    assert "Stopped: verifier_error" in printed.out
    assert "Not checked: the verifier failed (ValueError:" in printed.out
    [line] = printed.err.splitlines()
    assert line.startswith("react-agent: the answer check failed (ValueError: Exceeds the limit")
    log = Path(line.split("the traceback is in ")[1].split(" (please")[0])
    assert "raise ValueError" in log.read_text() and "command: react-agent ask" in log.read_text()
