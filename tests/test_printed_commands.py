"""Every command the CLI prints names the checkpoint database it needs, so it works when
copied into a shell in another directory; a PostgreSQL password is never printed."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from graph.cli import main
from graph.cli.command_guard import resume_command
from graph.cli.output import resume_hint
from graph.testing import DEMO_QUESTION

USAGE = 2
AWAITING = 5
LIBRARIAN = "graph.testing:library_demo_model"
HOLD = "Please reserve a paper copy of 《红楼梦》 for me."
URL = "postgresql://ann:s3cret@db.example/episodes"
SHOWN = "postgresql://ann:***@db.example/episodes"


@pytest.fixture
def two_dirs(tmp_path: Path) -> tuple[Path, Path]:
    here, elsewhere = tmp_path / "here dir", tmp_path / "elsewhere"
    here.mkdir()
    elsewhere.mkdir()
    return here, elsewhere


def printed(out: str, prefix: str) -> list[str]:
    """The command a line starting with `prefix` prints, as words (alternatives dropped)."""
    line = next(row for row in out.splitlines() if row.startswith(prefix))
    return shlex.split(line.removeprefix(prefix).split(" --approve |")[0])


def test_resume_with_names_a_relative_react_agent_db_so_it_works_elsewhere(
    two_dirs: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here, elsewhere = two_dirs
    monkeypatch.chdir(here)
    monkeypatch.setenv("REACT_AGENT_DB", "rel.sqlite3")
    library = ["--library-db", str(here / "lib.sqlite3")]
    assert main(["ask", "--env", "library", HOLD, "--model", LIBRARIAN, *library]) == AWAITING
    words = printed(capsys.readouterr().out, "Resume with: ")
    assert words[3:5] == ["--db", str(here / "rel.sqlite3")]
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("REACT_AGENT_DB")
    assert main([*words[1:], "--approve", "--model", LIBRARIAN]) == 0
    assert "Answer (verified)" in capsys.readouterr().out
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize("how", ["flag", "variable"])
def test_fork_with_and_thread_exists_name_the_database(
    how: str,
    two_dirs: tuple[Path, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    here, elsewhere = two_dirs
    monkeypatch.chdir(here)
    where = ["--db", "rel.sqlite3"] if how == "flag" else []
    if how == "variable":
        monkeypatch.setenv("REACT_AGENT_DB", "rel.sqlite3")
    ask = ["ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--thread-id", "t1"]
    assert main([*ask, *where]) == 0
    assert main(["history", "t1", *where]) == 0
    fork = printed(capsys.readouterr().out, "Fork with: ")
    path = str(here / "rel.sqlite3")
    db = shlex.quote(path)
    assert fork == ["react-agent", "resume", "t1", "--db", path, "--from", "CHECKPOINT_ID"]
    assert main([*ask, *where]) == USAGE
    err = capsys.readouterr().err
    assert f"`react-agent resume t1 --db {db}`" in err
    assert f"`react-agent resume t1 --db {db} --from CHECKPOINT_ID`" in err
    assert f"`react-agent history t1 --db {db}`" in err
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("REACT_AGENT_DB", raising=False)
    assert main(["history", *fork[2:5]]) == 0
    assert "Fork with: " in capsys.readouterr().out


def test_a_password_in_a_postgres_url_is_hidden_in_printed_commands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for hint in (resume_hint("t1", "R1", URL), resume_command("t1", URL)):
        assert "s3cret" not in hint and SHOWN in hint
        assert "give the real URL, or set REACT_AGENT_DB" in hint
    monkeypatch.setenv("REACT_AGENT_DB", URL)
    assert "s3cret" not in resume_command("t1", None) and SHOWN in resume_command("t1", None)
    plain = "postgresql://ann@db.example/episodes"
    assert resume_command("t1", plain) == f"react-agent resume t1 --db {plain}"


def test_a_password_in_a_postgres_url_is_hidden_in_errors_and_crash_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    boom = tmp_path / "boom.py"
    boom.write_text(f"def factory():\n    raise KeyError({URL!r})\n")
    code = main(["ask", "Who?", "--model", f"{boom}:factory", "--db", URL])
    err = capsys.readouterr().err
    assert code == 1 and "s3cret" not in err and SHOWN in err
    log = Path(err.split("the traceback is in ", 1)[1].split(" (", 1)[0])
    text = log.read_text(encoding="utf-8")
    assert "s3cret" not in text and f"--db {SHOWN}" in text


def test_thread_exists_on_a_postgres_saver_hides_the_password_and_says_so() -> None:
    from sqlalchemy.engine import make_url

    from graph.store.locations import thread_exists_message
    from graph.store.pg_connection import label

    url = make_url(URL)  # what a PostgreSQL saver keeps as `.url`
    message = thread_exists_message("t1", label(url), url)
    assert "s3cret" not in message and f"--db '{SHOWN}'" in message
    assert "give the real URL, or set REACT_AGENT_DB" in message
