"""Graph overhead per step and checkpoint-file growth, with an instant scripted model.

Usage: python benchmarks/bench_graph.py [--steps 40] [--repeat 5] [--plot FILE.png]

Prints, for episodes of N steps (N-1 Searches of distinct snapshot titles, then
Finish): milliseconds per step with no checkpointer (baseline), with the
in-memory saver and with SQLite on a file, each as a ratio to the baseline;
the time the Wikipedia tool itself took per step; and the SQLite file's size
after 10, 20, 30 and 40-step episodes with the growth per step.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver

from graph.agent import build_agent
from graph.context import WikipediaContext
from graph.runner import open_checkpointer, run_episode
from graph.testing import ScriptedReActModel
from tools.wikipedia.snapshot import shared_snapshot

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


def timed_episode(checkpointer: Any, steps: int) -> tuple[float, dict[str, Any]]:
    agent = build_agent(
        "wikipedia", checkpointer, model=ScriptedReActModel(responses=script(steps))
    )
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
    source = shared_snapshot()
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

    sizes: list[tuple[int, int]] = []
    for steps in (10, 20, 30, 40):
        db = workdir / f"size-{steps}.sqlite3"
        _, result = timed_episode(open_checkpointer(db), steps)
        assert result["steps"] == steps, result["stop_reason"]
        sizes.append((steps, file_size(db)))
    print(f"{'steps':>6}{'file bytes':>12}{'bytes/step':>12}{'growth since previous':>24}")
    previous: tuple[int, int] | None = None
    for steps, size in sizes:
        growth = (
            "" if previous is None else f"{(size - previous[1]) / (steps - previous[0]):.0f} B/step"
        )
        print(f"{steps:>6}{size:>12}{size / steps:>12.0f}{growth:>24}")
        previous = (steps, size)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axis = plt.subplots(figsize=(6, 4))
        axis.plot([s for s, _ in sizes], [b / 1024 for _, b in sizes], marker="o")
        axis.set_xlabel("steps in the episode")
        axis.set_ylabel("SQLite file size (KiB)")
        axis.set_title("Checkpoint file growth (DeltaChannel trajectory)")
        axis.grid(True, alpha=0.3)
        figure.tight_layout()
        figure.savefig(args.plot, dpi=120)
        print(f"plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
