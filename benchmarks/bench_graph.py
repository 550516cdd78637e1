"""Graph overhead per step and checkpoint-file growth, with an instant scripted model.

Usage: python benchmarks/bench_graph.py [--steps 40] [--repeat 5] [--plot FILE.png]
(its checkpoint files live in a temporary directory, removed at exit)

Prints, for episodes of N steps (N-1 Searches of distinct snapshot titles, then
Finish): milliseconds per step with no checkpointer (baseline), with the
in-memory saver and with SQLite on a file, each as a ratio to the baseline;
the time the Wikipedia tool itself took per step (pages read afresh, not from
the source's cache of recent pages); and the SQLite file's size after 10, 20,
30 and 40-step episodes with the growth per step, for the state as it is (the
trajectory in `DeltaChannel`s) and with `steps` and `evidence` as plain
`operator.add` lists. `bench_vs_prebuilt.py` compares with LangGraph's
prebuilt agent.
"""

from __future__ import annotations

import argparse
import atexit
import operator
import shutil
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Annotated, Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph

from graph.agent import (
    ENVIRONMENTS,
    build_agent,
    route_after_observe,
    route_after_reason,
    route_after_review,
    route_after_verify,
)
from graph.core.nodes import AgentDeps, Nodes
from graph.core.state import AgentState, Step
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import WikipediaContext
from graph.testing import ScriptedReActModel
from tools.base import Evidence
from tools.wikipedia.snapshot import SnapshotSource, shared_snapshot

QUESTION = "Benchmark question that needs many steps?"


def script(steps: int) -> list[str]:
    """N-1 Searches of distinct real titles, then a Finish on the last page's title."""
    titles = shared_snapshot().titles()[: steps - 1]
    replies = [f"Thought: step {i}\nAction: Search[{title}]" for i, title in enumerate(titles)]
    return [*replies, f"Thought: done\nAction: Finish[{titles[-1]}]"]


def settings(steps: int) -> WikipediaContext:
    return WikipediaContext(
        max_model_turns=steps + 1,
        max_tool_calls=steps + 1,
        max_seconds=3600.0,
        verify_mode="record",
    )


class PlainListState(AgentState, total=False):
    """The same state with plain `operator.add` lists, as most LangGraph agents keep them."""

    steps: Annotated[list[Step], operator.add]
    evidence: Annotated[list[Evidence], operator.add]


def plain_list_agent(checkpointer: Any, model: ScriptedReActModel) -> Any:
    """The same nodes and edges over `PlainListState`.

    The nodes are wrapped in unannotated lambdas so LangGraph takes the state
    schema from the builder, not from the nodes' `AgentState` annotations.
    """
    _, factory, keys = ENVIRONMENTS["wikipedia"]
    nodes = Nodes(AgentDeps(environment_factory=factory, environment_keys=keys, model=model))
    builder: Any = StateGraph(PlainListState, context_schema=WikipediaContext)
    for name in ("reason", "review", "act", "observe", "verify"):
        node = getattr(nodes, name)
        builder.add_node(name, lambda state, runtime, node=node: node(state, runtime))
    builder.add_edge(START, "reason")
    routes = {
        "reason": (route_after_reason, ["act", "review", "observe", "verify", END]),
        "review": (route_after_review, ["act", "observe"]),
        "observe": (route_after_observe, ["reason", END]),
        "verify": (route_after_verify, ["reason", END]),
    }
    for name, (router, targets) in routes.items():
        builder.add_conditional_edges(name, lambda state, router=router: router(state), targets)
    builder.add_edge("act", "observe")
    return builder.compile(checkpointer=checkpointer, name="wikipedia-agent")


def agent_for(checkpointer: Any, steps: int, plain: bool = False) -> Any:
    """The Wikipedia agent on a script of `steps` turns, with either trajectory channel."""
    model = ScriptedReActModel(responses=script(steps))
    if plain:
        return plain_list_agent(checkpointer, model)
    return build_agent("wikipedia", checkpointer, model=model)


