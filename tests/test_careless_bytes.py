"""Bytes that are not UTF-8 text (or no bytes at all), on the command line and from a model.

A shell passes `$'\\xff'` through as a byte Python decodes to a lone surrogate
(`\\udcff`); such a string cannot be stored in SQLite or written as UTF-8. A
command given one must refuse it in one line; a crash log must still be
written; a model's reply holding a lone surrogate must not end the episode.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_utils import ROOT, run_cli

from graph.cli import main
from graph.testing import DEMO_QUESTION

USAGE = 2
UNEXPECTED = 1
DEMO = ("--model", "graph.testing:demo_model")
NOT_TEXT = "is not UTF-8 text"


def _one_line(done: object, status: int, says: str) -> None:
    stderr = done.stderr  # type: ignore[attr-defined]
    assert "Traceback" not in stderr
    assert done.returncode == status, stderr  # type: ignore[attr-defined]
    assert stderr.count("\n") == 1 and says in stderr, stderr


@pytest.mark.parametrize(
    "args",
    [
        ("ask", "Who \udcff directed it?", *DEMO),
        ("ask", DEMO_QUESTION, *DEMO, "--db", "a\udcffb.sqlite3"),
        ("show", "thread-\udcff"),
        ("history", "thread-\udcff"),
        ("resume", "thread", "--reject", "no \udcff"),
    ],
    ids=["question", "db-path", "show-thread", "history-thread", "reject-reason"],
)
def test_an_argument_that_is_not_utf8_is_refused_in_one_line(
    args: tuple[str, ...], tmp_path: Path
) -> None:
    done = run_cli(*args, cwd=tmp_path)
    _one_line(done, USAGE, NOT_TEXT)
    assert "\\xff" in done.stderr and "\\udc" not in done.stderr
    assert not any(tmp_path.glob("a*b.sqlite3"))


def test_a_crash_log_is_written_when_the_command_line_is_not_utf8(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "boom.py").write_text('def factory():\n    raise RuntimeError("b\\udcffm")\n')
    status = main(["ask", "Who?", "--model", f"{tmp_path / 'boom.py'}:factory"])
    err = capsys.readouterr().err
    assert status == UNEXPECTED and err.count("\n") == 1 and "Traceback" not in err
    log = Path(err.split("the traceback is in ", 1)[1].split(" (", 1)[0])
    assert "RuntimeError: b\\udcffm" in log.read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_model_reply_with_a_lone_surrogate_does_not_end_the_episode(tmp_path: Path) -> None:
    replies = [
        "Thought: \ud800 first.\nAction: Search[The Prestige (film)\udcff]",
        "Thought: found.\nAction: Finish[Christopher Nolan \udcff]",
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps(replies), encoding="ascii")  # JSON escapes keep them
    db = tmp_path / "episodes.sqlite3"
    done = run_cli("ask", DEMO_QUESTION, "--model", f"scripted:{script}", "--db", str(db))
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr
    assert done.returncode in (0, 3), done.stderr
    thread = done.stdout.rsplit("Thread: ", 1)[1].strip()
    shown = run_cli("show", thread, "--db", str(db), "--json")
    assert shown.returncode in (0, 3), shown.stderr
    assert "\ufffd" in shown.stdout


def test_a_question_from_a_closed_standard_input_is_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" -m graph.cli ask - <&-', sys.executable],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    _one_line(done, USAGE, "standard input is closed")
