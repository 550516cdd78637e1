"""`react-agent`: ask, resume, show, threads, history and benchmarks.

Exit status: 0 verified; 1 the episode ended in an error; 2 bad input (usage,
model, database, thread id, decision); 3 unverified; 4 a budget ran out;
5 awaiting a human approval.
"""

from __future__ import annotations

import argparse
import json
import sys
import uuid
from collections.abc import Sequence
from dataclasses import MISSING, fields
from typing import Any, Literal, get_args, get_origin, get_type_hints

from langchain_core.language_models.chat_models import BaseChatModel

from graph import terminal
from graph.cli_output import emit_result, print_episode, print_event, print_threads
from graph.command_guard import (
    INTERRUPTED_EXIT,
    damage_reported,
    holding_thread,
    prepare_environment,
)
from graph.context import Context, LibraryContext, WikipediaContext
from graph.errors import AgentError
from tools.base import ArgumentError
from tools.dbfiles import LIBRARY, DatabaseFileError, check_file

USAGE_ERROR = 2
SETTING_TYPES: tuple[type[Context], ...] = (WikipediaContext, LibraryContext)


def _setting_fields() -> dict[str, tuple[Any, str, Any]]:
    """Every run setting: name -> (type, description, default)."""
    found: dict[str, tuple[Any, str, Any]] = {}
    for context_type in SETTING_TYPES:
        hints = get_type_hints(context_type)
        for item in fields(context_type):
            default = item.default if item.default is not MISSING else None
            found.setdefault(
                item.name, (hints[item.name], item.metadata.get("description", ""), default)
            )
    return found


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per run setting, named after the Context field, default unset."""
    group = parser.add_argument_group("run settings (Studio shows the same ones)")
    for name, (kind, description, default) in _setting_fields().items():
        choices = list(get_args(kind)) if get_origin(kind) is Literal else None
        converter = kind if kind in (int, float) else str
        help_text = description + (f" (default: {default})" if default not in (None, "") else "")
        group.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            default=None,
            type=converter,
            choices=choices,
            help=help_text,
        )


def chosen_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings flags the user gave."""
    return {
        name: getattr(args, name)
        for name in _setting_fields()
        if getattr(args, name, None) is not None
    }


def _agent(
    env_name: str, db: str | None, model: BaseChatModel | None = None, *, create: bool = True
) -> Any:
    """The agent on the checkpoint file `--db` names; without `create`, a missing file is
    an error (read-only commands never create one)."""
    from graph.agent import build_agent
    from graph.runner import open_checkpointer
    from graph.store.locations import checkpoint_path

    saver = open_checkpointer(checkpoint_path(db), create=create)
    return build_agent(env_name, saver, model=model), saver  # type: ignore[arg-type]


def _cli_actor() -> str:
    from graph.runner import local_actor

    return local_actor("cli")


def _check_settings(env_name: str, settings: dict[str, Any]) -> None:
    """Refuse settings of the other environment, malformed fault specs and a library
    database file of another kind up front."""
    from graph.agent import ENVIRONMENTS

    known = {item.name for item in fields(ENVIRONMENTS[env_name][0])}
    foreign = sorted(name for name in settings if name not in known)
    if foreign:
        flags = ", ".join("--" + name.replace("_", "-") for name in foreign)
        raise AgentError(f"{flags}: not a setting of the {env_name} environment")
    if settings.get("faults"):
        from tools.library.environment import parse_faults

        try:
            parse_faults(settings["faults"])
        except ValueError as error:
            raise AgentError(str(error)) from None
    if settings.get("library_db"):
        check_file(settings["library_db"], LIBRARY, create=True)


