"""What a newcomer hit on a first try (issue 31), each on real SQLite files through `main`:
a printed command that pastes, one status word per state, read-only files, an
unreachable server, plain refusals, thread id prefixes, a fresh install's `threads`."""

from __future__ import annotations

import io
import json
import shlex
import sqlite3
import stat
import sys
import time
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from reliability_utils import in_process, paused_reservation
from server_utils import free_port

from graph.testing import DEMO_QUESTION

Run = Callable[..., tuple[int, str, str]]
DEMO = ("--model", "graph.testing:demo_model")
STOP_AT_TURN_1 = """
from graph.testing import DEMO_REPLIES, ScriptedReActModel, turn_index


class StopsAtTurnOne(ScriptedReActModel):
    def _generate(self, messages, *args, **kwargs):
        if turn_index(messages) >= 1:
            raise KeyboardInterrupt
        return super()._generate(messages, *args, **kwargs)


def model():
    return StopsAtTurnOne(responses=DEMO_REPLIES)
"""


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Run:
    """`react-agent ARGS` in this process: exit status, stdout, stderr."""
    return in_process(capsys)


def one_line(err: str) -> None:
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_show_with_db_prints_a_resume_command_that_pastes(tmp_path: Path, cli: Run) -> None:
    db, _, request = paused_reservation(tmp_path, cli)
    code, out, _ = cli("show", "t", "--db", str(db))
    assert code == 0
    (hint,) = [line for line in out.splitlines() if line.startswith("Resume with: ")]
    words = shlex.split(hint.removeprefix("Resume with: ").split(" --approve |")[0])
    assert words == ["react-agent", "resume", "t", "--db", str(db), "--request", request]
    code, out, err = cli(*words[1:], "--approve", "--json")
    assert code == 0, err
    assert json.loads(out)["status"] == "verified"


def test_show_says_interrupted_as_threads_does(tmp_path: Path, cli: Run) -> None:
    db = tmp_path / "episodes.sqlite3"
    (tmp_path / "stops.py").write_text(STOP_AT_TURN_1, encoding="utf-8")
    model = f"{tmp_path / 'stops.py'}:model"
    code, _, _ = cli("ask", DEMO_QUESTION, "--model", model, "--db", str(db), "--thread-id", "i")
    assert code == 130
    _, out, _ = cli("threads", "--db", str(db), "--json")
    assert [row["status"] for row in json.loads(out)] == ["interrupted"]
    _, out, _ = cli("show", "i", "--db", str(db), "--json")
    assert json.loads(out)["status"] == "interrupted"
    _, out, _ = cli("show", "i", "--db", str(db))
    resume = f"Resume with: react-agent resume i --db {db}"
    assert f"Interrupted: no process runs it now. {resume}" in out


def test_a_read_only_checkpoint_file_is_refused_in_one_line(tmp_path: Path, cli: Run) -> None:
    db = tmp_path / "episodes.sqlite3"
    assert cli("ask", DEMO_QUESTION, *DEMO, "--db", str(db), "--thread-id", "a")[0] == 0
    with closing(sqlite3.connect(db)) as conn:  # the WAL folded in now, not by a late close
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    before = db.read_bytes()
    code, out, err = cli("ask", DEMO_QUESTION, *DEMO, "--db", str(db))
    assert code == 2 and out == "", err
    one_line(err)
    assert f"the checkpoint database {db} is read-only" in err
    assert db.read_bytes() == before
    code, out, _ = cli("show", "a", "--db", str(db), "--json")
    assert code == 0 and json.loads(out)["status"] == "verified"


def test_a_server_where_nothing_listens_is_said_within_two_seconds(cli: Run) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    started = time.monotonic()
    code, _, err = cli("show", "some-thread", "--server", url)
    elapsed = time.monotonic() - started
    assert code == 2
    one_line(err)
    assert f"cannot reach the LangGraph server at {url} (Connection refused)" in err
    assert elapsed < 2.0, elapsed


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        ('{"copy_id": 5}', "copy_id: input should be a valid string"),
        ('{"copyid": "W22"}', "copy_id: field required"),
    ],
)
def test_a_refused_edit_is_explained_in_the_words_of_edit(
    tmp_path: Path, cli: Run, edit: str, says: str
) -> None:
    db, _, _ = paused_reservation(tmp_path, cli)
    code, _, err = cli("resume", "t", "--db", str(db), "--edit", edit)
    assert code == 2
    one_line(err)
    assert says in err and "a JSON object with the field copy_id" in err, err
    assert """--edit '{"copy_id": "..."}'""" in err and "reserve_copy[" not in err
    assert cli("resume", "t", "--db", str(db), "--approve")[0] == 0


def test_bytes_that_are_not_utf8_are_shown_as_bytes(cli: Run) -> None:
    code, _, err = cli("ask", "Who \udcff\udcfe?")
    assert code == 2
    one_line(err)
    assert "'Who \\xff\\xfe?'" in err and "\\udc" not in err


def test_the_stdin_limit_is_told_as_it_is(cli: Run, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "why " * 1200 + "?"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    code, _, err = cli("ask", "-", *DEMO)
    assert code == 2
    one_line(err)
    assert "the question on standard input is longer than 4,000 characters" in err


def test_a_unique_thread_id_prefix_names_the_thread(tmp_path: Path, cli: Run) -> None:
    db = str(tmp_path / "episodes.sqlite3")
    for thread in ("abcd-1111", "abcd-2222", "abc"):
        assert cli("ask", DEMO_QUESTION, *DEMO, "--db", db, "--thread-id", thread)[0] == 0
    code, out, _ = cli("show", "abcd-1", "--db", db, "--json")
    assert code == 0 and json.loads(out)["thread_id"] == "abcd-1111"
    code, out, _ = cli("history", "abcd-2", "--db", db, "--json")
    assert code == 0 and json.loads(out)
    code, out, _ = cli("show", "abc", "--db", db, "--json")  # a whole id is never a prefix
    assert code == 0 and json.loads(out)["thread_id"] == "abc"
    code, out, err = cli("show", "abcd", "--db", db)
    assert code == 2 and out == ""
    one_line(err)
    assert "thread id prefix 'abcd' names 2 episodes" in err
    assert "abcd-1111" in err and "abcd-2222" in err


def test_threads_on_a_fresh_install_says_there_are_no_episodes(tmp_path: Path, cli: Run) -> None:
    code, out, err = cli("threads")
    assert code == 0 and err == ""
    assert out.startswith("No episodes yet (no checkpoint database at ")
    assert cli("threads", "--json") == (0, "[]\n", "")
    typo = tmp_path / "typo.sqlite3"
    code, _, err = cli("threads", "--db", str(typo))  # a named file that is not there
    assert code == 2 and f"no checkpoint database at {typo}" in err
