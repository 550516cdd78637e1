"""`ask` and `resume`: start an episode, or continue one (with a human's decision)."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from graph.cli.output import emit, print_event
from graph.cli.settings import chosen_settings, read_question, settings_of
from graph.context import Context
from graph.errors import AgentError
from graph.validation import validate_run, validate_settings

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel


def open_agent(env_name: str, db: str | None, model: BaseChatModel | None = None) -> Any:
    """The environment's agent on the checkpoint file `db` (default: the shared one)."""
    from graph.agent import build_agent
    from graph.runner import default_db_path, open_checkpointer

    saver = open_checkpointer(db or default_db_path())
    return build_agent(env_name, saver, model=model), saver  # type: ignore[arg-type]


def cmd_ask(args: argparse.Namespace) -> int:
    """Answer a question in a new episode."""
    ctx = settings_of(args.env, chosen_settings(args))
    question = validate_run(read_question(args.question), ctx)
    from graph.models import load_chat_model
    from graph.runner import run_episode

    model = load_chat_model(ctx.model, ctx.temperature, ctx.max_tokens)
    agent, _ = open_agent(args.env, args.db, model)
    handler = None if args.json else print_event
    result = run_episode(agent, question, ctx, thread_id=args.thread_id, on_event=handler)
    return emit(result, args.json)


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
    from tools.base import ArgumentError

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


def cmd_resume(args: argparse.Namespace) -> int:
    """Continue an episode that stopped (killed, failed, paused for approval)."""
    from graph.runner import resume_episode, snapshot

    agent, _ = open_agent(args.env, args.db)
    state = snapshot(agent, args.thread_id, args.from_checkpoint)
    env_name = state.values.get("settings", {}).get("env") or args.env
    if env_name != args.env:
        agent, _ = open_agent(env_name, args.db)
    ctx = settings_of(env_name, chosen_settings(args), state.values.get("settings"))
    validate_settings(ctx)
    pending = state.interrupts[0].value["action_requests"][0] if state.interrupts else {}
    decision = _decision(args, pending.get("name", ""))
    _check_edit(env_name, ctx, decision)
    checkpoint_id = args.from_checkpoint
    if args.edit_state is not None:
        from graph.history import edit_state

        if decision is not None:
            raise AgentError("--edit-state replaces the pending action: give it no decision")
        fork = edit_state(agent, args.thread_id, checkpoint_id, args.edit_state, ctx)
        checkpoint_id = fork["configurable"]["checkpoint_id"]
    handler = None if args.json else print_event
    result = resume_episode(
        agent,
        args.thread_id,
        ctx,
        decision=decision,
        checkpoint_id=checkpoint_id,
        on_event=handler,
    )
    return emit(result, args.json)
