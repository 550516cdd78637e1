"""Ctrl-C while a live Wikipedia request hangs: the command stops at once and resumes.

The graph runs its nodes off the main thread, where SIGINT is not delivered:
before, `ask` went on waiting for the hanging request through its whole retry
budget (four 10 s attempts and the backoff, about 50 s) before it stopped.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path

import pytest
from hostile_http import Answer, HostileServer
from reliability_utils import start_cli

from graph.cli import main

pytestmark = pytest.mark.slow

SCRIPT = ["Thought: Open it.\nAction: Search[X]", "Thought: Done.\nAction: Finish[Hi]"]
PAGE = {"query": {"pages": [{"pageid": 1, "ns": 0, "title": "X", "extract": "Hi there."}]}}


def test_ctrl_c_during_a_hanging_live_request_stops_at_once_and_the_thread_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    script = tmp_path / "script.json"
    script.write_text(json.dumps(SCRIPT))
    database = str(tmp_path / "episodes.sqlite3")
    with HostileServer(Answer(kind="drip", drip_interval_s=0.2)) as server:
        command = ["ask", "What is X?", "--thread-id", "t1", "--db", database]
        command += ["--model", f"scripted:{script}", "--source", "live"]
        command += ["--wiki-api-url", server.url]
        process = start_cli(*command)
        waited = time.monotonic()
        while server.requests == 0 and time.monotonic() - waited < 60:
            time.sleep(0.05)
        time.sleep(0.5)
        sent = time.monotonic()
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=60)
        assert time.monotonic() - sent < 5
        assert process.returncode == 130, err
        assert f"react-agent resume t1 --db {database}" in err
        server.answer = Answer(body=json.dumps(PAGE).encode())
        code = main(["resume", "t1", "--db", database, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert code != 1, result
    assert result["trajectory"][0]["observation"] == "Hi there."