@damage_reported
def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question in a new episode."""
    from graph.models import load_chat_model
    from graph.runner import make_context, run_episode

    if not args.question.strip():
        raise AgentError('the question is empty: react-agent ask "QUESTION"')
    settings = chosen_settings(args)
    _check_settings(args.env, settings)
    ctx = make_context(args.env, settings)
    model = load_chat_model(ctx.model, ctx.temperature, ctx.max_tokens)
    prepare_environment(args.env, ctx)
    agent, saver = _agent(args.env, args.db, model)
    thread_id = args.thread_id or str(uuid.uuid4())
    handler = None if args.json else print_event
    with holding_thread(saver, thread_id, args.db) as hold:
        result = run_episode(
            agent,
            args.question,
            ctx,
            thread_id=thread_id,
            on_event=handler,
            owner=hold.owner,
            actor=_cli_actor(),
        )
    if hold.interrupted:
        return INTERRUPTED_EXIT
    return emit_result(result, args.json, args.db)


def _decision(args: argparse.Namespace, pending_name: str) -> dict[str, Any] | None:
    """The HITL response the flags describe, validated; None when no flag was given."""
    from graph.approval import parse_decision

    value: Any = None
    if args.approve:
        value = {"type": "approve"}
    elif args.reject is not None:
        value = {"type": "reject", "message": args.reject}
    elif args.edit is not None:
        try:
            edited = json.loads(args.edit)
        except json.JSONDecodeError as error:
            raise AgentError(f"--edit takes a JSON object of arguments: {error}") from None
        if not isinstance(edited, dict):
            raise AgentError('--edit takes a JSON object, e.g. \'{"copy_id": "W22"}\'')
        name = args.edit_action or pending_name
        value = {"type": "edit", "edited_action": {"name": name, "args": edited}}
    elif args.decision is not None:
        try:
            value = json.loads(args.decision)
        except json.JSONDecodeError as error:
            raise AgentError(f"--decision takes JSON: {error}") from None
    if value is None:
        return None
    parsed = parse_decision(value)
    return {"decisions": [parsed.as_dict()]}


def _check_edit(env_name: str, ctx: Context, decision: dict[str, Any] | None) -> None:
    """Validate edited arguments before resuming, so a bad edit changes nothing."""
    from graph.agent import ENVIRONMENTS

    if not decision or decision["decisions"][0]["type"] != "edit":
        return
    edited = decision["decisions"][0]["edited_action"]
    env = ENVIRONMENTS[env_name][1](ctx)
    specs = {name.casefold(): spec for name, spec in env.specs().items()}
    spec = specs.get(str(edited["name"]).casefold())
    if spec is None or spec.name == env.finish_action:
        raise AgentError(f"cannot edit into {edited['name']!r}: not an action of {env_name}")
    try:
        env.parse_args(spec.name, json.dumps(edited["args"], ensure_ascii=False))
    except ArgumentError as error:
        raise AgentError(f"the edited action is invalid: {error}") from None


@damage_reported
def cmd_resume(args: argparse.Namespace) -> int:
    """Continue an episode that stopped (killed, failed, paused for approval).

    The thread's lease is taken before its state is read; the decision binds
    to the request pending then (or to `--request`); settings flags that
    differ from the stored ones need `--change-settings`.
    """
    from graph.runner import make_context, resume_episode, snapshot, stored_settings

    agent, saver = _agent(args.env or "wikipedia", args.db, create=False)
    with holding_thread(saver, args.thread_id, args.db) as hold:
        state = snapshot(agent, args.thread_id, args.from_checkpoint)
        stored = stored_settings(agent, state)
        env_name = stored.get("env") or args.env or "wikipedia"
        if args.env and args.env != env_name:
            raise AgentError(f"thread {args.thread_id} is a {env_name} episode, not {args.env}")
        if env_name != agent.name.removesuffix("-agent"):
            from graph.agent import build_agent

            agent = build_agent(env_name, saver)  # type: ignore[arg-type]
        chosen = chosen_settings(args)
        _check_settings(env_name, chosen)
        ctx = make_context(env_name, stored | chosen) if chosen or not stored else None
        pending = state.interrupts[0].value["action_requests"][0] if state.interrupts else {}
        decision = _decision(args, pending.get("name", ""))
        _check_edit(env_name, ctx or make_context(env_name, stored), decision)
        checkpoint_id = args.from_checkpoint
        if args.edit_state is not None:
            from graph.history import edit_state

            if decision is not None:
                raise AgentError("--edit-state replaces the pending action: give it no decision")
            fork = edit_state(agent, args.thread_id, checkpoint_id, args.edit_state, ctx)
            checkpoint_id = fork["configurable"]["checkpoint_id"]
        result = resume_episode(
            agent,
            args.thread_id,
            ctx,
            decision=decision,
            checkpoint_id=checkpoint_id,
            on_event=None if args.json else print_event,
            request_id=args.request,
            change_settings=args.change_settings,
            owner=hold.owner,
            actor=_cli_actor(),
        )
    if hold.interrupted:
        return INTERRUPTED_EXIT
    return emit_result(result, args.json, args.db)


@damage_reported
def cmd_show(args: argparse.Namespace) -> int:
    """Print an episode's trajectory and state."""
    from graph.runner import episode_result

    agent, _ = _agent(args.env or "wikipedia", args.db, create=False)
    result = episode_result(agent, args.thread_id)
    if args.json:
        print(terminal.dumps(result, default=str))
    else:
        print_episode(result)
    return 0


