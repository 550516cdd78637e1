"""`react-agent --env mcp` as a user runs it, with the notes server as a real process:
a server that cannot start, a kill in the middle of a write, a server gone mid-episode."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from cli_utils import ROOT, run_cli
from mcp_utils import (
    ADD_QUESTION,
    ADD_SCRIPT,
    QUESTION,
    READ_SCRIPT,
    free_port,
    newcomer_dir,
    notes_rows,
    start_http,
    stdio_command,
    stop,
    write_script,
)
from reliability_utils import finish, wait_for
from transcripts import program

from tools.mcp.ledger import Ledger

UNKNOWN = "the outcome of this call is unknown"


def mcp_args(tmp_path: Path, server: str, script: list[str]) -> list[str]:
    model = write_script(tmp_path / "script.json", script)
    return [
        "--env", "mcp", "--mcp", server, "--mcp-db", str(tmp_path / "ledger.sqlite3"),
        "--db", str(tmp_path / "episodes.sqlite3"), "--model", model,
    ]  # fmt: skip


def test_the_readmes_mcp_command_answers_from_the_example_server(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (command,) = re.findall(r"`(\.venv/bin/react-agent ask --env mcp [^`]+)`", readme)
    work = newcomer_dir(tmp_path / "work")
    home = tmp_path / "home"  # a stdio server gets HOME, not XDG_STATE_HOME: its notes go here
    env = dict(os.environ, HOME=str(home), XDG_STATE_HOME=str(home / ".local" / "state"))
    done = subprocess.run(
        [*program(), *shlex.split(command)[1:], "--json"],
        cwd=work, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["answer"] == "Mira Okafor"
    assert (home / ".local" / "state" / "react-evidence-agent" / "notes.sqlite3").exists()


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("", "No such file or directory"),  # the script is missing
        ("print('not a protocol message')", "MCPError: Connection closed"),
        ("import time; time.sleep(60)", "no answer within 2 s"),
    ],
)
def test_a_server_that_cannot_start_or_speak_the_protocol_is_one_line(
    code: str, said: str, tmp_path: Path
) -> None:
    words = [sys.executable, "-c", code] if code else [sys.executable, str(tmp_path / "gone.py")]
    args = mcp_args(tmp_path, shlex.join(words), READ_SCRIPT)
    done = run_cli("ask", *args, "--mcp-timeout-s", "2", QUESTION)
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith("react-agent: the MCP server "), line
    assert " is not available: listing its tools failed: " in line and said in line, line


def killed_while_writing(tmp_path: Path, script: list[str]) -> tuple[list[str], str]:
    """Ask, pause for the write, approve it in a process killed (with its stdio server)
    while the server holds the write; returns the CLI arguments and the thread id."""
    notes = tmp_path / "notes.sqlite3"
    args = mcp_args(tmp_path, stdio_command(notes, "--write-delay", "60"), script)
    asked = run_cli("ask", *args, ADD_QUESTION, "--thread-id", "t")
    assert asked.returncode == 5, asked.stderr
    approving = subprocess.Popen(
        [sys.executable, "-m", "graph.cli", "resume", "t", "--approve", *args[-4:-2]],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    ledger = Ledger(tmp_path / "ledger.sqlite3")
    wait_for(lambda: bool(ledger.writes("t")), what="the write recorded as sent")
    os.killpg(approving.pid, signal.SIGKILL)
    finish(approving)
    assert [row["state"] for row in ledger.writes("t")] == ["sent"]
    return args, "t"


@pytest.mark.slow
def test_a_kill_during_a_write_then_resume_asks_a_human_instead_of_calling_again(
    tmp_path: Path,
) -> None:
    args, thread = killed_while_writing(tmp_path, ADD_SCRIPT)
    resumed = run_cli("resume", thread, *args[-4:-2], "--json")
    assert resumed.returncode == 3, resumed.stderr
    result = json.loads(resumed.stdout)
    assert UNKNOWN in result["answer"]
    assert UNKNOWN in result["trajectory"][0]["observation"]
    assert len(notes_rows(tmp_path / "notes.sqlite3")) == 3
    assert Ledger(tmp_path / "ledger.sqlite3").writes(thread)[0]["attempts"] == 1


@pytest.mark.slow
def test_an_idempotent_write_killed_midway_is_sent_again_on_resume(tmp_path: Path) -> None:
    script = [
        'Thought: Close it.\nAction: set_status[{"note_id": 1, "status": "done"}]',
        "Thought: It is done.\nAction: Finish[done]",
    ]
    args, thread = killed_while_writing(tmp_path, script)
    notes = tmp_path / "notes.sqlite3"
    faster = ["--mcp", stdio_command(notes), "--change-settings"]
    resumed = run_cli("resume", thread, *args[-4:-2], *faster, "--json")
    result = json.loads(resumed.stdout)
    assert resumed.returncode in (0, 3, 6), resumed.stderr
    assert result["trajectory"][0]["observation"].startswith("Note 1 is now done. (sent again")
    assert notes_rows(notes)[0] == (1, "Release 2.4", "done")
    (row,) = Ledger(tmp_path / "ledger.sqlite3").writes(thread)
    assert (row["state"], row["attempts"]) == ("done", 2)


@pytest.mark.slow
def test_a_server_gone_mid_episode_is_one_line_and_the_thread_resumes(tmp_path: Path) -> None:
    notes, port = tmp_path / "notes.sqlite3", free_port()
    args = mcp_args(tmp_path, f"http://127.0.0.1:{port}/mcp", ADD_SCRIPT)
    server = start_http(notes, port)
    try:
        asked = run_cli("ask", *args, ADD_QUESTION, "--thread-id", "t")
        assert asked.returncode == 5, asked.stderr
    finally:
        stop(server)
    gone = run_cli("resume", "t", "--approve", *args[-4:-2])
    assert gone.returncode == 2
    (line,) = gone.stderr.splitlines()
    assert line.startswith(f"react-agent: the MCP server 127.0.0.1:{port} is not available")
    server = start_http(notes, port)
    try:
        done = run_cli("resume", "t", "--approve", *args[-4:-2], "--json")
    finally:
        stop(server)
    assert done.returncode in (0, 6), done.stderr
    assert (
        json.loads(done.stdout)["trajectory"][0]["observation"]
        == "Added the note 'Standup' with id 4."
    )
    assert len(notes_rows(notes)) == 4
    audit = run_cli("audit", "t", *args[-4:-2])
    assert audit.returncode == 0, audit.stderr
    lines = audit.stdout.splitlines()
    assert lines[0] == f"Audit log of thread t (MCP ledger {tmp_path / 'ledger.sqlite3'}):"
    assert [line.split()[2] for line in lines[1:]] == ["proposed", "decision", "executed"]


def test_a_ledger_that_is_not_a_database_is_one_line_before_anything_runs(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.sqlite3"
    ledger.write_text("not a database", encoding="utf-8")
    args = mcp_args(tmp_path, stdio_command(tmp_path / "notes.sqlite3"), READ_SCRIPT)
    done = run_cli("ask", *args, QUESTION)
    assert done.returncode == 2
    assert done.stderr == (
        f"react-agent: cannot use {ledger} as the MCP ledger (--mcp-db): file is not a database\n"
    )
