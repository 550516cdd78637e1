"""What every node does about its thread around its own work.

- **The lease.** The node checks that its driver holds the thread's lease
  (`graph.store.leases`). The driver is `config["configurable"]["lease_owner"]`
  when a caller (the CLI) took the lease for a whole command, else the run id
  (`runtime.execution_info.run_id`, or the server's `configurable["run_id"]`):
  that is how the LangGraph server's runs take part. A run-driven node takes
  the lease if it is free, renews it while it works, and gives it up when the
  run pauses for approval, ends the episode or fails; a crashed run's lease
  expires. A run that is cancelled gives it up when its stream ends, or when
  its node still running then returns (`graph.store.server_runs`): a node of such a
  run that had not started does not start, and a new server run that finds
  the thread held by it waits for that node rather than being refused.
- **Fencing.** Taking the lease gives this process the thread's fencing token
  (`graph.store.leases`); the environment's writes carry it (`fence_token`), and
  the savers and registry check it, so a run whose thread was taken over writes
  nothing more. Such a run keeps its stale token until its stream ends.
- **The settings.** The run's `Context` comes from `state["settings"]`, stored
  with the thread from the input checkpoint on, not from whatever the resuming
  run passed, but for the password of the database URL the run was given
  (`graph.core.passwords`: the thread stores none). A thread started with only a
  question stores its run's context on its first node (`reason`).
- **The registry.** Status changes are written to the thread registry, so
  `react-agent threads` lists server-run threads too.
"""

from __future__ import annotations

import os
import socket
import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, Protocol

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.errors import GraphInterrupt
from langgraph.runtime import Runtime

from graph.core.passwords import with_given_password
from graph.core.state import AgentState
from graph.errors import LeaseHeldError, SettingsChangeError
from graph.settings.context import Context
from graph.store.heartbeats import HEARTBEATS, ensure, release
from graph.store.leases import ThreadLease, lease_of
from graph.store.registry import ThreadRegistry, registry_of
from graph.store.server_runs import SERVER_RUNS
from tools.fencing import TakenOverError

CONTEXT_CACHE_SIZE = 64


class NodeFunction(Protocol):
    """A node function as LangGraph calls it."""

    def __call__(self, state: AgentState, *, runtime: Runtime[Context]) -> Any:
        """Run the node."""
        ...


API_ACTOR = "api"
WRONG_GRAPH = "thread {thread_id} is a {env} episode: run it with the {env} graph, not {graph}"


def configurable(config: RunnableConfig | None = None) -> Mapping[str, Any]:
    """The `configurable` part of the node's config."""
    return (config or get_config()).get("configurable") or {}


def actor_of(config: RunnableConfig | None = None) -> str:
    """Who drives this run: the caller's `actor` (the CLI's `cli:user@host`), else `api`."""
    return str(configurable(config).get("actor") or API_ACTOR)


_CONTEXTS: dict[tuple[Any, ...], Context] = {}
_LATEST: list[tuple[type[Context], Mapping[str, Any], Context]] = []


def stored_context(context_type: type[Context], settings: Mapping[str, Any]) -> Context:
    """The Context stored settings describe (unknown keys ignored); built once per settings.

    The node after a node reads the same stored mapping (channels hand their
    value on, and nodes never change state in place), so it is known by identity.
    """
    for known_type, known_settings, known in _LATEST:
        if known_type is context_type and known_settings is settings:
            return known
    names = {item.name for item in fields(context_type)}
    chosen = tuple(sorted((k, v) for k, v in settings.items() if k in names))
    key = (context_type, *chosen)
    found = _CONTEXTS.get(key)
    if found is None:
        if len(_CONTEXTS) >= CONTEXT_CACHE_SIZE:
            _CONTEXTS.clear()
        found = _CONTEXTS[key] = context_type(**dict(chosen))
    _LATEST[:] = [(context_type, settings, found)]
    return found


def _record(
    lease: ThreadLease | None, thread_id: str, write: Callable[..., None], *args: Any
) -> None:
    """Write to the registry; when that fails because the database file vanished, say so."""
    try:
        write(*args)
    except sqlite3.Error:
        if lease is not None:
            lease.check_file(thread_id)
        raise


def _status(update: Any) -> str | None:
    """The episode status a node's update sets, if any."""
    status = update.get("status") if isinstance(update, Mapping) else None
    return str(status) if status else None


def fence_token(thread_id: str, config: RunnableConfig | None = None) -> int | None:
    """The fencing token of the lease this process holds on the thread (None for none):
    what the environment's writes carry (`tools.fencing`)."""
    lease = lease_of(configurable(config).get(CONFIG_KEY_CHECKPOINTER)) if thread_id else None
    return lease.token_of(thread_id) if lease is not None else None


