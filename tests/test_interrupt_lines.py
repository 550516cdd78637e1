"""What Ctrl-C prints when it comes while the command starts, or outside any episode."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from reliability_utils import ROOT

from graph.cli.boundary import guarded

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
