"""The example notes MCP server for tests: its stdio command, or a streamable HTTP process
on 127.0.0.1 (stopped by its process id)."""

from __future__ import annotations

import json
import shlex
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "examples" / "notes_server.py"
QUESTION = "Who is the release manager of release 2.4?"
READ_SCRIPT = [
    "Thought: Search the notes.\nAction: search_notes[release]",
    'Thought: Read note 1.\nAction: get_note[{"note_id": 1}]',
    "Thought: The note names the manager.\nAction: Finish[Mira Okafor]",
]
ADD_QUESTION = "Add a note that the standup moves to 10:00 on Tuesdays; what is its id?"
ADD_ACTION = 'add_note[{"title": "Standup", "body": "The standup moves to 10:00 on Tuesdays."}]'
ADD_SCRIPT = [
    f"Thought: Add the note.\nAction: {ADD_ACTION}",
    "Thought: It was added.\nAction: Finish[4]",
]


def stdio_command(notes: Path, *extra: str) -> str:
    """The command line of the notes server on stdio, on the database `notes`."""
    return shlex.join([sys.executable, str(SERVER), "--db", str(notes), *extra])


def newcomer_dir(work: Path) -> Path:
    """`work` set up like a clone's root for the docs' commands: `examples/` and a
    `.venv/bin/python` that runs this interpreter (wherever the test's environment is)."""
    work.mkdir(parents=True, exist_ok=True)
    (work / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    python = work / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} "$@"\n', encoding="utf-8")
    python.chmod(0o755)
    return work


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def http_server(notes: Path, port: int | None = None) -> Iterator[str]:
    """The notes server on streamable HTTP; yields its URL, stops it afterwards."""
    port = port or free_port()
    process = start_http(notes, port)
    try:
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(process)


def start_http(notes: Path, port: int) -> subprocess.Popen[bytes]:
    """Start the notes server on `port` and wait until it accepts connections."""
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--db", str(notes), "--http", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError("the notes server exited at start") from None
            time.sleep(0.1)
    stop(process)
    raise RuntimeError("the notes server did not listen within 30 s")


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a server this test started, by its process id."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def notes_rows(notes: Path) -> list[tuple[int, str, str]]:
    """(id, title, status) of every note."""
    conn = sqlite3.connect(notes)
    try:
        return conn.execute("SELECT id, title, status FROM notes ORDER BY id").fetchall()
    finally:
        conn.close()


def write_script(path: Path, replies: list[str]) -> str:
    """A scripted model file; returns its `--model` spec."""
    path.write_text(json.dumps(replies), encoding="utf-8")
    return f"scripted:{path}"
