"""Settings that name files keep naming the same files when a thread is resumed from
another working directory: `ask` stores them as absolute paths, and the resume
command the CLI prints names the checkpoint database by its absolute path."""

from __future__ import annotations

import shlex
import signal
from pathlib import Path

import pytest
from cli_utils import run_cli
from reliability_utils import checkpoint_count, finish, start_cli, wait_for, write_model

from graph.cli.command_guard import resume_command
from graph.cli.output import resume_hint
from graph.testing import DEMO_QUESTION, DEMO_REPLIES
from tools.library.db import reservations

QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
FINISH = (
    "Finish[Copy E60 of 《红楼梦》 is on hold for you: collect it at the East Library (东馆) "
    "circulation desk.]"
)
SCRIPT = (
    "Thought: Check the copy.\nAction: get_copy_status[E60]\n---\n"
    "Thought: Hold it.\nAction: reserve_copy[E60]\n---\n"
    f"Thought: Done.\nAction: {FINISH}\n"
)
OTHER_SCRIPT = "Thought: Other.\nAction: Finish[W60 is available.]\n"


@pytest.mark.slow
def test_a_resume_from_another_directory_uses_the_files_the_thread_started_with(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "replies.txt").write_text(SCRIPT, encoding="utf-8")
    (second / "replies.txt").write_text(OTHER_SCRIPT, encoding="utf-8")
    db = tmp_path / "episodes.sqlite3"
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", "scripted:replies.txt",
        "--library-db", "lib.sqlite3", "--db", str(db), "--thread-id", "moved", cwd=first,
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    same = run_cli(
        "resume", "moved", "--db", str(db), "--library-db", "lib.sqlite3", cwd=first
    )  # the same relative flag from the same directory is no change
    assert "--change-settings" not in same.stderr
    approved = run_cli("resume", "moved", "--db", str(db), "--approve", cwd=second)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert "Answer (verified): Copy E60" in approved.stdout
    assert [row["copy_id"] for row in reservations(first / "lib.sqlite3")] == ["E60"]
    assert not (second / "lib.sqlite3").exists()


def test_the_printed_resume_command_works_from_another_directory(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "replies.txt").write_text(SCRIPT, encoding="utf-8")
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", "scripted:replies.txt",
        "--library-db", "lib.sqlite3", "--db", "my episodes.sqlite3", "--thread-id", "moved",
        cwd=first,
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    (hint,) = [line for line in asked.stdout.splitlines() if line.startswith("Resume with: ")]
    db = shlex.quote(str(first / "my episodes.sqlite3"))
    assert hint.startswith(f"Resume with: react-agent resume moved --db {db} --request R")
    command = shlex.split(hint.removeprefix("Resume with: ").split(" --approve |")[0])
    approved = run_cli(*command[1:], "--approve", cwd=second)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert [row["copy_id"] for row in reservations(first / "lib.sqlite3")] == ["E60"]
    assert not (second / "my episodes.sqlite3").exists()


@pytest.mark.slow
def test_the_resume_command_after_ctrl_c_works_from_another_directory(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=1.5)
    episode = start_cli(
        "ask", DEMO_QUESTION, "--model", model, "--db", "it's.sqlite3", "--thread-id", "int",
        cwd=first,
    )  # fmt: skip
    wait_for(lambda: checkpoint_count(first / "it's.sqlite3", "int") >= 3, what="a step")
    episode.send_signal(signal.SIGINT)
    code, _, err = finish(episode)
    assert code == 130, err
    db = shlex.quote(str(first / "it's.sqlite3"))
    assert f"Resume it with: react-agent resume int --db {db}\n" in err
    write_model(tmp_path / "slow.json", DEMO_REPLIES)
    command = shlex.split(err.split("Resume it with: ")[1])
    resumed = run_cli(*command[1:], cwd=second)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert not (second / "it's.sqlite3").exists()


def test_a_resume_command_is_terminal_safe_and_keeps_a_url_as_given(tmp_path: Path) -> None:
    hostile = str(tmp_path / "ep\x1b[2J\u202e.sqlite3")
    for printed in (resume_hint("t", "R1", hostile), resume_command("t", hostile)):
        assert not any(char in printed for char in "\x1b\u202e"), printed
        assert "\\x1b[2J\\u202e.sqlite3" in printed
    url = "postgresql://user@db.example:5432/episodes"
    assert resume_command("t", url) == f"react-agent resume t --db {url}"
    assert resume_hint("t", "", None, "http://127.0.0.1:2024").startswith(
        "react-agent resume t --server http://127.0.0.1:2024 --approve"
    )
