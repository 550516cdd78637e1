"""The graphs `langgraph.json` names, as factories the server enters once per use.

Both agents are compiled when the server imports this module; the factories
hand the same compiled graph out every time. A run's use (langgraph-api's
`threads.create_run` access, the only one it marks as an execution) is also
the one place that sees every end of the run, a cancelled one included: the
server leaves the factory's context when the run's stream ends, and
`graph.store.server_runs` then releases the run's thread lease (at once, or when a
node still finishing in its worker thread returns), and notes a run ended by
a rollback, which a new run of its thread waits for before it starts. Every other use (schemas,
state reads, Studio's drawing) gets the graph as `StatusView`: a killed episode's latest
state reads `interrupted` there, as the CLI says.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Coroutine
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.graph.state import CompiledStateGraph

from graph.agent import build_agent
from graph.core.thread_guard import run_owner
from graph.server.state_edits import GuardedGraph, guarded
from graph.settings.context import EnvName
from graph.store.leases import driven, lease_of
from graph.store.server_runs import SERVER_RUNS

EXECUTION_MARK = "__is_for_execution__"  # set by langgraph-api on a run's own use only

ROLLBACK_WAIT_S = 30.0  # a run waits this long at most for an earlier run's rollback

Graph = CompiledStateGraph[Any, Any, Any, Any]


def server_agent(env_name: EnvName) -> Graph:
    """The agent of `env_name` without a checkpointer, its state written by its nodes only
    (`graph.server.state_edits`)."""
    return guarded(build_agent(env_name))


GRAPHS: dict[EnvName, Graph] = {
    name: server_agent(name) for name in ("wikipedia", "library", "mcp")
}


class StatusView(GuardedGraph):
    """The agent as Studio and the API read a thread: the latest state of an episode whose
    stored status is `running` while no live process holds its lease (its process was
    killed) shows `interrupted`, as `show` and `threads` say. Only the view changes: the
    checkpoint, its history and the runs keep what the nodes wrote."""

    async def aget_state(self, config: RunnableConfig, *, subgraphs: bool = False) -> Any:
        snapshot = await super().aget_state(config, subgraphs=subgraphs)
        wanted = (config.get("configurable") or {}).get("checkpoint_id")
        if wanted or (snapshot.values or {}).get("status") != "running":
            return snapshot
        thread_id = str((config.get("configurable") or {}).get("thread_id") or "")
        if not thread_id:
            return snapshot
        if await asyncio.to_thread(driven, self.checkpointer, thread_id) is not False:
            return snapshot
        return snapshot._replace(values={**snapshot.values, "status": "interrupted"})


def _status_view(graph: Graph) -> StatusView:
    view = graph.copy()
    view.__class__ = StatusView
    assert isinstance(view, StatusView)
    return view


READS: dict[EnvName, StatusView] = {name: _status_view(graph) for name, graph in GRAPHS.items()}


def is_rollback(error: BaseException) -> bool:
    """Whether a run's stream ended because the run is being rolled back (langgraph-api's
    `UserRollback`, named rather than imported: the server's package is an extra)."""
    return any(cls.__name__ == "UserRollback" for cls in type(error).__mro__)


@asynccontextmanager
async def _entered(env_name: EnvName, config: RunnableConfig) -> AsyncIterator[Graph]:
    """The compiled graph; for a run, its lease released when the run's stream ends."""
    configurable = config.get("configurable") or {}
    thread_id = configurable.get("thread_id")
    if configurable.get(EXECUTION_MARK) is not True or not thread_id:
        yield READS[env_name]
        return
    owner = run_owner(config)
    await asyncio.to_thread(SERVER_RUNS.wait_for_rollbacks, str(thread_id), ROLLBACK_WAIT_S)
    SERVER_RUNS.started(str(thread_id), owner)
    rolled_back = False
    try:
        yield GRAPHS[env_name]
    except BaseException as error:
        rolled_back = is_rollback(error)
        raise
    finally:
        lease = lease_of(configurable.get(CONFIG_KEY_CHECKPOINTER))
        if SERVER_RUNS.mark_ended(lease, str(thread_id), owner, rolled_back=rolled_back):
            await _unstoppable(asyncio.to_thread(SERVER_RUNS.release_ended, str(thread_id), owner))


_FINISHING: set[asyncio.Future[None]] = set()  # kept referenced until they are done


async def _unstoppable(work: Coroutine[Any, Any, None]) -> None:
    """Await `work`, which runs to its end even when this task is cancelled meanwhile (a
    second cancel of a run's task must not leave its lease held until it expires)."""
    task = asyncio.ensure_future(work)
    _FINISHING.add(task)
    task.add_done_callback(_FINISHING.discard)
    await asyncio.shield(task)


def wikipedia_agent(config: RunnableConfig) -> AbstractAsyncContextManager[Graph]:
    """The Wikipedia agent, as `langgraph.json`'s `wikipedia` graph."""
    return _entered("wikipedia", config)


def library_agent(config: RunnableConfig) -> AbstractAsyncContextManager[Graph]:
    """The campus-library agent, as `langgraph.json`'s `library` graph."""
    return _entered("library", config)


def mcp_agent(config: RunnableConfig) -> AbstractAsyncContextManager[Graph]:
    """The agent on an MCP server's tools, as `langgraph.json`'s `mcp` graph."""
    return _entered("mcp", config)
