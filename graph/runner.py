"""Start, resume and inspect episodes on a SQLite checkpoint file.

The CLI, the notebooks and the tests drive the graph through these functions;
the LangGraph server drives the same graph through its own API.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import fields
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, StateSnapshot
from platformdirs import user_state_dir

from graph.agent import ENVIRONMENTS, recursion_limit
from graph.context import Context
from graph.errors import AgentError, DatabaseError, ThreadNotFoundError

Agent = CompiledStateGraph[Any, Any, Any, Any]
EventHandler = Callable[[dict[str, Any]], None]

EXIT_CODES = {
    "verified": 0,
    "error": 1,
    "unverified": 3,
    "budget_exhausted": 4,
    "awaiting_approval": 5,
}


def default_db_path() -> Path:
    """The checkpoint file used when `--db` is not given: `$REACT_AGENT_DB`, else one
    under the user's state directory (the LangGraph server uses the same one)."""
    configured = os.environ.get("REACT_AGENT_DB")
    if configured:
        return Path(configured).expanduser()
    return Path(user_state_dir("react-evidence-agent")) / "episodes.sqlite3"


def open_checkpointer(path: str | Path, *, create: bool = True) -> SqliteSaver:
    """A `SqliteSaver` on `path` (see `graph.store.savers.open_sqlite_saver`)."""
    from graph.store.savers import open_sqlite_saver
    from tools.dbfiles import DatabaseFileError

    try:
        return open_sqlite_saver(path, create=create)
    except DatabaseFileError as error:
        raise DatabaseError(str(error)) from None


def make_context(env_name: str, settings: Mapping[str, Any]) -> Context:
    """The env's Context from a mapping; unknown keys are ignored."""
    context_type = ENVIRONMENTS[env_name][0]
    names = {f.name for f in fields(context_type)}
    return context_type(**{k: v for k, v in settings.items() if k in names})


def thread_config(thread_id: str, checkpoint_id: str | None = None) -> RunnableConfig:
    """The run config of one thread (optionally one checkpoint of it)."""
    configurable: dict[str, Any] = {"thread_id": thread_id}
    if checkpoint_id:
        configurable |= {"checkpoint_id": checkpoint_id, "checkpoint_ns": ""}
    return RunnableConfig(configurable=configurable)


def _stream(
    agent: Agent, value: Any, config: RunnableConfig, ctx: Context, on_event: EventHandler | None
) -> None:
    config = RunnableConfig(**config)
    config["recursion_limit"] = recursion_limit(ctx)
    for event in agent.stream(value, config, context=ctx, stream_mode="custom", durability="sync"):
        if on_event is not None and isinstance(event, dict):
            on_event(event)


def run_episode(
    agent: Agent,
    question: str,
    ctx: Context,
    thread_id: str | None = None,
    on_event: EventHandler | None = None,
) -> dict[str, Any]:
    """Answer `question` in a new thread; returns `episode_result`."""
    question = question.strip()
    if not question:
        raise AgentError("the question is empty")
    thread_id = thread_id or str(uuid.uuid4())
    config = thread_config(thread_id)
    _stream(agent, {"question": question}, config, ctx, on_event)
    return episode_result(agent, thread_id)


def snapshot(agent: Agent, thread_id: str, checkpoint_id: str | None = None) -> StateSnapshot:
    """The thread's latest (or chosen) state; raises if there is none."""
    state = agent.get_state(thread_config(thread_id, checkpoint_id))
    if not state.values:
        where = f" at checkpoint {checkpoint_id}" if checkpoint_id else ""
        raise ThreadNotFoundError(f"no episode with thread id {thread_id}{where} in this database")
    return state


