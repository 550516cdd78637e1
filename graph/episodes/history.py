"""Time travel from the CLI, as Studio offers it: list checkpoints, fork with an edit.

`checkpoint_rows` lists a thread's checkpoints (every branch), `edit_state`
forks at one of them with a different pending Action, and `react-agent resume
THREAD_ID --from CHECKPOINT_ID` replays from a checkpoint. A fork never
rewrites history: the new checkpoint's parent is the chosen one, and the old
branch stays listed.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import StateSnapshot

from graph.agent import ENVIRONMENTS
from graph.core.proposals import propose
from graph.core.state import Proposal
from graph.episodes.runner import (
    NO_THREAD,
    Agent,
    db_label,
    local_actor,
    make_context,
    settings_of,
    snapshot,
    thread_config,
)
from graph.errors import AgentError, ThreadNotFoundError
from graph.settings.context import Context
from tools.base import ExecContext

EDITED_ACTION_KEY = "edited_action"
EDITED_FROM_KEY = "edited_from"
EDITABLE_NODES = ("reason", "review", "act", "observe", "verify")
SUMMARY_CHARS = 72
FORK_TAIL = "--from CHECKPOINT_ID"

NOT_EDITABLE = (
    "checkpoint {checkpoint} has nothing pending (next: {next}); choose one whose next node is "
    "one of {nodes} (see `react-agent history {thread}`)"
)
BAD_EDIT = "cannot use {text!r:.120} as the next action: {problem}"


def _short(text: str, limit: int = SUMMARY_CHARS) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _writer(state: StateSnapshot, parent: StateSnapshot | None) -> str:
    """The node whose writes made this checkpoint."""
    metadata: dict[str, Any] = dict(state.metadata or {})
    source = metadata.get("source")
    if source == "input":
        return "input"
    if source == "update":
        return "edit" if EDITED_ACTION_KEY in metadata else "update"
    if source == "fork":
        return "fork"
    if parent is None or not parent.next:
        return "?"
    return ",".join(parent.next)


def _summary(writer: str, values: dict[str, Any], metadata: dict[str, Any]) -> str:
    """One line saying what the checkpoint's writer did."""
    steps = values.get("steps") or []
    proposal = values.get("proposal") or {}
    index = len(steps) + 1
    status = values.get("status", "running")
    if writer == "input":
        line = "Input received"
    elif writer == "__start__":
        line = f"Question: {_short(values.get('question', ''))}"
    elif writer == "fork":
        line = f"Fork: a copy of step {int(metadata.get('step', 0)) - 1}, replayed from here"
    elif writer == "edit":
        line = f"Edited: Action {index} := {metadata.get(EDITED_ACTION_KEY, '')}"
    elif writer == "reason" and proposal:
        kind = f" ({proposal['kind']})" if proposal.get("kind") else ""
        line = f"Action {index} proposed: {proposal.get('action_text', '')}{kind}"
    elif writer == "review" and proposal:
        decision = (proposal.get("decision") or {}).get("type", proposal.get("kind", "?"))
        line = f"Action {index} {decision}: {proposal.get('action_text', '')}"
    elif writer == "act":
        outcome = values.get("outcome") or {}
        found = len(outcome.get("evidence") or [])
        line = (
            f"Action {index} ran: {proposal.get('action_text', '')} -> {found} evidence, "
            f"{_short(outcome.get('observation', ''), 40)}"
        )
    elif writer in ("observe", "verify") and steps:
        step = steps[-1]
        found = len(step.get("evidence_ids") or [])
        detail = f"{found} evidence" if step.get("kind") == "tool" else step.get("kind", "")
        line = (
            f"Action {step.get('index')}: {step.get('action_text', '')} -> {detail}: "
            f"{_short(step.get('observation', ''), 40)}"
        )
    else:
        line = ""
    if status != "running" and writer not in ("input", "__start__"):
        ended = f"{status} ({values.get('stop_reason') or status})"
        answer = _short(values.get("answer", ""))
        line = f"{line}; ended {ended}" if line else f"Ended {ended}: {answer}"
    return line or writer


