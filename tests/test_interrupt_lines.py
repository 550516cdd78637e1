"""What Ctrl-C prints when it comes while the command starts, outside any episode, or
again while the command ends; a model call does not hold it up."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from reliability_utils import ROOT, checkpoint_count, finish, start_cli, wait_for, write_model

from graph.cli.boundary import guarded
from graph.testing import DEMO_QUESTION, DEMO_REPLIES

pytestmark = pytest.mark.slow

STARTING = (
    "import os, signal, time\n"
    "import graph._start\n"
    "os.kill(os.getpid(), signal.SIGINT)\n"
    "time.sleep(5)\n"
)


def test_ctrl_c_while_the_command_starts_is_one_line_not_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-c", STARTING], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 130
    assert done.stderr == "react-agent: interrupted while starting; nothing was done\n"


def test_the_cli_puts_the_default_handler_back_once_started() -> None:
    import graph.cli  # noqa: F401

    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_ctrl_c_outside_an_episode_does_not_promise_a_resume(
    capsys: pytest.CaptureFixture[str],
) -> None:
    def command() -> int:
        raise KeyboardInterrupt

    assert guarded(command, ["bench", "verifier"]) == 130
    assert capsys.readouterr().err == "react-agent: interrupted\n"


def _interrupted_in_a_model_call(tmp_path: Path, presses: int) -> tuple[int, str, float]:
    """Ctrl-C pressed `presses` times, 0.3 s apart, during an 8 s model call: the exit
    status, stderr, and the seconds from the first press to the exit."""
    db = tmp_path / "episodes.sqlite3"
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=8)
    episode = start_cli("ask", DEMO_QUESTION, "--model", model, "--db", str(db), "--thread-id", "t")
    wait_for(lambda: checkpoint_count(db, "t") >= 2, what="the first model call")
    time.sleep(0.5)
    started = time.monotonic()
    for _ in range(presses):
        episode.send_signal(signal.SIGINT)
        time.sleep(0.3)
    code, _, err = finish(episode, timeout=60)
    return code, err, time.monotonic() - started


@pytest.mark.parametrize("presses", [1, 3])
def test_ctrl_c_in_a_model_call_stops_at_once_with_one_line(tmp_path: Path, presses: int) -> None:
    code, err, seconds = _interrupted_in_a_model_call(tmp_path, presses)
    # A press in the interpreter's last moments ends it by the signal itself (a shell
    # shows 130 for that too); never by a traceback.
    assert code in (130, -signal.SIGINT), err
    assert (err.count("\n"), "Traceback" in err) == (1, False), err
    assert err.startswith("react-agent: interrupted; thread t stopped at its last checkpoint")
    assert seconds < 4
