"""`react-agent history THREAD_ID`: an episode's checkpoints (`graph.episodes.history`)."""

from __future__ import annotations

import argparse
from typing import Any

from graph import terminal
from graph.agent import build_agent
from graph.cli.command_guard import damage_reported
from graph.episodes.history import FORK_TAIL, checkpoint_rows
from graph.episodes.runner import open_checkpointer
from graph.store.locations import DB_HELP, checkpoint_location, db_command


def format_rows(rows: list[dict[str, Any]]) -> str:
    """The history as a table under a header, one checkpoint a line (`*` marks the
    current branch)."""
    lines = [f"  {'CHECKPOINT':<36} {'STEP':>4}  {'TIME':<8}  {'NODE':<9} SUMMARY"]
    for row in rows:
        mark = "*" if row["current"] else " "
        when = str(row["created_at"] or "")[11:19]
        step = "" if row["step"] is None else str(row["step"])
        lines.append(
            f"{mark} {row['checkpoint_id']}  {step:>3}  {when}  {row['node']:<9} "
            f"{terminal.line(row['summary'])}"
        )
    return "\n".join(lines)


@damage_reported
def cmd_history(args: argparse.Namespace) -> int:
    """Print a thread's checkpoints.

    Any of the agents can read any thread: they share the state schema and
    the graph's shape, and listing runs no node.
    """
    agent = build_agent("wikipedia", open_checkpointer(checkpoint_location(args.db), create=False))
    rows = checkpoint_rows(agent, args.thread_id)
    if args.json:
        print(terminal.dumps(rows, default=str))
    else:
        print(format_rows(rows))
        fork = db_command("react-agent", "resume", args.thread_id, db=args.db, tail=FORK_TAIL)
        print(f"Fork with: {fork}")
    return 0


def register(commands: Any) -> None:
    """Add `react-agent history THREAD_ID [--db] [--json]` to the CLI's subcommands."""
    history = commands.add_parser("history", help="list an episode's checkpoints (time travel)")
    history.add_argument("thread_id")
    history.add_argument("--db", help=DB_HELP)
    history.add_argument("--json", action="store_true", help="print one JSON list")
    history.set_defaults(func=cmd_history)
