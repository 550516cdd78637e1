"""The episodes `bench_vs_prebuilt.py` times: ours, LangGraph's prebuilt agent, our
graph with do-nothing nodes (the floor its shape and saver set), and a bare graph of
three do-nothing nodes on one integer (what LangGraph alone costs for three supersteps
a step)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple, TypedDict

from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.types import Durability

from graph.agent import ENVIRONMENTS, build_agent, build_graph, recursion_limit
from graph.core.nodes import AgentDeps, Nodes
from graph.core.state import AgentState
from graph.settings.context import Context, WikipediaContext
from graph.settings.durability import durability_of
from graph.store.savers import open_sqlite_saver
from graph.store.sqlite_format import connect
from graph.testing import TOUR_QUESTION, ScriptedReActModel, tour_settings


class Sample(NamedTuple):
    """One episode: wall-clock and process CPU seconds, and the SQLite file's size."""

    wall_s: float
    cpu_s: float
    size: int | None


class Clock(NamedTuple):
    wall: float
    cpu: float

    @classmethod
    def start(cls) -> Clock:
        return cls(time.perf_counter(), time.process_time())

    def sample(self, size_of: Callable[[], int | None]) -> Sample:
        wall, cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu
        return Sample(wall, cpu, size_of())


class InstantToolCallingModel(BaseChatModel):
    """A fake tool-calling model: `steps - 1` calls of the trivial tool, then an answer."""

    steps: int

    @property
    def _llm_type(self) -> str:
        return "instant-tool-calling"

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Any:
        return self

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        turn = (len(messages) - 1) // 2
        if turn + 1 >= self.steps:
            message = AIMessage(content="done")
        else:
            call = {"name": "lookup", "args": {"query": f"page {turn}"}, "id": f"call_{turn}"}
            message = AIMessage(content="", tool_calls=[call])
        return ChatResult(generations=[ChatGeneration(message=message)])


def lookup(query: str) -> str:
    """Look something up (the anchor's trivial tool)."""
    return f"Result for {query}."


def make_saver(kind: str, db: Path, anchor: bool) -> BaseCheckpointSaver[Any] | None:
    """No saver, an in-memory one, LangGraph's SQLite saver (the anchor's) or ours."""
    if kind == "none":
        return None
    if kind == "memory":
        return InMemorySaver()
    if anchor:
        saver = SqliteSaver(connect(db))
        saver.setup()
        return saver
    return open_sqlite_saver(db)


def run_config(
    saver: BaseCheckpointSaver[Any] | None, limit: int, durability: Durability | None
) -> tuple[RunnableConfig, Durability | None]:
    """The run config (a new thread when there is a saver) and the durability (which
    LangGraph only accepts with a checkpointer; None leaves LangGraph's default)."""
    if saver is None:
        return {"recursion_limit": limit}, None
    thread = {"thread_id": str(uuid.uuid4())}
    return {"recursion_limit": limit, "configurable": thread}, durability


def ours(mode: str, ctx: Context) -> Durability:
    """Our durability in `mode`: `default` is what the CLI chooses for the run, `sync` sync."""
    return "sync" if mode == "sync" else durability_of("wikipedia", ctx)


def run_project(kind: str, steps: int, replies: list[str], db: Path, mode: str) -> Sample:
    """One episode of ours."""
    saver = make_saver(kind, db, anchor=False)
    agent = build_agent(
        "wikipedia", saver, model=ScriptedReActModel(responses=replies, count_usage=False)
    )
    ctx = WikipediaContext(**tour_settings(steps))
    config, durability = run_config(saver, recursion_limit(ctx), ours(mode, ctx))
    clock = Clock.start()
    result = agent.invoke({"question": TOUR_QUESTION}, config, context=ctx, durability=durability)
    sample = clock.sample(lambda: file_size(saver, db))
    if len(result["steps"]) != steps:
        raise RuntimeError(f"ours ran {len(result['steps'])} steps, not {steps}: {result}")
    return sample


def run_anchor(kind: str, steps: int, db: Path, mode: str) -> Sample:
    """One episode of `create_agent` (in LangGraph's default durability, or `sync`)."""
    saver = make_saver(kind, db, anchor=True)
    agent = create_agent(InstantToolCallingModel(steps=steps), [lookup], checkpointer=saver)
    config, durability = run_config(saver, 4 * steps + 10, "sync" if mode == "sync" else None)
    clock = Clock.start()
    result = agent.invoke(
        {"messages": [HumanMessage("Tour the pages.")]}, config, durability=durability
    )
    sample = clock.sample(lambda: file_size(saver, db))
    if len(result["messages"]) != 2 * steps:
        raise RuntimeError(f"the anchor ran {len(result['messages'])} messages, not {2 * steps}")
    return sample