def resume_episode(
    agent: Agent,
    thread_id: str,
    ctx: Context | None = None,
    decision: Any = None,
    checkpoint_id: str | None = None,
    on_event: EventHandler | None = None,
) -> dict[str, Any]:
    """Continue a paused, interrupted or failed episode.

    With `decision` it answers a pending approval; from `checkpoint_id` it
    forks the thread at that checkpoint (the old branch stays in the history).
    """
    state = snapshot(agent, thread_id, checkpoint_id)
    settings = dict(state.values.get("settings") or {})
    env_name = agent.name.removesuffix("-agent")
    ctx = ctx or make_context(env_name, settings)
    config = RunnableConfig(**state.config)
    if state.interrupts:
        if decision is None:
            raise AgentError(
                "this episode awaits a human decision: resume it with --approve, "
                "--reject REASON or --edit ARGS"
            )
        _stream(agent, Command(resume=decision), config, ctx, on_event)
    elif decision is not None:
        raise AgentError("this episode is not waiting for an approval decision")
    elif state.next or state.values.get("status", "running") == "running":
        _stream(agent, None, config, ctx, on_event)
    elif state.values.get("status") == "error":
        config = agent.update_state(
            config, {"status": "running", "stop_reason": ""}, as_node="observe"
        )
        _stream(agent, None, config, ctx, on_event)
    else:
        status = state.values.get("status", "unknown")
        raise AgentError(f"this episode already ended ({status}); nothing to resume")
    return episode_result(agent, thread_id)


def _source_label(source: Mapping[str, Any]) -> str:
    """`tool(key=value, ...)` for sources that are not a page title."""
    details = ", ".join(f"{k}={v}" for k, v in source.items() if k not in ("tool", "live"))
    return f"{source.get('tool', 'source')}({details})"


def evidence_rows(values: Mapping[str, Any], ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Evidence as output rows (all of it, or the ids given, in that order)."""
    evidence = {item["id"]: item for item in values.get("evidence") or []}
    chosen = ids if ids is not None else list(evidence)
    rows = []
    for evidence_id in chosen:
        item = evidence.get(evidence_id)
        if item is None:
            continue
        source = item.get("source", {})
        rows.append(
            {
                "id": item["id"],
                "title": source.get("title") or _source_label(source),
                "sentence_index": source.get("sentence_index"),
                "source": source,
                "text": item["text"],
                "retrieved_at": item.get("retrieved_at"),
            }
        )
    return rows


def episode_result(agent: Agent, thread_id: str) -> dict[str, Any]:
    """The outcome of an episode as one JSON-able object."""
    state = snapshot(agent, thread_id)
    values = state.values
    counters = values.get("counters") or {}
    status = "awaiting_approval" if state.interrupts else values.get("status", "running")
    verdict = values.get("verdict") or {}
    supporting = list(verdict.get("evidence_ids") or []) if status == "verified" else None
    result: dict[str, Any] = {
        "thread_id": thread_id,
        "question": values.get("question", ""),
        "status": status,
        "answer": values.get("answer", "") if status != "awaiting_approval" else "",
        "evidence": evidence_rows(values, supporting),
        "verdict": verdict or None,
        "stop_reason": values.get("stop_reason", "") if status != "awaiting_approval" else "",
        "steps": len(values.get("steps") or []),
        "model_calls": counters.get("model_calls", 0),
        "tool_calls": counters.get("tool_calls", 0),
        "invalid_actions": counters.get("invalid_actions", 0),
        "repeats": counters.get("repeats", 0),
        "verifier_rejections": counters.get("rejections", 0),
        "tokens": {
            "input": counters.get("input_tokens", 0),
            "output": counters.get("output_tokens", 0),
        },
        "wikipedia": {
            "requests": counters.get("http_requests", 0),
            "cache_hits": counters.get("cache_hits", 0),
        },
        "elapsed_s": round(counters.get("elapsed_s", 0.0), 4),
        "trajectory": list(values.get("steps") or []),
    }
    if state.interrupts:
        result["pending"] = [{"id": i.id, "value": i.value} for i in state.interrupts]
    return result


def list_threads(saver: SqliteSaver) -> Iterator[str]:
    """Thread ids in the database, most recently written first."""
    rows = saver.conn.execute(
        "SELECT thread_id FROM checkpoints GROUP BY thread_id ORDER BY MAX(rowid) DESC"
    ).fetchall()
    for (thread_id,) in rows:
        yield str(thread_id)
