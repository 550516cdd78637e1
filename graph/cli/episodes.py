"""`ask` and `resume`: start an episode, or continue one (with a human's decision).

Both hold the thread's lease for the whole command, taken before the state
they act on is read (`graph.cli.command_guard.holding_thread`); Ctrl-C leaves the
thread marked `interrupted` and prints the command that resumes it (exit 130).

The agent, model, episode and review modules are imported inside the commands that use
them: at the top they would add about 0.9 s (LangGraph, the chat-model stack) to every
command's start-up (`react-agent --help` takes 0.2 s; python -X importtime).
"""

from __future__ import annotations

import argparse
import json
import socket
import uuid
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from graph.cli.command_guard import (
    INTERRUPTED_EXIT,
    damage_reported,
    holding_thread,
    prepare_environment,
    separate_databases,
)
from graph.cli.output import emit, print_event
from graph.cli.settings import (
    anchored,
    chosen_settings,
    read_question,
    settings_of,
    thread_env,
)
from graph.core.approval import Decision, parse_decision
from graph.errors import AgentError, DecisionError, RequestError
from graph.settings.context import Context
from graph.settings.validation import validate_run, validate_settings
from graph.store.locations import checkpoint_location
from tools.base import ArgumentError

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel
    from langgraph.types import StateSnapshot


def open_agent(
    env_name: str | None,
    db: str | None,
    model: BaseChatModel | None = None,
    *,
    create: bool = True,
) -> Any:
    """The environment's agent on the checkpoint database `db` (a file or a PostgreSQL URL;
    default: the shared one); without `create`, a missing database is an error (read-only
    commands never make one)."""
    from graph.agent import build_agent
    from graph.episodes.runner import open_checkpointer

    saver = open_checkpointer(checkpoint_location(db), create=create)
    return build_agent(env_name or "wikipedia", saver, model=model), saver  # type: ignore[arg-type]


def cli_actor(name: str | None = None) -> str:
    """Who decides from this command line: `cli:user@host` (`name`, given with `--as`,
    else the OS user)."""
    from graph.episodes.runner import local_actor

    return f"cli:{name}@{socket.gethostname()}" if name else local_actor("cli")