def file_size(saver: BaseCheckpointSaver[Any] | None, db: Path) -> int | None:
    """The SQLite file's size after a WAL checkpoint (None for other savers)."""
    if not isinstance(saver, SqliteSaver):
        return None
    saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    saver.conn.close()
    return db.stat().st_size


class FloorNodes(Nodes):
    """Nodes that only hand on fixed data of our sizes (a 600-character observation,
    one evidence sentence): what LangGraph and the saver cost per step of our graph."""

    def reason(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        turn = len(state.get("steps") or []) + 1
        if turn >= runtime.context.max_model_turns - 1:
            return {"status": "unverified", "proposal": None}
        action = f"Search[Page {turn}]"
        proposal = {"thought": "next", "action": "Search", "action_text": action}
        update = {"proposal": proposal, "counters": {"model_calls": turn}}
        return update | ({} if state.get("status") else {"status": "running"})

    def act(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        outcome = {"observation": "o" * 600, "evidence": [], "env_update": {"page": "p"}}
        return {"outcome": outcome, "counters": {"tool_calls": len(state.get("steps") or [])}}

    def observe(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        turn = len(state.get("steps") or []) + 1
        return {
            "steps": [{"index": turn, "kind": "tool", "observation": "o" * 600}],
            "evidence": [{"id": f"E{turn}", "text": "s" * 200, "source": {"title": "p"}}],
            "env_state": {"page": f"Page {turn}"},
            "proposal": None,
            "outcome": None,
        }


def run_floor(kind: str, steps: int, db: Path, mode: str) -> Sample:
    """One episode of our graph and saver with `FloorNodes`."""
    saver = make_saver(kind, db, anchor=False)
    _, factory, keys = ENVIRONMENTS["wikipedia"]
    nodes = FloorNodes(AgentDeps(environment_factory=factory, environment_keys=keys))
    agent = build_graph("wikipedia", nodes=nodes).compile(checkpointer=saver)
    ctx = WikipediaContext(**tour_settings(steps))
    config, durability = run_config(saver, recursion_limit(ctx), ours(mode, ctx))
    clock = Clock.start()
    agent.invoke({"question": TOUR_QUESTION}, config, context=ctx, durability=durability)
    return clock.sample(lambda: file_size(saver, db))


class BareState(TypedDict):
    turn: int


def _bare_reason(state: BareState) -> BareState:
    return {"turn": state["turn"] + 1}


def _hand_on(state: BareState) -> BareState:
    return {"turn": state["turn"]}


def run_bare(kind: str, steps: int, db: Path, mode: str) -> Sample:
    """One episode of a bare `reason -> act -> observe` graph on one integer channel,
    with no guard, on our saver: LangGraph's cost of three supersteps a step."""
    saver = make_saver(kind, db, anchor=False)
    bare = StateGraph(BareState)
    bare.add_node("reason", _bare_reason)
    bare.add_node("act", _hand_on)
    bare.add_node("observe", _hand_on)
    bare.add_edge(START, "reason")
    bare.add_conditional_edges("reason", lambda state: END if state["turn"] >= steps else "act")
    bare.add_edge("act", "observe")
    bare.add_edge("observe", "reason")
    agent = bare.compile(checkpointer=saver)
    config, durability = run_config(saver, 3 * steps + 10, ours(mode, WikipediaContext()))
    clock = Clock.start()
    result = agent.invoke({"turn": 0}, config, durability=durability)
    sample = clock.sample(lambda: file_size(saver, db))
    if result["turn"] != steps:
        raise RuntimeError(f"the bare graph ran {result['turn']} steps, not {steps}")
    return sample


def run_one(who: str, kind: str, replies: list[str], db: Path, mode: str = "default") -> Sample:
    """One episode of ours ("project"), the anchor, the floor or the bare graph, as
    long as `replies`, each in its shipped durability (`mode` "default") or in `sync`."""
    if who == "project":
        return run_project(kind, len(replies), replies, db, mode)
    if who == "floor":
        return run_floor(kind, len(replies), db, mode)
    if who == "bare":
        return run_bare(kind, len(replies), db, mode)
    return run_anchor(kind, len(replies), db, mode)
