"""The prompt cache is per process and checked against the state: a resumed episode
builds, in a new process, the very prompts an uninterrupted one builds."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.testing import DEMO_QUESTION

pytestmark = pytest.mark.slow

RECORDER = "tests/data/prompt_recorder.py:recorder"
THREAD = "0c6f3f2e-5a8b-4d7e-9a51-3f1b2c4d5e6f"


def prompts(log: Path) -> list[tuple[int, str]]:
    lines = [line.split() for line in log.read_text().splitlines()]
    return [(int(turn), digest) for turn, digest in lines]


def test_a_killed_and_resumed_episode_sees_the_prompts_of_a_straight_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    straight_log, resumed_log = tmp_path / "straight.log", tmp_path / "resumed.log"
    monkeypatch.setenv("PROMPT_LOG", str(straight_log))
    straight = run_cli("ask", DEMO_QUESTION, "--db", str(tmp_path / "a.db"), "--model", RECORDER)
    assert straight.returncode == 0, straight.stderr
    db = str(tmp_path / "b.db")
    monkeypatch.setenv("PROMPT_LOG", str(resumed_log))
    monkeypatch.setenv("DIE_AT_TURN", "2")
    # Saved before each next step (`sync`): under `async`, the Wikipedia default, a kill may
    # land before the last save finished, and the resume repeats that step by design.
    killed = run_cli(
        "ask", DEMO_QUESTION, "--db", db, "--model", RECORDER, "--thread-id", THREAD,
        "--durability", "sync",
    )  # fmt: skip
    assert killed.returncode == 9, killed.stderr
    monkeypatch.delenv("DIE_AT_TURN")
    resumed = run_cli("resume", THREAD, "--db", db)
    assert resumed.returncode == 0, resumed.stderr
    assert [turn for turn, _ in prompts(resumed_log)] == [0, 1, 2, 3]
    assert prompts(resumed_log) == prompts(straight_log)