def checkpoint_rows(agent: Agent, thread_id: str) -> list[dict[str, Any]]:
    """Every checkpoint of a thread, oldest first, on every branch.

    Each row: `checkpoint_id`, `parent_id`, `step`, `source` (input, loop,
    update, fork), `node` (the node that wrote it), `next`, `created_at`,
    `summary`, and `current` (whether it lies on the branch the thread is on).
    """
    reading = getattr(agent.checkpointer, "reading_thread", None)
    with reading(thread_id) if reading is not None else nullcontext():
        history = list(agent.get_state_history(thread_config(thread_id)))
    if not history:
        raise ThreadNotFoundError(
            NO_THREAD.format(thread_id=thread_id, where="", db=db_label(agent))
        )
    by_id = {state.config["configurable"]["checkpoint_id"]: state for state in history}
    current: set[str] = set()
    cursor: StateSnapshot | None = history[0]
    while cursor is not None:
        checkpoint_id = cursor.config["configurable"]["checkpoint_id"]
        current.add(checkpoint_id)
        parent_id = (cursor.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        cursor = by_id.get(parent_id) if parent_id else None
    rows = []
    for state in reversed(history):
        checkpoint_id = state.config["configurable"]["checkpoint_id"]
        parent_id = (state.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        metadata = dict(state.metadata or {})
        writer = _writer(state, by_id.get(parent_id) if parent_id else None)
        rows.append(
            {
                "checkpoint_id": checkpoint_id,
                "parent_id": parent_id,
                "step": metadata.get("step"),
                "source": metadata.get("source"),
                "node": writer,
                "next": list(state.next),
                "created_at": state.created_at,
                "summary": _summary(writer, dict(state.values), metadata),
                "current": checkpoint_id in current,
            }
        )
    return rows


def edit_state(
    agent: Agent,
    thread_id: str,
    checkpoint_id: str | None,
    action_text: str,
    ctx: Context | None = None,
    actor: str | None = None,
) -> dict[str, Any]:
    """Fork at a checkpoint with `action_text` (e.g. `Search[Other title]`) as the next Action.

    The checkpoint must have a pending node (reason, review, act, observe or
    verify); the edit is written as if `reason` had proposed it, so the graph
    routes it as it would the model's (a write still goes to a human). It is
    validated like the model's output, and marked as a human `edit` decision
    proposed by `actor` (this process's user unless given): a write's `proposed`
    audit row credits the edit to them, not to the agent.
    Returns the config of the new checkpoint: resume from it to replay.
    """
    state = snapshot(agent, thread_id, checkpoint_id)
    chosen = state.config["configurable"]["checkpoint_id"]
    if not set(state.next) & set(EDITABLE_NODES):
        raise AgentError(
            NOT_EDITABLE.format(
                checkpoint=chosen,
                next=list(state.next) or "none",
                nodes=", ".join(EDITABLE_NODES),
                thread=thread_id,
            )
        )
    values = state.values
    settings = dict(values.get("settings") or {})
    env_name = settings.get("env") or agent.name.removesuffix("-agent")
    ctx = ctx or make_context(env_name, settings)

    env = ENVIRONMENTS[env_name][1](ctx)
    steps = list(values.get("steps") or [])
    step_index = len(steps) + 1
    exec_ctx = ExecContext(
        settings=ctx,
        env_state=dict(values.get("env_state") or {}),
        thread_id=thread_id,
        step_index=step_index,
        idempotency_key=f"{thread_id}:{step_index}",
    )
    text = action_text.strip()
    if not text.casefold().startswith("action"):
        text = "Action: " + text
    proposal = propose(env, text, steps, exec_ctx)
    if proposal.get("kind") == "invalid":
        raise AgentError(BAD_EDIT.format(text=action_text, problem=proposal.get("observation")))
    previous = values.get("proposal") or {}
    proposal = proposal | Proposal(
        thought=previous.get("thought", ""),
        proposed_by=actor or local_actor(),
        decision={
            "type": "edit",
            "edited_action": {
                "name": proposal.get("action", ""),
                "args": dict(proposal.get("args") or {}),
            },
        },
    )
    update: dict[str, Any] = {"proposal": proposal, "outcome": None, "status": "running"}
    if not settings:
        update["settings"] = settings_of(env.name, ctx)
    configurable = {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": chosen}
    metadata = {EDITED_ACTION_KEY: proposal["action_text"], EDITED_FROM_KEY: chosen}
    config = RunnableConfig(configurable=configurable, metadata=metadata)
    return dict(agent.update_state(config, update, as_node="reason"))


def edited_fork(
    agent: Agent, state: StateSnapshot, action_text: str, ctx: Context, actor: str
) -> StateSnapshot:
    """The checkpoint `edit_state` writes at `state`'s with `action_text` as the next Action
    (proposed by `actor`)."""
    thread_id = str(state.config["configurable"]["thread_id"])
    chosen = str(state.config["configurable"]["checkpoint_id"])
    fork = edit_state(agent, thread_id, chosen, action_text, ctx, actor)
    return snapshot(agent, thread_id, fork["configurable"]["checkpoint_id"])
