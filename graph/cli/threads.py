"""`show` and `threads`: read episodes back from the checkpoint database (never creating it).

`graph.episodes.runner` is imported inside the commands that read a state: at the top it
would add about 0.85 s (LangGraph) to `react-agent threads` and `--help`, which take
0.2 s (python -X importtime).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from graph import terminal
from graph.cli.command_guard import damage_reported
from graph.cli.episodes import open_agent
from graph.cli.output import print_episode, print_threads
from graph.cli.settings import thread_env
from graph.errors import DatabaseError
from graph.store.leases import SqliteThreadLease, driven, lease_of
from graph.store.locations import checkpoint_location
from graph.store.registry import ThreadRegistry, registry_of
from graph.store.tables import checkpointed_threads, connect_existing
from tools.dbfiles import CHECKPOINTS, DatabaseFileError, check_file

NO_EPISODES_YET = "No episodes yet (no checkpoint database at {db}): `react-agent ask QUESTION`."


@damage_reported
def cmd_show(args: argparse.Namespace) -> int:
    """Print an episode's trajectory and state."""
    from graph.episodes.runner import episode_result, snapshot, stored_settings

    agent, _ = open_agent(args.env, args.db, create=False)
    if args.env:  # refused as `resume` refuses it
        stored = stored_settings(agent, snapshot(agent, args.thread_id))
        thread_env(args.thread_id, stored.get("env"), args.env)
    result = episode_result(agent, args.thread_id)
    if result["status"] == "running" and driven(agent.checkpointer, args.thread_id) is not True:
        result["status"] = "interrupted"
    if args.json:
        print(terminal.dumps(result, default=str))
    else:
        print_episode(result, args.db)
    return 0


@damage_reported
def cmd_threads(args: argparse.Namespace) -> int:
    """List the episodes in the database (of one status, with `--status`), from the thread
    registry."""
    fresh = fresh_install(args)
    if fresh is not None:
        print("[]" if args.json else NO_EPISODES_YET.format(db=fresh))
        return 0
    rows = listed_rows(args)
    if getattr(args, "status", None):
        rows = [row for row in rows if row["status"] == args.status]
    if args.json:
        print(terminal.dumps(rows))
    else:
        print_threads(rows)
    return 0


def fresh_install(args: argparse.Namespace) -> Path | None:
    """The default checkpoint file when no episode has made it yet (no `--db` given)."""
    path = checkpoint_location(args.db).path
    return path if args.db is None and path is not None and not path.exists() else None


def listed_rows(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The episodes of `args.db` (of `args.env`, if given), from the thread registry."""
    if fresh_install(args) is not None:
        return []
    location = checkpoint_location(args.db)
    if location.path is None:
        rows = server_thread_rows(open_agent(args.env, args.db, create=False)[0])
    else:
        try:
            path = check_file(location.path, CHECKPOINTS, create=False)
        except DatabaseFileError as error:  # said as it is, not as damage (`damage_reported`)
            raise DatabaseError(str(error)) from None
        rows = thread_rows(path, lambda: open_agent(args.env, args.db, create=False)[0])
    if args.env:
        rows = [row for row in rows if row["env"] == args.env]
    return rows


def thread_rows(path: Path, agent_of: Callable[[], Any]) -> list[dict[str, Any]]:
    """Every episode in the checkpoint file `path` as `thread_id`, `status`, `env`,
    `question`, `created_at`, `updated_at`: from the thread registry, on plain SQLite
    connections, without loading states or the graph. Threads written before the
    registry existed are read from their state, with the agent `agent_of` opens (only
    then)."""
    registered = ThreadRegistry(path).rows()
    rows = _registered_rows(registered, SqliteThreadLease(path).live_holders())
    known = {row.thread_id for row in registered}
    conn = connect_existing(path)
    try:
        unregistered = [t for t in checkpointed_threads(conn) if t not in known]
    finally:
        conn.close()
    if unregistered:
        rows.extend(_rows_from_states(agent_of(), unregistered))
    return rows


def server_thread_rows(agent: Any) -> list[dict[str, Any]]:
    """Every episode of a database server's store, from the registry its saver carries
    (every thread there was written with the registry)."""
    registry = registry_of(agent.checkpointer)
    lease = lease_of(agent.checkpointer)
    registered = registry.rows() if registry is not None else []
    return _registered_rows(registered, lease.live_holders() if lease is not None else {})


def _registered_rows(registered: list[Any], live: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Registry rows as listing rows: a thread the registry says is running while no live
    process holds its lease is `interrupted`."""
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
    return rows


def _rows_from_states(agent: Any, thread_ids: list[str]) -> list[dict[str, Any]]:
    from graph.episodes.runner import episode_result, snapshot, stored_settings

    rows: list[dict[str, Any]] = []
    for thread_id in thread_ids:
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
