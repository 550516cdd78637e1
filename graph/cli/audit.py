"""`react-agent audit THREAD_ID`: a library episode's audit log (`graph.episodes.audit`)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from typing import Any

from graph import terminal
from graph.agent import build_agent
from graph.cli.command_guard import damage_reported
from graph.episodes.audit import INHERITED, NONE_OF_ITS_OWN, audit_rows, copied_from
from graph.episodes.runner import open_checkpointer
from graph.store.locations import DB_HELP, checkpoint_location


def format_row(row: Mapping[str, Any]) -> str:
    """One audit row as one line: id, time, event, request, actor, step and detail."""
    detail = terminal.line(json.dumps(row["detail"], ensure_ascii=False, sort_keys=True))
    request = row.get("request_id") or "-"
    actor = terminal.line(row.get("actor") or "-")
    return (
        f"#{row['audit_id']:<4} {row['recorded_at']}  {row['event']:<16} {request:<13} "
        f"{actor:<24} step {row['step_index']:<3} {detail}"
    )


@damage_reported
def cmd_audit(args: argparse.Namespace) -> int:
    """Print a thread's audit rows (library episodes)."""
    agent = build_agent("library", open_checkpointer(checkpoint_location(args.db), create=False))
    path, rows = audit_rows(agent, args.thread_id, args.library_db)
    if args.json:
        print(terminal.dumps(rows, default=str))
        return 0
    print(f"Audit log of thread {args.thread_id} ({path}):")
    inherited = [row for row in rows if row.get("inherited_from")]
    for source in dict.fromkeys(str(row["inherited_from"]) for row in inherited):
        print(INHERITED.format(source=source, thread_id=args.thread_id))
        for row in inherited:
            if row["inherited_from"] == source:
                print(format_row(row))
    own = [row for row in rows if not row.get("inherited_from")]
    if inherited and own:
        print(f"Rows of thread {args.thread_id} itself:")
    for row in own:
        print(format_row(row))
    if not own:
        _, others = copied_from(agent, args.thread_id)
        sources = others or list(dict.fromkeys(str(row["inherited_from"]) for row in inherited))
        if sources:
            print(NONE_OF_ITS_OWN.format(sources=", ".join(sources)))
        else:
            print("(no rows: the episode proposed no write action)")
    return 0


def register(commands: Any) -> None:
    """Add `react-agent audit THREAD_ID [--db] [--library-db] [--json]` to the CLI's
    subcommands."""
    audit = commands.add_parser("audit", help="print a library or MCP episode's audit log")
    audit.add_argument("thread_id")
    audit.add_argument("--db", help=DB_HELP)
    audit.add_argument(
        "--library-db",
        help="the thread's library database with its password (the thread stores the "
        "URL without it; else PGPASSWORD or ~/.pgpass give it)",
    )
    audit.add_argument("--json", action="store_true", help="print one JSON list")
    audit.set_defaults(func=cmd_audit)
