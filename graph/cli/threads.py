"""`show` and `threads`: read episodes back from the checkpoint database (never creating it)."""

from __future__ import annotations

import argparse
from typing import Any

from graph import terminal
from graph.cli.episodes import open_agent
from graph.cli.output import print_episode, print_threads
from graph.command_guard import damage_reported


@damage_reported
def cmd_show(args: argparse.Namespace) -> int:
    """Print an episode's trajectory and state."""
    from graph.runner import episode_result

    agent, _ = open_agent(args.env, args.db, create=False)
    result = episode_result(agent, args.thread_id)
    if args.json:
        print(terminal.dumps(result, default=str))
    else:
        print_episode(result)
    return 0


@damage_reported
def cmd_threads(args: argparse.Namespace) -> int:
    """List the episodes in the database, from the thread registry."""
    agent, _ = open_agent(args.env, args.db, create=False)
    rows = thread_rows(agent)
    if args.json:
        print(terminal.dumps(rows))
    else:
        print_threads(rows)
    return 0


def thread_rows(agent: Any) -> list[dict[str, Any]]:
    """Every episode as `thread_id`, `status`, `env`, `question`, `created_at`, `updated_at`:
    from the thread registry, without loading states. A thread the registry says is
    running while no live process holds its lease is `interrupted`; threads written
    before the registry existed are read from their state."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    from graph.runner import episode_result, list_threads, snapshot, stored_settings
    from graph.store.leases import lease_of
    from graph.store.registry import registry_of

    saver = agent.checkpointer
    registry = registry_of(saver)
    lease = lease_of(saver)
    registered = registry.rows() if registry is not None else []
    live = lease.live_holders() if lease is not None else {}
    rows: list[dict[str, Any]] = []
    for row in registered:
        status = row.status
        if status == "running" and row.thread_id not in live:
            status = "interrupted"
        rows.append(
            {
                "thread_id": row.thread_id,
                "status": status,
                "env": row.env,
                "question": row.question,
                "created_at": row.created_at,
                "updated_at": row.updated_at,
            }
        )
    known = {row.thread_id for row in registered}
    for thread_id in list_threads(saver) if isinstance(saver, SqliteSaver) else []:
        if thread_id in known:
            continue
        state = snapshot(agent, thread_id)
        result = episode_result(agent, thread_id)
        settings = stored_settings(agent, state)
        rows.append(
            {
                "thread_id": thread_id,
                "status": result["status"],
                "env": settings.get("env", ""),
                "question": result["question"],
                "created_at": None,
                "updated_at": state.created_at,
            }
        )
    return rows
