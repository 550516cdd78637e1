"""No password of a database or server URL is stored in a thread or printed."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cli_utils import run_cli

from graph.cli.output import resume_hint
from graph.context import WikipediaContext
from graph.errors import AgentError
from graph.remote.client import connect
from graph.remote.episodes import RemoteRun, start_episode

SECRET = "s3cret-Pw-71"
CLOSED_PORT_URL = f"http://watcher:{SECRET}@127.0.0.1:9"


def outputs(*runs: Any) -> str:
    return "".join(run.stdout + run.stderr for run in runs)


def test_printed_server_urls_hide_their_password() -> None:
    hint = resume_hint("t1", "r1", server=CLOSED_PORT_URL)
    assert SECRET not in hint and "watcher:***@127.0.0.1:9" in hint and "give the real URL" in hint
    for command in (["show", "t1"], ["resume", "t1", "--approve"], ["ask", "q?"]):
        shown = run_cli(*command, "--server", CLOSED_PORT_URL)
        assert shown.returncode == 2 and len(shown.stderr.strip().splitlines()) == 1, shown.stderr
        assert "watcher:***@" in shown.stderr and SECRET not in outputs(shown), shown.stderr
    refused = run_cli("show", "t1", "--server", f"ftp://watcher:{SECRET}@127.0.0.1:9")
    assert refused.returncode == 2 and SECRET not in outputs(refused), refused.stderr


class KnowsEveryThread(BaseHTTPRequestHandler):
    """A LangGraph server that holds every thread id it is asked about."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        asked = json.loads(self.rfile.read(length) or b"{}")
        body = json.dumps([{"thread_id": found} for found in asked.get("ids") or []]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        """Quiet."""


def test_a_thread_that_exists_on_the_server_is_refused_without_the_password() -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), KnowsEveryThread)
    serving = threading.Thread(target=server.serve_forever, daemon=True)
    serving.start()
    try:
        url = f"http://watcher:{SECRET}@127.0.0.1:{server.server_address[1]}"
        taken = run_cli("ask", "q?", "--thread-id", "t1", "--server", url)
        with pytest.raises(AgentError) as refused:  # what Python callers get
            start_episode(connect(url), "wikipedia", "q?", WikipediaContext(), RemoteRun("t"), "t1")
    finally:
        server.shutdown()
        server.server_close()
    assert SECRET not in str(refused.value) and "watcher:***@" in str(refused.value)
    assert taken.returncode == 2 and "already exists" in taken.stderr, taken.stderr
    assert "--server 'http://watcher:***@127.0.0.1:" in taken.stderr, taken.stderr
    assert SECRET not in outputs(taken)