@damage_reported
def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question in a new episode (a thread id that exists is refused)."""
    env_name = args.env or "wikipedia"
    ctx = settings_of(env_name, chosen_settings(args))
    question = validate_run(read_question(args.question), ctx)
    from graph.core.models import load_chat_model
    from graph.episodes.starting import run_episode

    model = load_chat_model(ctx.model, ctx.temperature, ctx.max_tokens)
    ctx = replace(ctx, **anchored(vars(ctx)))  # stored: a resume elsewhere opens the same files
    separate_databases(args.db, ctx)
    prepare_environment(env_name, ctx)
    agent, saver = open_agent(env_name, args.db, model)
    thread_id = args.thread_id or str(uuid.uuid4())
    handler = None if args.json else print_event
    with holding_thread(saver, thread_id, args.db) as hold:
        result = run_episode(
            agent,
            question,
            ctx,
            thread_id=thread_id,
            on_event=handler,
            owner=hold.owner,
            actor=cli_actor(),
        )
    if hold.interrupted:
        return INTERRUPTED_EXIT
    return emit(result, args.json, args.db)


EDIT_ACTION_ALONE = (
    "--edit-action goes with --edit (the arguments of the action to run instead); nothing was run"
)
TWO_REQUESTS = "--decision answers request {named}, but --request names {request}"


def read_decision(args: argparse.Namespace) -> tuple[Decision | None, str | None]:
    """The decision the flags give, parsed (None for none), and the request it answers
    (`--request`, or the `request_id` a raw `--decision` names).

    Checked before anything is opened, so a malformed decision never takes the
    thread's lease from someone deciding it; an `--edit`'s action name, when
    `--edit-action` gives none, is the pending action's (`decision_of`).
    """
    from graph.core.asking import named_request

    if args.edit_action is not None and args.edit is None:
        raise DecisionError(EDIT_ACTION_ALONE)
    if args.approve:
        return Decision("approve"), args.request
    if args.reject is not None:
        return parse_decision({"type": "reject", "message": args.reject}), args.request
    if args.edit is not None:
        try:
            edited = json.loads(args.edit)
        except json.JSONDecodeError as error:
            raise AgentError(f"--edit takes a JSON object of arguments: {error}") from None
        if not isinstance(edited, dict):
            raise AgentError('--edit takes a JSON object, e.g. \'{"copy_id": "W22"}\'')
        return Decision("edit", name=args.edit_action or "", args=edited), args.request
    if args.decision is None:
        return None, args.request
    try:
        value = json.loads(args.decision)
    except json.JSONDecodeError as error:
        raise AgentError(f"--decision takes JSON: {error}") from None
    decision = parse_decision(value)
    named = named_request(value) or None
    if named and args.request and named != args.request:
        raise AgentError(TWO_REQUESTS.format(named=named, request=args.request))
    return decision, args.request or named


def decision_of(
    decision: Decision | None, pending_name: str, not_waiting: str = ""
) -> Decision | None:
    """The decision to send: an `--edit` with no action named edits the pending action;
    with none pending (`not_waiting` says why: the request was answered, maybe by
    someone else just now) that reason is the refusal."""
    if decision is None or decision.type != "edit" or decision.name:
        return decision
    if not pending_name and not_waiting:
        raise RequestError(not_waiting)
    return replace(decision, name=pending_name)


def not_waiting(state: StateSnapshot) -> str:
    """Why a thread with no pending request takes no decision (its last request's fate)."""
    from graph.episodes.resume_checks import NOT_AWAITING, last_answered

    return NOT_AWAITING.format(last=last_answered(state))


def _check_edit(env_name: str, ctx: Context, decision: Decision | None) -> None:
    """Validate edited arguments before resuming, so a bad edit changes nothing."""
    from graph.agent import ENVIRONMENTS

    if decision is None or decision.type != "edit":
        return
    edited_args = dict(decision.args or {})
    env = ENVIRONMENTS[env_name][1](ctx)
    specs = {name.casefold(): spec for name, spec in env.specs().items()}
    spec = specs.get(decision.name.casefold())
    if spec is None or spec.name == env.finish_action:
        raise AgentError(f"cannot edit into {decision.name!r}: not an action of {env_name}")
    if spec.args_model is not None:
        _check_edit_fields(spec.name, spec.args_model, edited_args)
    try:
        env.parse_args(spec.name, json.dumps(edited_args, ensure_ascii=False))
    except ArgumentError as error:
        raise AgentError(f"the edited action is invalid: {error}") from None


EDIT_REFUSED = (
    "--edit cannot run {name} with {given}: {problem}; give its arguments as a JSON object "
    "with the field{s} {fields}, e.g. --edit '{example}'"
)


def _check_edit_fields(name: str, model: type[BaseModel], given: Any) -> None:
    """Refuse edited arguments the action's model refuses, in the words of `--edit` (a
    JSON object of fields), not the model's `name[argument]` grammar."""
    try:
        model.model_validate(given)
    except ValidationError as error:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item["loc"])
            message = item["msg"].removeprefix("Value error, ")
            message = message[:1].lower() + message[1:]
            problems.append(f"{where}: {message}" if where else message)
        fields = list(model.model_fields)
        example = json.dumps(dict.fromkeys(fields, "..."))
        raise AgentError(
            EDIT_REFUSED.format(
                name=name,
                given=json.dumps(given, ensure_ascii=False),
                problem="; ".join(problems),
                s="s" if len(fields) > 1 else "",
                fields=", ".join(fields),
                example=example,
            )
        ) from None


@damage_reported
def cmd_resume(args: argparse.Namespace) -> int:
    """Continue an episode that stopped (killed, failed, paused for approval).

    The thread's lease is taken before its state is read; a decision binds to
    the request pending then (or to `--request`); settings flags that differ
    from the stored ones need `--change-settings`.
    """
    from graph.agent import build_agent
    from graph.episodes.resuming import resume_episode
    from graph.episodes.runner import snapshot, stored_settings

    given, request_id = read_decision(args)
    agent, saver = open_agent(args.env, args.db, create=False)
    with holding_thread(saver, args.thread_id, args.db) as hold:
        state = snapshot(agent, args.thread_id, args.from_checkpoint)
        stored = stored_settings(agent, state)
        env_name = thread_env(args.thread_id, stored.get("env"), args.env)
        if env_name != agent.name.removesuffix("-agent"):
            agent = build_agent(env_name, saver)  # type: ignore[arg-type]
        chosen = chosen_settings(args)
        chosen |= anchored(chosen)
        ctx = settings_of(env_name, chosen, stored)
        validate_settings(ctx)
        pending = state.interrupts[0].value["action_requests"][0] if state.interrupts else {}
        waiting = state.interrupts or args.from_checkpoint
        decision = decision_of(
            given, pending.get("name", ""), "" if waiting else not_waiting(state)
        )
        _check_edit(env_name, ctx, decision)
        if args.edit_state is not None and decision is not None:
            raise AgentError("--edit-state replaces the pending action: give it no decision")
        result = resume_episode(
            agent,
            args.thread_id,
            ctx if chosen or not stored else None,
            decision=decision,
            checkpoint_id=args.from_checkpoint,
            edit_action=args.edit_state,
            on_event=None if args.json else print_event,
            request_id=request_id,
            change_settings=args.change_settings,
            owner=hold.owner,
            actor=cli_actor(args.as_name),
        )
    if hold.interrupted:
        return INTERRUPTED_EXIT
    return emit(result, args.json, args.db)
