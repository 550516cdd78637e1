"""Start and stop a local `langgraph dev` server for tests, with no outside traffic;
and the scripted library episode the server and history tests share.

The server runs in a scratch working directory that links to the repository's
`graph/` and `tools/` and reads the repository's own `langgraph.json`, so the
server's `.langgraph_api/` registry never lands in the repository. It runs in
its own process group, which `stop_server` ends by its id.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from langgraph_sdk.client import SyncLangGraphClient
    from langgraph_sdk.schema import ThreadState

RESERVE_QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
LIBRARY_QUESTION = "今天 16:00 前，我能借到《数据库入门图解》纸质版吗？请告诉我去哪个馆、哪个书架。"
LIBRARY_SCRIPT = [
    "Thought: Find the paper edition in the catalogue.\nAction: search_catalog[数据库入门图解]",
    "Thought: Check the West copy's live status.\nAction: get_copy_status[W22]",
    "Thought: Hold a copy for the patron.\nAction: reserve_copy[E17]",
    "Thought: Check the West Library's hours today.\nAction: get_open_hours[West, 2026-09-26]",
    "Thought: How long is the walk?\nAction: estimate_walk[East Campus, West]",
    "Thought: Everything is checked.\nAction: Finish[按 14:01 查询，西馆 W22 当前可借，在 B-12 架；"
    "今天借阅台到 16:30，步行约 25 分钟。]",
]
EDIT_TO_W22 = {
    "decisions": [
        {"type": "edit", "edited_action": {"name": "reserve_copy", "args": {"copy_id": "W22"}}},
    ]
}

REPO = Path(__file__).resolve().parent.parent
LANGGRAPH = Path(sys.executable).parent / "langgraph"
START_TIMEOUT_S = 90.0
STOP_TIMEOUT_S = 15.0
QUIET_ENV = {
    "LANGGRAPH_CLI_NO_ANALYTICS": "1",
    "LANGGRAPH_NO_VERSION_CHECK": "true",
    "LANGSMITH_TRACING": "false",
    "LANGCHAIN_TRACING_V2": "false",
}
SECRETS = (
    "GROQ_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "LANGSMITH_API_KEY",
    "LANGCHAIN_API_KEY",
)


@dataclass
class Server:
    """A running `langgraph dev` process."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path
    db: Path | str
    started_in_s: float

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server's output, for failure messages."""
        text = self.log.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])


def write_script(path: Path, replies: list[str]) -> str:
    """Save scripted replies as JSON; returns the model spec that loads them."""
    path.write_text(json.dumps(replies, ensure_ascii=False), encoding="utf-8")
    return f"scripted:{path}"


def state_values(state: ThreadState) -> dict[str, Any]:
    """A thread state's values: a dict for our graphs (the SDK's type also allows a list)."""
    values = state["values"]
    assert isinstance(values, dict), values
    return values


def paused_library_thread(
    client: SyncLangGraphClient, library_db: Path, question: str, model: str
) -> tuple[str, str]:
    """A library thread a server run paused for approval: its id and request id."""
    context = {"model": model, "library_db": str(library_db)}
    thread_id = client.threads.create()["thread_id"]
    client.runs.wait(thread_id, "library", input={"question": question}, context=context)
    (item,) = client.threads.get_state(thread_id)["interrupts"]
    assert isinstance(item["value"], dict)
    return thread_id, str(item["value"]["request_id"])


def run_output(output: list[dict[str, Any]] | dict[str, Any]) -> dict[str, Any]:
    """A finished run's output: the final state's values, a dict for our graphs (the
    SDK's type also allows a list)."""
    assert isinstance(output, dict), output
    return output


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(root: Path, db: Path | str) -> dict[str, str]:
    """The server's environment: quiet, keyless, with its state under `root`."""
    env = {k: v for k, v in os.environ.items() if k not in SECRETS}
    env.update(QUIET_ENV)
    env["REACT_AGENT_DB"] = str(db)
    env["XDG_CACHE_HOME"] = str(root / "cache")
    env["XDG_STATE_HOME"] = str(root / "state")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH", "")]))
    return env


def start_server(
    root: Path, db: Path | str, jobs: int | None = None, config: Path | None = None
) -> Server:
    """Start `langgraph dev` on a free loopback port and wait until it answers (running
    at most `jobs` runs at once, if given; with `config` instead of the repository's
    `langgraph.json`, a file in `root / "work"` naming paths relative to it)."""
    workdir = root / "work"
    workdir.mkdir(parents=True, exist_ok=True)
    for name in ("graph", "tools"):
        link = workdir / name
        if not link.exists():
            link.symlink_to(REPO / name, target_is_directory=True)
    port = free_port()
    log = root / "server.log"
    command = [
        str(LANGGRAPH),
        "dev",
        "--no-browser",
        "--no-reload",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--config",
        str(config or REPO / "langgraph.json"),
        *(["--n-jobs-per-worker", str(jobs)] if jobs else []),
    ]
    started = time.monotonic()
    with log.open("wb") as output:
        process = subprocess.Popen(
            command,
            cwd=workdir,
            env=server_env(root, db),
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = Server(process, f"http://127.0.0.1:{port}", log, db, 0.0)
    deadline = started + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"langgraph dev exited with {process.returncode}:\n{server.log_tail()}"
            )
        try:
            if httpx.get(f"{server.url}/ok", timeout=1.0).status_code == 200:
                server.started_in_s = time.monotonic() - started
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    stop_server(server)
    raise RuntimeError(
        f"langgraph dev did not answer in {START_TIMEOUT_S:.0f} s:\n{server.log_tail()}"
    )


@contextmanager
def serving(root: Path) -> Iterator[Server]:
    """A server on a fresh checkpoint file in `root` (`episodes.sqlite3`), stopped after."""
    running = start_server(root, root / "episodes.sqlite3")
    try:
        yield running
    finally:
        stop_server(running)


ANSI = re.compile(r"\x1b\[[0-9;]*m")
RUN_ENDED = "Background run "  # langgraph-api's log line for a run that ended, however


def wait_for_run_end(server: Server, run_id: str, timeout_s: float) -> bool:
    """Poll the server's log until it says the run `run_id` ended (True), for at most
    `timeout_s` (False: the caller goes on as after a fixed wait of that length)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        text = ANSI.sub("", server.log.read_text(encoding="utf-8", errors="replace"))
        if any(RUN_ENDED in line and f"run_id={run_id}" in line for line in text.splitlines()):
            return True
        time.sleep(0.1)
    return False


def stop_server(server: Server) -> None:
    """End the server's process group (the one `start_server` made), by its id."""
    group = server.process.pid  # start_new_session: the group's id is the leader's pid
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(group, sig)
        except ProcessLookupError:
            return
        try:
            server.process.wait(timeout=STOP_TIMEOUT_S)
            return
        except subprocess.TimeoutExpired:
            continue
