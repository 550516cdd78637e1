"""Paths the system will not take, given to any flag that takes one.

A name longer than the system allows, a symlink that points at itself, a
`~user` with no such user, a file used as a directory, a device that is full,
a `.env` that is not text, a script with no replies: each is one line naming
the problem (exit 2, or 74 for output that cannot be written), never an
"unexpected error", and nothing is left behind.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.testing import DEMO_QUESTION

USAGE = 2
LONG = "n" * 300
TOO_LONG = "File name too long"
LOOP = "Too many levels of symbolic links"
NO_USER = "~no-such-user-x7/"
DEMO = ("--model", "graph.testing:demo_model")
LIBRARY = ("ask", "Please reserve a paper copy of 《红楼梦》 for me.", "--env", "library")
LIBRARY_MODEL = ("--model", "graph.testing:library_demo_model")
QA = (
    "bench", "qa", "--model", "graph.evaluation.oracles:hotpot_oracle_model",
    "--n", "1", "--seeds", "1",
    "--methods", "react", "--no-progress",
)  # fmt: skip


def _loop(folder: Path) -> None:
    (folder / "loop").symlink_to("loop")


def _png(folder: Path) -> None:
    (folder / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n")


def _bad_env(folder: Path) -> None:
    (folder / ".env").write_bytes(b"\xff\xfeK\x00E\x00Y\x00=\x00")


def _empty_script(folder: Path) -> None:
    (folder / "s.json").write_text("[]", encoding="utf-8")


CASES: list[tuple[str, tuple[str, ...], str, Callable[[Path], object] | None]] = [
    ("db-too-long", ("threads", "--db", LONG), TOO_LONG, None),
    ("ask-db-too-long", ("ask", DEMO_QUESTION, *DEMO, "--db", LONG), TOO_LONG, None),
    ("db-no-user", ("ask", DEMO_QUESTION, *DEMO, "--db", NO_USER + "e.db"), NO_USER, None),
    ("db-loop", ("ask", DEMO_QUESTION, *DEMO, "--db", "loop"), LOOP, _loop),
    ("db-under-a-file", ("ask", DEMO_QUESTION, *DEMO, "--db", "img.png/e.db"), "img.png", _png),
    ("reset-loop", ("library", "reset", "--library-db", "loop"), LOOP, _loop),
    ("reset-too-long", ("library", "reset", "--library-db", LONG), TOO_LONG, None),
    ("library-db-loop", (*LIBRARY, *LIBRARY_MODEL, "--library-db", "loop"), LOOP, _loop),
    ("library-db-no-user", (*LIBRARY, *LIBRARY_MODEL, "--library-db", NO_USER), NO_USER, None),
    ("verifier-out-too-long", ("bench", "verifier", "--out", LONG), TOO_LONG, None),
    ("qa-out-too-long", (*QA, "--out", LONG), TOO_LONG, None),
    ("qa-out-under-a-file", (*QA, "--out", "img.png/run"), "img.png", _png),
    ("model-file-too-long", ("ask", "Who?", "--model", LONG + ".py:f"), TOO_LONG, None),
    ("model-file-no-user", ("ask", "Who?", "--model", NO_USER + "m.py:f"), NO_USER, None),
    ("env-file-not-text", ("threads",), ".env", _bad_env),
    ("script-no-replies", ("ask", "Who?", "--model", "scripted:s.json"), "no reply", _empty_script),
]  # fmt: skip


def test_a_state_directory_that_is_not_utf8_is_one_line(tmp_path: Path) -> None:
    state = os.fsdecode(bytes(tmp_path) + b"/st\xff")
    env = dict(os.environ, XDG_STATE_HOME=state)
    done = subprocess.run(
        [sys.executable, "-m", "graph.cli", "ask", DEMO_QUESTION, *DEMO],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == USAGE, done.stderr
    assert done.stderr.count("\n") == 1 and "its path is not UTF-8 text" in done.stderr


@pytest.mark.parametrize(
    ("args", "says", "prepare"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_path_the_system_will_not_take_is_one_line(
    args: tuple[str, ...], says: str, prepare: Callable[[Path], object] | None, tmp_path: Path
) -> None:
    if prepare:
        prepare(tmp_path)
    before = sorted(os.listdir(tmp_path))
    done = run_cli(*args, cwd=tmp_path)
    assert "Traceback" not in done.stderr and "unexpected error" not in done.stderr, done.stderr
    assert done.returncode == USAGE, done.stderr
    assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.slow
def test_verifier_results_that_cannot_be_written_are_one_line(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("this system has no /dev/full")
    done = run_cli("bench", "verifier", "--out", "/dev/full", cwd=tmp_path)
    assert done.returncode == USAGE, done.stderr
    assert done.stderr == "react-agent: --out: cannot write /dev/full: No space left on device\n"
