"""The world `bench_reliability.py` attacks: scenarios, processes, and reading back
what they left.

Each scenario is an episode with settings that differ from the defaults; an
unkilled run of it (`reliability_checks.reference`) is what every trial of it must
end up as: the same trajectory and number of checkpoints, the same holds, the same
audit log (ids and times aside), and the settings it was asked with.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MODEL = f"{Path(__file__).resolve().with_name('reliability_model.py')}:slow_model"
LIBRARY_QUESTION = "请帮我预约《数据库入门图解》纸质版。"
WIKI_QUESTION = "In what year was the director of the film The Prestige born?"
LIBRARY_REPLIES = [
    "Thought: find it\nAction: search_catalog[数据库入门图解]",
    "Thought: check\nAction: get_copy_status[W22]",
    "Thought: the patron asked to reserve it\nAction: reserve_copy[W22]",
    "Thought: done\nAction: Finish[Copy W22 at West Library, shelf B-12 is reserved for you.]",
]
WIKI_REPLIES = [
    "Thought: I need the director of The Prestige first.\nAction: Search[The Prestige (film)]",
    "Thought: The first sentence names the director.\nAction: Lookup[directed]",
    "Thought: The director is Christopher Nolan.\nAction: Search[Christopher Nolan]",
    "Thought: He was born on 30 July 1970.\nAction: Finish[1970]",
]
DECISIONS = {
    "approve": ["--approve"],
    "reject": ["--reject", "not today"],
    "edit": ["--edit", '{"copy_id": "N30"}'],
}
LOST_RACE = "is being run by another process since"
KINDS = (
    "lost settings",
    "lost or duplicated steps",
    "steps repeated more than once",
    "corrupt databases",
    "reservations not matching",
    "audit rows",
)


@dataclass(frozen=True)
class Scenario:
    """One kind of episode: its environment, settings flags and (library) decision."""

    name: str
    env: str
    replies: list[str]
    flags: dict[str, str]
    decision: str = ""

    @property
    def question(self) -> str:
        """The question the episode answers."""
        return LIBRARY_QUESTION if self.env == "library" else WIKI_QUESTION


SCENARIOS = [
    Scenario(
        "wikipedia",
        "wikipedia",
        WIKI_REPLIES,
        {"max-tool-calls": "11", "max-repeats": "3", "durability": "async"},
    ),
    *(
        Scenario(
            f"library-{decision}",
            "library",
            LIBRARY_REPLIES,
            {"patron": "P1003", "max-model-turns": "9", "approvals": "ask"},
            decision,
        )
        for decision in DECISIONS
    ),
    Scenario("library-auto", "library", LIBRARY_REPLIES, {"patron": "P1003", "approvals": "auto"}),
    Scenario("library-deny", "library", LIBRARY_REPLIES, {"patron": "P1003", "approvals": "deny"}),
]


@dataclass
class Bench:
    """The temporary world every process of the bench shares.

    With `server` (a PostgreSQL URL) each trial's checkpoints and library live in
    databases of their own on that server, else in SQLite files of their own.
    """

    root: Path
    delay_s: float
    server: str = ""
    counts: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    references: dict[str, dict[str, Any]] = field(default_factory=dict)
    created: list[str] = field(default_factory=list)

    def databases(self, name: str) -> tuple[str, str]:
        """A trial's checkpoint and library databases: new files, or new PostgreSQL
        databases (dropped by `drop_databases`)."""
        if not self.server:
            folder = self.root / name
            folder.mkdir(exist_ok=True)
            return str(folder / "episodes.sqlite3"), str(folder / "library.sqlite3")
        import psycopg

        base = f"bench_{os.getpid()}_{name.replace('-', '_')}"
        names = [f"{base}_checkpoints", f"{base}_library"]
        with psycopg.connect(self.server, autocommit=True) as admin:
            for database in names:
                admin.execute(f'CREATE DATABASE "{database}"')
        with self.lock:
            self.created += names
        prefix = self.server.rsplit("/", 1)[0]
        return f"{prefix}/{names[0]}", f"{prefix}/{names[1]}"

    def drop_databases(self) -> None:
        """Drop every database `databases` created."""
        if not self.created:
            return
        import psycopg

        with psycopg.connect(self.server, autocommit=True) as admin:
            for database in self.created:
                admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')

    def env(self, scenario: Scenario, delay_s: float, write_delay_s: float) -> dict[str, str]:
        """The environment of one process: its own state and cache, the trial's model."""
        script = self.root / f"{scenario.env}.json"
        if not script.exists():
            script.write_text(json.dumps(scenario.replies, ensure_ascii=False), encoding="utf-8")
        keep = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
        return keep | {
            "XDG_STATE_HOME": str(self.root / "state"),
            "XDG_CACHE_HOME": str(self.root / "cache"),
            "REL_BENCH_SCRIPT": str(script),
            "REL_BENCH_DELAY_S": str(delay_s),
            "REL_BENCH_WRITE_DELAY_S": str(write_delay_s),
            "LANGSMITH_TRACING": "false",
            "PYTHONUNBUFFERED": "1",  # a killed process's printed steps reach the pipe
        }

    def count(self, kind: str, note: str) -> None:
        """Record one inconsistency."""
        with self.lock:
            self.counts[kind] += 1
            self.notes.append(f"{kind}: {note}")


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    """`python -m graph.cli ARGS` in the background."""
    return subprocess.Popen(
        [sys.executable, "-m", "graph.cli", *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def run(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """`python -m graph.cli ARGS` to the end: exit status, stdout, stderr."""
    process = start(args, env)
    out, err = process.communicate(timeout=600)
    return process.returncode, out, err


def checkpoints(db: str, thread_id: str) -> int:
    """How many checkpoints a thread has (0 before the database or table exists)."""
    found = _first(db, "SELECT COUNT(*) FROM checkpoints WHERE thread_id = ?", (thread_id,))
    return int(found[0]) if found else 0


def wait_until(condition: Callable[[], bool], process: subprocess.Popen[str], limit: float) -> bool:
    """Poll until `condition` holds (True) or the process ends or time runs out (False)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def kill_after(process: subprocess.Popen[str], seconds: float) -> str:
    """SIGKILL `process` after `seconds` unless it ended before; what it printed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.01)
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    return process.communicate()[0]


def episode_args(scenario: Scenario, db: str, library: str, thread_id: str) -> list[str]:
    """The `ask` command line of a scenario's episode."""
    flags = [item for key, value in scenario.flags.items() for item in (f"--{key}", value)]
    if scenario.env == "library":
        flags += ["--library-db", library]
    return [
        "ask", scenario.question, "--env", scenario.env, "--model", MODEL, "--db", db,
        "--thread-id", thread_id, *flags,
    ]  # fmt: skip


def finish_episode(bench: Bench, scenario: Scenario, db: str, thread_id: str) -> list[str]:
    """Resume until the episode ends (deciding as the scenario does); crashes noted."""
    env = bench.env(scenario, 0.0, 0.0)
    problems = []
    for _ in range(6):
        state = read_state(db, thread_id)
        if state is None or state["status"] not in ("running", "awaiting_approval"):
            break
        args = ["resume", thread_id, "--db", db]
        if state["status"] == "awaiting_approval":
            args += DECISIONS[scenario.decision]
        code, _, err = run(args, env)
        if code not in (0, 2, 3, 4, 5) or "Traceback" in err:
            problems.append(f"resume exited {code}: {err.strip()[-300:]}")
    return problems


def read_state(db: str, thread_id: str) -> dict[str, Any] | None:
    """The thread's result, settings and checkpoint count, read in this process."""
    from graph.agent import build_agent
    from graph.episodes.runner import episode_result, open_checkpointer, snapshot, stored_settings
    from graph.errors import AgentError

    if "://" not in db and not Path(db).exists():
        return None
    try:
        saver = open_checkpointer(db, create=False)
    except AgentError:
        return None  # a PostgreSQL database with no checkpoint yet
    try:
        agent = build_agent("wikipedia", saver)
        try:
            result = episode_result(agent, thread_id)
        except AgentError:
            return None
        result["settings"] = stored_settings(agent, snapshot(agent, thread_id))
        result["checkpoints"] = checkpoints(db, thread_id)
        return result
    finally:
        saver.close()


def library_rows(library: str, thread_id: str) -> tuple[list[Any], list[Any]]:
    """The thread's audit rows and the database's reservations."""
    from tools.library.db import audit_log, reservations

    return audit_log(library, thread_id=thread_id), reservations(library)


def leased(db: str, thread_id: str) -> bool:
    """Whether a process holds the thread's lease (it is driving the thread)."""
    return _first(db, "SELECT 1 FROM thread_leases WHERE thread_id = ?", (thread_id,)) is not None


def _first(location: str, query: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """The first row of a read (`?` markers) on an SQLite file or a PostgreSQL database;
    None when there is no row, or no database or table yet."""
    if "://" in location:
        return _first_postgres(location, query.replace("?", "%s"), params)
    try:
        conn = sqlite3.connect(f"{Path(location).resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    except sqlite3.Error:
        return None
    try:
        found: tuple[Any, ...] | None = conn.execute(query, params).fetchone()
        return found
    except sqlite3.Error:
        return None
    finally:
        conn.close()


def _first_postgres(url: str, query: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """`_first` on a PostgreSQL database (`%s` markers)."""
    import psycopg

    try:
        with psycopg.connect(url) as conn:
            return conn.execute(query, params).fetchone()
    except psycopg.Error:
        return None


def audit_has(library: str, event: str) -> bool:
    """Whether the library's audit log holds an `event` row yet."""
    return _first(library, "SELECT 1 FROM audit_log WHERE event = ?", (event,)) is not None