@damage_reported
def cmd_threads(args: argparse.Namespace) -> int:
    """List the episodes in the database (from the thread registry)."""
    from graph.runner import thread_rows

    agent, _ = _agent(args.env or "wikipedia", args.db, create=False)
    rows = thread_rows(agent)
    if args.json:
        print(terminal.dumps(rows))
    else:
        print_threads(rows)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of `react-agent`."""
    parser = argparse.ArgumentParser(
        prog="react-agent",
        description="A ReAct agent whose answers are checked against stored evidence.",
        epilog="Exit status: 0 verified, 1 error, 2 bad input, 3 unverified, "
        "4 budget exhausted, 5 awaiting approval.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    def common(sub: argparse.ArgumentParser, env_default: str | None = None) -> None:
        sub.add_argument(
            "--db", help="checkpoint database file (default: under the user's state directory)"
        )
        sub.add_argument(
            "--env",
            choices=["wikipedia", "library"],
            default=env_default,
            help="environment (default: "
            + (env_default or "the thread's own; a different one is refused")
            + ")",
        )
        sub.add_argument("--json", action="store_true", help="print one JSON object")

    ask = commands.add_parser("ask", help="answer a question")
    ask.add_argument("question")
    ask.add_argument(
        "--thread-id", help="thread id of the new episode (default: a new UUID; never an old one)"
    )
    common(ask, "wikipedia")
    add_setting_flags(ask)
    ask.set_defaults(func=cmd_ask)

    resume = commands.add_parser("resume", help="continue a stopped or paused episode")
    resume.add_argument("thread_id")
    resume.add_argument(
        "--from",
        dest="from_checkpoint",
        metavar="CHECKPOINT_ID",
        help="fork from this checkpoint (see `history`)",
    )
    decision = resume.add_mutually_exclusive_group()
    decision.add_argument("--approve", action="store_true", help="approve the pending action")
    decision.add_argument("--reject", metavar="REASON", help="reject it, telling the model why")
    decision.add_argument("--edit", metavar="ARGS", help="run it with these JSON arguments")
    decision.add_argument("--decision", metavar="JSON", help="a raw HITL decision object")
    resume.add_argument(
        "--edit-action",
        metavar="NAME",
        help="with --edit: run this action instead of the proposed one",
    )
    resume.add_argument(
        "--edit-state",
        metavar="ACTION",
        help="replace the pending Action of the --from checkpoint (default: the latest) with "
        "ACTION, e.g. 'Search[Other title]', then replay",
    )
    resume.add_argument(
        "--request",
        metavar="ID",
        help="the approval request the decision answers (printed with it); a request already "
        "answered or superseded is refused",
    )
    resume.add_argument(
        "--change-settings",
        action="store_true",
        help="allow settings flags that differ from the thread's stored settings (recorded)",
    )
    common(resume)
    add_setting_flags(resume)
    resume.set_defaults(func=cmd_resume)

    show = commands.add_parser("show", help="print an episode's trajectory and state")
    show.add_argument("thread_id")
    common(show)
    show.set_defaults(func=cmd_show)

    threads = commands.add_parser("threads", help="list episodes in the database")
    common(threads)
    threads.set_defaults(func=cmd_threads)

    bench = commands.add_parser("bench", help="benchmarks")
    benches = bench.add_subparsers(dest="bench", required=True)
    from graph.evaluation import qa_bench, verifier_bench

    verifier_bench.register(benches)
    qa_bench.register(benches)
    from graph import audit, history

    history.register(commands)
    audit.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except (AgentError, DatabaseFileError) as error:
        print(f"react-agent: {error}", file=sys.stderr)
        return USAGE_ERROR
    except KeyboardInterrupt:
        print(
            "react-agent: interrupted; the episode can be resumed from its last checkpoint",
            file=sys.stderr,
        )
        return 130


if __name__ == "__main__":
    sys.exit(main())
