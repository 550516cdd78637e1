"""Refusals that must come before anything is read out or created: `show --env` that
names the wrong environment (as `resume` refuses it), `ask` with one file for both
databases."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.cli import main
from graph.testing import DEMO_QUESTION

USAGE = 2
DEMO = "graph.testing:demo_model"


def test_show_refuses_an_env_the_thread_is_not_as_resume_does(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--db", str(db_path)]
    assert main(["ask", DEMO_QUESTION, "--model", DEMO, "--thread-id", "w1", *args]) == 0
    capsys.readouterr()
    for command in ("show", "resume"):
        assert main([command, "w1", "--env", "library", *args]) == USAGE
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == "react-agent: thread w1 is a wikipedia episode, not library\n"
    assert main(["show", "w1", "--env", "wikipedia", *args]) == 0
    assert "Answer (verified): 1970" in capsys.readouterr().out


LIBRARIAN = "graph.testing:library_demo_model"
HOLD = "Please reserve a paper copy of 《红楼梦》 for me."


@pytest.mark.parametrize("how", ["flag", "variable", "other-spelling"])
def test_one_file_for_both_databases_is_refused_before_either_is_created(
    how: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    library = ["--library-db", "X" if how != "other-spelling" else f"{tmp_path}/./X"]
    where = [] if how == "variable" else ["--db", "X"]
    if how == "variable":
        monkeypatch.setenv("REACT_AGENT_DB", "X")
    code = main(["ask", "--env", "library", HOLD, "--model", LIBRARIAN, *where, *library])
    captured = capsys.readouterr()
    assert code == USAGE and captured.out == ""
    assert captured.err.count("\n") == 1 and "the same file" in captured.err
    assert str(tmp_path / "X") in captured.err
    assert list(tmp_path.iterdir()) == []
