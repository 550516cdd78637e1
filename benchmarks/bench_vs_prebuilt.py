"""Per-step cost and checkpoint bytes: this agent against LangGraph's prebuilt agent.

Usage: python benchmarks/bench_vs_prebuilt.py [--steps 40,200] [--reps 5] [--json] [--plot FILE]

Ours: the Wikipedia agent with an instant scripted model touring the offline
snapshot (`graph.testing.tour_replies`: Search a page, Lookup a word on it,
Search the next page, ..., then Finish). The anchor: `langchain.agents.create_agent`
with an instant fake tool-calling model and a trivial tool, N-1 tool calls then
a final answer. Both run in this process, interleaved (the order flips every
repetition), with no checkpointer, `InMemorySaver` and SQLite on a fresh file
(the same connection pragmas for both, `durability="sync"`); figures are
medians over the repetitions. Bytes per step: the SQLite file's size after a
WAL checkpoint, divided by the steps. Prints a table, or with `--json`
`{"results": [{"steps", "saver", "project_ms_per_step", "anchor_ms_per_step",
"ratio", "project_bytes_per_step", "anchor_bytes_per_step"}]}`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from langchain.agents import create_agent
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.agent import build_agent, recursion_limit
from graph.context import WikipediaContext
from graph.store.savers import connect, open_sqlite_saver
from graph.testing import TOUR_QUESTION, ScriptedReActModel, tour_replies, tour_settings

SAVERS = ("none", "memory", "sqlite")


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


def make_saver(kind: str, db: Path, anchor: bool) -> Any:
    if kind == "none":
        return None
    if kind == "memory":
        return InMemorySaver()
    if anchor:
        saver = SqliteSaver(connect(db))
        saver.setup()
        return saver
    return open_sqlite_saver(db)


def run_config(saver: Any, limit: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """The run config (a new thread when there is a saver) and `durability="sync"`
    (which LangGraph only accepts with a checkpointer)."""
    if saver is None:
        return {"recursion_limit": limit}, {}
    thread = {"thread_id": str(uuid.uuid4())}
    return {"recursion_limit": limit, "configurable": thread}, {"durability": "sync"}


def run_project(kind: str, steps: int, replies: list[str], db: Path) -> Sample:
    """One episode of ours."""
    saver = make_saver(kind, db, anchor=False)
    agent = build_agent(
        "wikipedia", saver, model=ScriptedReActModel(responses=replies, count_usage=False)
    )
    ctx = WikipediaContext(**tour_settings(steps))
    config, options = run_config(saver, recursion_limit(ctx))
    clock = Clock.start()
    result = agent.invoke({"question": TOUR_QUESTION}, config, context=ctx, **options)
    sample = clock.sample(lambda: file_size(saver, db))
    if len(result["steps"]) != steps:
        raise RuntimeError(f"ours ran {len(result['steps'])} steps, not {steps}: {result}")
    return sample


def run_anchor(kind: str, steps: int, db: Path) -> Sample:
    """One episode of `create_agent`."""
    saver = make_saver(kind, db, anchor=True)
    agent: Any = create_agent(InstantToolCallingModel(steps=steps), [lookup], checkpointer=saver)
    config, options = run_config(saver, 4 * steps + 10)
    clock = Clock.start()
    result = agent.invoke({"messages": [HumanMessage("Tour the pages.")]}, config, **options)
    sample = clock.sample(lambda: file_size(saver, db))
    if len(result["messages"]) != 2 * steps:
        raise RuntimeError(f"the anchor ran {len(result['messages'])} messages, not {2 * steps}")
    return sample


def file_size(saver: Any, db: Path) -> int | None:
    if not isinstance(saver, SqliteSaver):
        return None
    saver.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    saver.conn.close()
    return db.stat().st_size


def run_one(who: str, kind: str, replies: list[str], db: Path) -> Sample:
    """One episode of ours ("project") or of the anchor, as long as `replies`."""
    if who == "project":
        return run_project(kind, len(replies), replies, db)
    return run_anchor(kind, len(replies), db)


def measure(steps_list: list[int], reps: int, workdir: Path) -> list[dict[str, Any]]:
    """One row per (steps, saver): medians over `reps` interleaved pairs of runs.

    `ratio` is the median of the per-pair ratios (ours / anchor, wall clock),
    which cancels the load drifts a shared machine has between pairs;
    `cpu_ratio` is the same for process CPU time.
    """
    scripts = {steps: tour_replies(steps) for steps in steps_list}
    pairs: dict[tuple[int, str], list[dict[str, Sample]]] = {}
    run_project("sqlite", 4, tour_replies(4), workdir / "warm-ours.sqlite3")
    run_anchor("sqlite", 4, workdir / "warm-anchor.sqlite3")
    for rep in range(reps):
        for steps in steps_list:
            for kind in SAVERS:
                order = ("project", "anchor") if rep % 2 == 0 else ("anchor", "project")
                pair = {
                    who: run_one(who, kind, scripts[steps], workdir / f"{who}-{kind}-{steps}-{rep}")
                    for who in order
                }
                pairs.setdefault((steps, kind), []).append(pair)
        print(f"repetition {rep + 1}/{reps} done", file=sys.stderr)
    return [summary(steps, kind, pairs[(steps, kind)]) for steps in steps_list for kind in SAVERS]


def summary(steps: int, kind: str, pairs: list[dict[str, Sample]]) -> dict[str, Any]:
    """The row of one (steps, saver): medians per step and of the paired ratios."""
    row: dict[str, Any] = {"steps": steps, "saver": kind}
    for who in ("project", "anchor"):
        samples = [pair[who] for pair in pairs]
        row[f"{who}_ms_per_step"] = statistics.median(s.wall_s for s in samples) * 1000 / steps
        row[f"{who}_cpu_ms_per_step"] = statistics.median(s.cpu_s for s in samples) * 1000 / steps
        sizes = [s.size for s in samples if s.size is not None]
        row[f"{who}_bytes_per_step"] = round(statistics.median(sizes) / steps) if sizes else None
    row["ratio"] = statistics.median(p["project"].wall_s / p["anchor"].wall_s for p in pairs)
    row["cpu_ratio"] = statistics.median(p["project"].cpu_s / p["anchor"].cpu_s for p in pairs)
    return row


def print_table(results: list[dict[str, Any]], reps: int) -> None:
    print(f"Per step, medians of {reps} interleaved pairs (ours vs create_agent); ratios are")
    print("medians of the per-pair ratios, wall clock and process CPU time:")
    print(
        f"{'steps':>5} {'saver':<7}{'ours ms':>9}{'anchor ms':>11}{'ratio':>7}{'cpu ratio':>11}"
        f"{'ours B':>9}{'anchor B':>10}"
    )
    for row in results:
        ours_b, anchor_b = row["project_bytes_per_step"], row["anchor_bytes_per_step"]
        print(
            f"{row['steps']:>5} {row['saver']:<7}{row['project_ms_per_step']:>9.2f}"
            f"{row['anchor_ms_per_step']:>11.2f}{row['ratio']:>7.2f}{row['cpu_ratio']:>11.2f}"
            f"{'-' if ours_b is None else ours_b:>9}{'-' if anchor_b is None else anchor_b:>10}"
        )


def plot(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (times, sizes) = plt.subplots(1, 2, figsize=(10, 4))
    labels = [f"{row['saver']}\n{row['steps']} steps" for row in results]
    positions = range(len(results))
    for offset, who in ((-0.2, "project"), (0.2, "anchor")):
        name = "ours" if who == "project" else "create_agent"
        times.bar(
            [p + offset for p in positions],
            [row[f"{who}_ms_per_step"] for row in results],
            width=0.4,
            label=name,
        )
        sqlite = [row for row in results if row["saver"] == "sqlite"]
        sizes.bar(
            [i + offset for i in range(len(sqlite))],
            [row[f"{who}_bytes_per_step"] / 1024 for row in sqlite],
            width=0.4,
            label=name,
        )
        sizes.set_xticks(range(len(sqlite)), [f"{row['steps']} steps" for row in sqlite])
    times.set_xticks(list(positions), labels, fontsize=8)
    times.set_ylabel("ms per step (median)")
    sizes.set_ylabel("SQLite KiB per step")
    times.set_title("Time per step")
    sizes.set_title("Checkpoint file per step")
    for axis in (times, sizes):
        axis.legend()
        axis.grid(True, axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", default="40,200", help="episode lengths, comma-separated")
    parser.add_argument("--reps", type=int, default=5, help="repetitions (medians are reported)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", type=Path, default=None, help="write a PNG of the results")
    args = parser.parse_args(argv)
    steps_list = [int(part) for part in args.steps.split(",") if part.strip()]
    if any(steps < 2 for steps in steps_list) or args.reps < 1:
        parser.error("--steps must each be at least 2 and --reps at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-vs-prebuilt-") as workdir:
        results = measure(steps_list, args.reps, Path(workdir))
    if args.json:
        print(json.dumps({"results": results}))
    else:
        print_table(results, args.reps)
    if args.plot:
        plot(results, args.plot)
        print(f"plot written to {args.plot}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
