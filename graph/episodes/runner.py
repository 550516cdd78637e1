"""The thread layer: a checkpoint store opened, a thread's config, lease, stream,
state and stored input.

The rules for starting an episode (`graph.episodes.starting`) and for resuming,
answering or forking one (`graph.episodes.resuming`) sit above it. A driver holds
the thread's lease (`graph.store.leases`) for as long as it drives it, taken
before it reads the state it acts on. What an episode returns is built by
`graph.episodes.results`.

The PostgreSQL saver is imported only for a `postgresql://` location: at the top it
would add about 0.19 s (psycopg) to `react-agent show`, which takes about 1.1 s (python
-X importtime).
"""

from __future__ import annotations

import getpass
import socket
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.errors import EmptyInputError
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import StateSnapshot

from graph.agent import ENVIRONMENTS, recursion_limit
from graph.core.passwords import recorded
from graph.episodes.results import outcome_of
from graph.errors import DatabaseError, ThreadNotFoundError
from graph.settings.context import Context
from graph.settings.durability import durability_of
from graph.store.heartbeats import holding
from graph.store.leases import lease_of, new_owner
from graph.store.locations import (
    Location,
    checkpoint_location,
    parse_location,
)
from graph.store.registry import registry_of
from graph.store.savers import open_sqlite_saver, refuse_if_gone
from graph.store.tables import checkpointed_threads, database_file
from tools.dbfiles import DatabaseFileError

Agent = CompiledStateGraph[Any, Any, Any, Any]
EventHandler = Callable[[dict[str, Any]], None]

NO_THREAD = "no episode with thread id {thread_id}{where} in {db}"


def default_db_location() -> Location:
    """The checkpoint database used when `--db` is not given: `$REACT_AGENT_DB` (a file
    or a PostgreSQL URL), else a file under the user's state directory (the LangGraph
    server uses the same one)."""
    return checkpoint_location()


def open_checkpointer(location: Location | str | Path, *, create: bool = True) -> Any:
    """The checkpoint saver of a location: a `CompactSqliteSaver` on a file
    (`graph.store.savers`), a `PostgresCheckpointSaver` on a `postgresql://` URL
    (`graph.store.postgres`). Either carries its database's thread lease and registry
    (`.lease`, `.registry`) and is a context manager that closes it.

    Raises `DatabaseError` (one line) for a database that cannot be opened or created,
    or that a read-only use (`create` False) finds missing.
    """
    if not isinstance(location, Location):
        location = parse_location(location)
    try:
        if location.path is None:
            from graph.store.postgres import open_postgres_saver

            return open_postgres_saver(location.url, create=create)

        return open_sqlite_saver(location.path, create=create)
    except DatabaseFileError as error:
        raise DatabaseError(str(error)) from None


def make_context(env_name: str, settings: Mapping[str, Any]) -> Context:
    """The env's Context from a mapping; unknown keys are ignored."""
    context_type = ENVIRONMENTS[env_name][0]
    names = {f.name for f in fields(context_type)}
    return context_type(**{k: v for k, v in settings.items() if k in names})


def settings_of(env_name: str, ctx: Context) -> dict[str, Any]:
    """A run's settings as the thread stores them: the Context's fields plus `env`, a
    database URL without its password (`graph.core.passwords`)."""
    return recorded(asdict(ctx) | {"env": env_name})


def env_of(agent: Agent) -> str:
    """The environment an agent was built for."""
    return str(agent.name).removesuffix("-agent")


def local_actor(kind: str = "python") -> str:
    """Who acts from this process, e.g. `cli:alice@host`."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "unknown"
    return f"{kind}:{user}@{socket.gethostname()}"


def db_label(agent: Agent) -> str:
    """How messages name the agent's checkpoint database."""
    named = getattr(agent.checkpointer, "label", None)
    if isinstance(named, str):
        return named
    conn = getattr(agent.checkpointer, "conn", None)
    if isinstance(conn, sqlite3.Connection):
        found = database_file(conn)
        if found is not None:
            return str(found)
    return "this database"


def thread_config(thread_id: str, checkpoint_id: str | None = None) -> RunnableConfig:
    """The run config of one thread (optionally one checkpoint of it)."""
    configurable: dict[str, Any] = {"thread_id": thread_id}
    if checkpoint_id:
        configurable |= {"checkpoint_id": checkpoint_id, "checkpoint_ns": ""}
    return RunnableConfig(configurable=configurable)