def timed_episode(
    checkpointer: Any, steps: int, plain: bool = False
) -> tuple[float, dict[str, Any]]:
    agent = agent_for(checkpointer, steps, plain)
    thread_id = str(uuid.uuid4())
    started = time.perf_counter()
    if checkpointer is None:
        agent.invoke(
            {"question": QUESTION}, context=settings(steps), config={"recursion_limit": 10 * steps}
        )
        result: dict[str, Any] = {}
    else:
        result = run_episode(agent, QUESTION, settings(steps), thread_id=thread_id)
    return time.perf_counter() - started, result


def tool_time_per_step(steps: int) -> float:
    source = SnapshotSource()
    titles = source.titles()[: steps - 1]
    started = time.perf_counter()
    for title in titles:
        source.fetch(title)
    return (time.perf_counter() - started) / steps


def file_size(db: Path) -> int:
    saver = open_checkpointer(db)
    saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    saver.conn.close()
    return db.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--plot", type=Path, default=None, help="write a PNG of file growth")
    args = parser.parse_args(argv)
    shared_snapshot()
    timed_episode(None, 5)
    workdir = Path(tempfile.mkdtemp(prefix="bench-graph-"))
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    timings: dict[str, list[float]] = {"none": [], "memory": [], "sqlite": []}
    for round_ in range(args.repeat):
        timings["none"].append(timed_episode(None, args.steps)[0])
        timings["memory"].append(timed_episode(InMemorySaver(), args.steps)[0])
        db = workdir / f"timing-{round_}.sqlite3"
        timings["sqlite"].append(timed_episode(open_checkpointer(db), args.steps)[0])
        print(f"round {round_ + 1}/{args.repeat} done", file=sys.stderr)
    baseline = statistics.median(timings["none"]) / args.steps
    print(f"Episode of {args.steps} steps, instant scripted model, median of {args.repeat}:")
    print(f"{'checkpointer':<14}{'ms/step':>10}{'x baseline':>12}")
    for name, values in timings.items():
        per_step = statistics.median(values) / args.steps
        print(f"{name:<14}{per_step * 1000:>10.2f}{per_step / baseline:>12.2f}")
    print(f"snapshot tool time per step: {tool_time_per_step(args.steps) * 1000:.3f} ms")

    lengths = (10, 20, 30, 40)
    sizes: dict[str, list[int]] = {"DeltaChannel (ours)": [], "plain list": []}
    for label, plain in (("DeltaChannel (ours)", False), ("plain list", True)):
        for steps in lengths:
            db = workdir / f"size-{plain}-{steps}.sqlite3"
            _, result = timed_episode(open_checkpointer(db), steps, plain)
            assert result["steps"] == steps, result["stop_reason"]
            sizes[label].append(file_size(db))
    print("SQLite file after one episode, in bytes (growth per step since the row above):")
    print(f"{'steps':>6}" + "".join(f"{label:>32}" for label in sizes))
    for row, steps in enumerate(lengths):
        cells = []
        for series in sizes.values():
            per_step = (
                0 if row == 0 else (series[row] - series[row - 1]) / (steps - lengths[row - 1])
            )
            growth = f" (+{per_step:.0f}/step)" if row else ""
            cells.append(f"{series[row]}{growth}")
        print(f"{steps:>6}" + "".join(f"{cell:>32}" for cell in cells))
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(6, 4))
        for label, series in sizes.items():
            axis.plot(lengths, [b / 1024 for b in series], marker="o", label=label)
        axis.set_xlabel("steps in the episode")
        axis.set_ylabel("SQLite file size (KiB)")
        axis.set_title("Checkpoint file growth: trajectory as DeltaChannel vs plain list")
        axis.legend()
        axis.grid(True, alpha=0.3)
        figure.tight_layout()
        figure.savefig(args.plot, dpi=120)
        print(f"plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