def run_owner(config: RunnableConfig, run_id: str | None = None) -> str:
    """The lease owner of a run that drives its thread itself: the LangGraph server's run
    id (the node's `run_id`, else `configurable["run_id"]`, which the server also sets on
    a retried attempt and hands to graph factories), else this process."""
    found = run_id or configurable(config).get("run_id")
    return str(found or f"local:{socket.gethostname()}:{os.getpid()}")


def _take(lease: ThreadLease, thread_id: str, owner: str) -> bool:
    """`ensure` for a server run: when another server run of this process holds the lease
    (the server starts a run on a thread only once the one before was cancelled or is done),
    wait until that run has ended and its node still running, if any, returned and released
    it; then take it."""
    try:
        return ensure(lease, thread_id, owner)
    except LeaseHeldError:
        holder = lease.holder(thread_id)
        if holder is None or not SERVER_RUNS.wait_for_release(thread_id, holder.owner, lease.ttl_s):
            raise
    return ensure(lease, thread_id, owner)


class ThreadGuard:
    """Wraps the node functions of one environment's graph."""

    def __init__(self, env_name: str, context_type: type[Context]) -> None:
        self.env_name = env_name
        self.context_type = context_type

    def context(self, state: AgentState, runtime: Runtime[Context], thread_id: str) -> Context:
        """The thread's stored settings as a Context; the run's own before any are stored."""
        settings = state.get("settings")
        if not settings:
            return runtime.context
        env = settings.get("env")
        if env and env != self.env_name:
            raise SettingsChangeError(
                WRONG_GRAPH.format(thread_id=thread_id, env=env, graph=self.env_name)
            )
        return with_given_password(stored_context(self.context_type, settings), runtime.context)

    def wrap(self, node: NodeFunction) -> NodeFunction:
        """`node` with the lease, settings and registry handled around it."""

        def guarded(state: AgentState, *, runtime: Runtime[Context]) -> Any:
            return self.run(node, state, runtime)

        guarded.__name__ = getattr(node, "__name__", "node")
        guarded.__doc__ = node.__doc__
        return guarded

    def run(self, node: NodeFunction, state: AgentState, runtime: Runtime[Context]) -> Any:
        """Check the lease, bind the stored settings, run `node`, record status changes."""
        config = get_config()
        info = runtime.execution_info
        thread_id = str(info.thread_id or "") if info is not None else ""
        checkpointer = configurable(config).get(CONFIG_KEY_CHECKPOINTER)
        lease = lease_of(checkpointer) if thread_id else None
        registry = registry_of(checkpointer) if thread_id else None
        caller_owner = configurable(config).get("lease_owner")
        owner = str(caller_owner or run_owner(config, info.run_id if info is not None else None))
        if lease is None or caller_owner:
            taken = ensure(lease, thread_id, owner) if lease is not None else False
            return self._run_node(node, state, runtime, (thread_id, lease, registry), taken)
        SERVER_RUNS.node_starting(lease, thread_id, owner)
        try:
            taken = _take(lease, thread_id, owner)
            heartbeat = HEARTBEATS.add(lease, thread_id, owner)
            try:
                update = self._run_node(
                    node,
                    state,
                    runtime,
                    (thread_id, lease, registry),
                    taken,
                    dropped=lambda: SERVER_RUNS.has_ended(thread_id, owner),
                )
            except BaseException as error:
                if not isinstance(error, TakenOverError):  # released when its stream ends,
                    release(lease, thread_id, owner)  # its error's write refused meanwhile
                raise
            finally:
                HEARTBEATS.remove(heartbeat)
            if _status(update) not in (None, "running"):
                release(lease, thread_id, owner)
            return update
        finally:
            SERVER_RUNS.node_finished(thread_id, owner)

    def _run_node(
        self,
        node: NodeFunction,
        state: AgentState,
        runtime: Runtime[Context],
        stores: tuple[str, ThreadLease | None, ThreadRegistry | None],
        taken: bool,
        dropped: Callable[[], bool] = lambda: False,
    ) -> Any:
        """Run `node` on the thread's stored settings; record a pause, a newly taken thread
        and status changes in the thread registry, unless the node's result is `dropped`
        (its server run was cancelled or rolled back meanwhile)."""
        thread_id, lease, registry = stores
        try:
            bound = runtime.override(context=self.context(state, runtime, thread_id))
            update = node(state, runtime=bound)
        except GraphInterrupt:
            if registry is not None and not dropped():
                _record(lease, thread_id, registry.set_status, thread_id, "awaiting_approval")
            raise
        status = _status(update)
        if dropped():
            return update
        if registry is not None and (taken or (status and status != state.get("status"))):
            question = state.get("question", "")
            _record(
                lease,
                thread_id,
                registry.register,
                thread_id,
                self.env_name,
                question,
                status or "running",
            )
        return update
