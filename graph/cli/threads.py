"""`show` and `threads`: read episodes back from the checkpoint database."""

from __future__ import annotations

import argparse
import json

from graph.cli.episodes import open_agent
from graph.cli.output import print_episode, print_threads


def cmd_show(args: argparse.Namespace) -> int:
    """Print an episode's trajectory and state."""
    from graph.runner import episode_result

    agent, _ = open_agent(args.env, args.db)
    result = episode_result(agent, args.thread_id)
    if args.json:
        print(json.dumps(result, ensure_ascii=False, default=str))
    else:
        print_episode(result)
    return 0


def cmd_threads(args: argparse.Namespace) -> int:
    """List the episodes in the database."""
    from graph.runner import episode_result, list_threads

    agent, saver = open_agent(args.env, args.db)
    rows = []
    for thread_id in list_threads(saver):
        result = episode_result(agent, thread_id)
        rows.append({k: result[k] for k in ("thread_id", "status", "steps", "question")})
    if args.json:
        print(json.dumps(rows, ensure_ascii=False))
    else:
        print_threads(rows)
    return 0