def driven(config: RunnableConfig, owner: str, actor: str) -> RunnableConfig:
    """`config` for a run driven by the holder of the thread's lease."""
    configurable = dict(config.get("configurable") or {}) | {"lease_owner": owner, "actor": actor}
    return RunnableConfig(**{**config, "configurable": configurable})


def stream_run(
    agent: Agent, value: Any, config: RunnableConfig, ctx: Context, on_event: EventHandler | None
) -> None:
    """Run the graph on the thread `config` names from `value` (an input, a `Command` or
    None), with the run's recursion limit and durability, passing each custom event on."""
    config = RunnableConfig(**config)
    config["recursion_limit"] = recursion_limit(ctx)
    durability = durability_of(env_of(agent), ctx)
    try:
        for event in agent.stream(
            value, config, context=ctx, stream_mode="custom", durability=durability
        ):
            if on_event is not None and isinstance(event, dict):
                on_event(event)
    except EmptyInputError:  # no checkpoint where the run was to start: deleted meanwhile?
        refuse_if_gone(agent.checkpointer, config)
        raise


@contextmanager
def driving(agent: Agent, thread_id: str, owner: str | None = None) -> Iterator[str]:
    """Hold the thread's lease for the block, unless the caller (`owner`) already does;
    yields the owner token. Raises `LeaseHeldError` when another process drives it."""
    if owner is not None:
        yield owner
        return
    token = new_owner()
    with holding(lease_of(agent.checkpointer), thread_id, token):
        yield token
    lease = lease_of(agent.checkpointer)
    if lease is not None:
        lease.check_file(thread_id)


def thread_exists(agent: Agent, thread_id: str) -> bool:
    """Whether the database holds any checkpoint (or registry row) of `thread_id`."""
    saver = agent.checkpointer
    if saver is None or not hasattr(saver, "get_tuple"):
        return False
    if saver.get_tuple(RunnableConfig(configurable={"thread_id": thread_id})) is not None:
        return True
    registry = registry_of(saver)
    return registry is not None and registry.get(thread_id) is not None


def snapshot(agent: Agent, thread_id: str, checkpoint_id: str | None = None) -> StateSnapshot:
    """The thread's latest (or chosen) state; raises if there is none."""
    state = agent.get_state(thread_config(thread_id, checkpoint_id))
    if not state.values:
        where = f" at checkpoint {checkpoint_id}" if checkpoint_id else ""
        raise ThreadNotFoundError(
            NO_THREAD.format(thread_id=thread_id, where=where, db=db_label(agent))
        )
    return state


def stored_input(agent: Agent, state: StateSnapshot) -> dict[str, Any]:
    """What the thread was started with: its `question` and `settings` as the state holds
    them, or, for a thread stopped before its first step, as its input checkpoint does
    (the input waits there in LangGraph's `__start__` channel)."""
    values = state.values
    if values.get("question"):
        return {"question": values["question"], "settings": dict(values.get("settings") or {})}
    saver = agent.checkpointer
    found = saver.get_tuple(state.config) if isinstance(saver, BaseCheckpointSaver) else None
    start = found.checkpoint["channel_values"].get("__start__") if found else None
    if not isinstance(start, Mapping):
        return {"question": "", "settings": {}}
    return {"question": start.get("question", ""), "settings": dict(start.get("settings") or {})}


def stored_settings(agent: Agent, state: StateSnapshot) -> dict[str, Any]:
    """The settings the thread stored (see `stored_input`)."""
    settings: dict[str, Any] = stored_input(agent, state)["settings"]
    return settings


def episode_result(agent: Agent, thread_id: str) -> dict[str, Any]:
    """The outcome of an episode as one JSON-able object (see `outcome_of`)."""
    state = snapshot(agent, thread_id)
    question = state.values.get("question") or stored_input(agent, state)["question"]
    pending = [{"id": item.id, "value": item.value} for item in state.interrupts]
    return outcome_of(thread_id, state.values, pending, question)


def list_threads(saver: SqliteSaver) -> Iterator[str]:
    """Thread ids in the database, most recently written first."""
    yield from checkpointed_threads(saver.conn)
