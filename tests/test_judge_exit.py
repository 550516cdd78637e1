"""A judge model that hangs holds neither the exit (past its timeout) nor Ctrl-C: the
call runs in a daemon thread that the caller stops waiting for."""

from __future__ import annotations

import signal
import threading
import time
from pathlib import Path

import pytest
from reliability_utils import finish, start_cli, wait_for

from graph.testing import DEMO_QUESTION, ScriptedReActModel
from graph.verifier.judge import judge

pytestmark = pytest.mark.slow

JUDGE = """
import pathlib, time
from graph.testing import ScriptedReActModel

MARK = pathlib.Path({mark!r})


class Slow(ScriptedReActModel):
    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if not MARK.exists():  # hangs on its first call only
            MARK.write_text("called")
            time.sleep(20)
        return super()._generate(messages, stop, run_manager, **kwargs)


def factory():
    return Slow(responses=["VERDICT: SUPPORTED"])
"""


def _slow_judge(tmp_path: Path) -> tuple[str, Path]:
    mark = tmp_path / "judge-called"
    (tmp_path / "slow_judge.py").write_text(JUDGE.format(mark=str(mark)))
    return f"{tmp_path / 'slow_judge.py'}:factory", mark


def test_a_judge_past_its_timeout_is_left_to_a_thread_that_does_not_hold_the_exit() -> None:
    verdict = {
        "supported": True,
        "evidence_ids": [],
        "reason": "rules",
        "missing": [],
        "grounding": "stated",
    }
    model = ScriptedReActModel(responses=["VERDICT: SUPPORTED"], delay_s=3.0)
    started = time.monotonic()
    judged = judge(model, "q?", "a", verdict, [], timeout_s=0.2)  # type: ignore[arg-type]
    assert time.monotonic() - started < 1.5
    assert "no reply within 0.2 s" in judged.note and judged.verdict == verdict
    others = [t for t in threading.enumerate() if t is not threading.current_thread()]
    assert all(thread.daemon for thread in others), others


def test_an_episode_whose_judge_hangs_past_the_time_budget_ends_at_once(
    tmp_path: Path,
) -> None:
    spec, mark = _slow_judge(tmp_path)
    db = str(tmp_path / "episodes.sqlite3")
    started = time.monotonic()
    episode = start_cli(
        "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--judge", spec,
        "--max-seconds", "4", "--db", db, "--thread-id", "t",
    )  # fmt: skip
    try:
        code, out, err = finish(episode, timeout=40)
    finally:
        episode.kill()  # a failed test leaves no process behind
    assert mark.exists() and code == 0, (out, err)  # the rules' verdict stands
    assert "Answer (verified): 1970" in out and "the verdict stands" in out and err == ""
    assert time.monotonic() - started < 15


def test_ctrl_c_during_a_judge_call_stops_at_once_and_the_thread_resumes(
    tmp_path: Path,
) -> None:
    spec, mark = _slow_judge(tmp_path)
    db = str(tmp_path / "episodes.sqlite3")
    demo = ["--model", "graph.testing:demo_model", "--db", db]
    episode = start_cli("ask", DEMO_QUESTION, *demo, "--judge", spec, "--thread-id", "t")
    try:
        wait_for(mark.exists, what="the judge call")
        time.sleep(0.3)
        pressed = time.monotonic()
        episode.send_signal(signal.SIGINT)
        code, _, err = finish(episode, timeout=40)
    finally:
        episode.kill()
    assert time.monotonic() - pressed < 4
    assert code in (130, -signal.SIGINT), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("react-agent: interrupted; thread t stopped at its last checkpoint")
    code, out, err = finish(start_cli("resume", "t", *demo[2:]), timeout=60)
    assert code == 0, (out, err)
    assert "Answer (verified): 1970" in out
