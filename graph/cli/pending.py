"""`react-agent pending`: every approval request waiting for a decision, across threads.

Read from the thread registry (threads `awaiting_approval`) and each such
thread's state; never creating a database. `--json` prints
`{"requests": [{thread_id, request_id, action, args, proposed_at, expires_at,
approvers, decide}]}`.

The agent, episode and library modules are imported inside the command: at the top they
would add about 1 s (LangGraph, SQLAlchemy) to every command's start-up (`react-agent
--help` takes 0.2 s; python -X importtime).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from graph import terminal
from graph.cli.command_guard import damage_reported
from graph.cli.episodes import open_agent
from graph.cli.output import resume_hint
from graph.cli.threads import listed_rows
from graph.store.locations import DB_HELP


def waiting_threads(args: argparse.Namespace) -> list[tuple[str, dict[str, Any], list[Any]]]:
    """The threads of `args.db` (of `args.env`, if given) that wait for a decision: id,
    state values and interrupt payloads."""
    from graph.agent import build_agent
    from graph.episodes.runner import snapshot

    rows = [row for row in listed_rows(args) if row["status"] == "awaiting_approval"]
    if not rows:
        return []
    agent, saver = open_agent(None, args.db, create=False)
    envs = {str(row["env"]) for row in rows}
    agents = {env: build_agent(env, saver) for env in envs}  # type: ignore[arg-type]
    found = []
    for row in rows:
        state = snapshot(agents.get(str(row["env"]), agent), str(row["thread_id"]))
        payloads = [item.value for item in state.interrupts]
        found.append((str(row["thread_id"]), dict(state.values), payloads))
    return found


@damage_reported
def cmd_pending(args: argparse.Namespace) -> int:
    """Print the pending requests (text, or one JSON object)."""
    from graph.episodes.inbox import ENTRY_KEYS, entries_of

    entries = entries_of(
        waiting_threads(args), lambda thread, request: resume_hint(thread, request, args.db)
    )
    if args.json:
        requests = [{key: entry[key] for key in ENTRY_KEYS} for entry in entries]
        print(terminal.dumps({"requests": requests}))
        return 0
    if not entries:
        print("No request waits for a decision.")
    for entry in entries:
        print_entry(entry)
    return 0


def print_entry(entry: dict[str, Any]) -> None:
    """One pending request as a few lines: what, when, who, the evidence, the command."""
    from tools.library.audit import utc_now

    arguments = terminal.line(json.dumps(entry["args"], ensure_ascii=False))
    print(f"Request {entry['request_id']} on thread {terminal.line(entry['thread_id'])}:")
    print(f"  {terminal.line(entry['action'])} {arguments}")
    expires = f"expires {entry['expires_at']}" if entry["expires_at"] else "never expires"
    if entry["expires_at"] and entry["expires_at"] <= utc_now():
        expires = f"expired {entry['expires_at']} (resume it without a decision)"
    print(f"  proposed at {entry['proposed_at'] or 'unknown'}, {expires}")
    approvers = ", ".join(entry["approvers"]) if entry["approvers"] is not None else "anyone"
    print(f"  may decide: {terminal.line(approvers)}")
    for row in entry["evidence"]:
        print(f"  [{row['id']}] {terminal.line(row['title'])}: {terminal.line(row['text'])}")
    print(f"  decide: {entry['decide']}")


def register(commands: Any) -> None:
    """Add `react-agent pending [--db] [--env] [--json]`."""
    pending = commands.add_parser("pending", help="list the requests waiting for a decision")
    pending.add_argument("--db", help=DB_HELP)
    pending.add_argument(
        "--env", choices=["wikipedia", "library"], help="only this environment's requests"
    )
    pending.add_argument("--json", action="store_true", help="print one JSON object")
    pending.set_defaults(func=cmd_pending)
