"""`ask`, `resume` and `show` with `--server URL`: the same commands through a LangGraph
server's API (`graph.remote`), so the episode lives on the server (Studio lists it) and
approvals go through it.

The flags mean what they mean locally: settings are validated here first and
go into the run's input; the output and exit statuses are the local ones (5
when paused for approval, with the `resume --server` command that answers).
What needs the local database (`--db`, `--from`, `--edit-state`,
`--change-settings`) is refused with one line.

`graph.remote` is imported inside the commands that use it: at the top it would add
about 0.75 s (the LangGraph SDK, the episode modules) to every command's start-up
(`react-agent --help` takes 0.2 s; python -X importtime).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from graph import terminal
from graph.cli.episodes import cli_actor, decision_of, not_waiting, read_decision
from graph.cli.output import emit, print_episode, print_event
from graph.cli.settings import chosen_settings, read_question, settings_of, thread_env
from graph.errors import AgentError
from graph.settings.validation import validate_run

if TYPE_CHECKING:
    from graph.remote.episodes import RemoteRun

Command = Callable[[argparse.Namespace], int]
LOCAL_ONLY = "{flag} works on a local database; it cannot be used with --server"
LOCAL_FLAGS = {
    "db": "--db",
    "from_checkpoint": "--from",
    "edit_state": "--edit-state",
    "change_settings": "--change-settings",
}


def add_server_flag(parser: argparse.ArgumentParser, local: Command, remote: Command) -> None:
    """`--server URL` on `parser`: with it the command runs `remote`, else `local`."""
    parser.add_argument(
        "--server",
        metavar="URL",
        help="run through the LangGraph server at URL (e.g. http://127.0.0.1:2024) instead "
        "of the local database",
    )

    def dispatch(args: argparse.Namespace) -> int:
        if args.server:
            refuse_local_flags(args)
            return remote(args)
        return local(args)

    dispatch.__doc__ = local.__doc__
    parser.set_defaults(func=dispatch)


def refuse_local_flags(args: argparse.Namespace) -> None:
    """One line for a flag that only means something on a local database."""
    for name, flag in LOCAL_FLAGS.items():
        if getattr(args, name, None):
            raise AgentError(LOCAL_ONLY.format(flag=flag))


def _run(args: argparse.Namespace) -> RemoteRun:
    """The run's driver (this user, from the CLI) and how its steps are shown."""
    from graph.remote.episodes import RemoteRun

    return RemoteRun(cli_actor(getattr(args, "as_name", None)), None if args.json else print_event)


def cmd_ask_remote(args: argparse.Namespace) -> int:
    """Answer a question in a new thread on the server."""
    from graph.remote.client import connect
    from graph.remote.episodes import start_episode

    env_name = args.env or "wikipedia"
    ctx = settings_of(env_name, chosen_settings(args))
    question = validate_run(read_question(args.question), ctx)
    client = connect(args.server)
    result = start_episode(client, env_name, question, ctx, _run(args), args.thread_id)
    return emit(result, args.json, server=args.server)


def cmd_resume_remote(args: argparse.Namespace) -> int:
    """Continue a thread on the server, answering its pending request if one waits."""
    from graph.remote.client import connect
    from graph.remote.episodes import read_state, resume_episode

    given, request_id = read_decision(args)
    client = connect(args.server)
    state = read_state(client, args.thread_id)
    pending = state.interrupts[0].value["action_requests"][0] if state.interrupts else {}
    decision = decision_of(given, pending.get("name", ""), "" if pending else not_waiting(state))
    stored = (state.values.get("settings") or {}).get("env")
    env_name = thread_env(args.thread_id, str(stored or ""), args.env)
    changes = chosen_settings(args)
    if changes:
        settings_of(env_name, changes)
    value = None if decision is None else {"decisions": [decision.as_dict()]}
    result = resume_episode(
        client, args.thread_id, value, _run(args), request_id=request_id, changes=changes
    )
    return emit(result, args.json, server=args.server)


def cmd_show_remote(args: argparse.Namespace) -> int:
    """Print a server thread's trajectory and state."""
    from graph.remote.client import connect
    from graph.remote.episodes import outcome, read_state

    client = connect(args.server)
    if args.env:  # refused as `resume` refuses it
        stored = (read_state(client, args.thread_id).values.get("settings") or {}).get("env")
        thread_env(args.thread_id, str(stored or ""), args.env)
    result = outcome(client, args.thread_id)
    if args.json:
        print(terminal.dumps(result, default=str))
    else:
        print_episode(result, server=args.server)
    return 0
