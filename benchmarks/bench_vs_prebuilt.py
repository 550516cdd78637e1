"""Per-step cost and checkpoint bytes: this agent against LangGraph's prebuilt agent.

Usage: python benchmarks/bench_vs_prebuilt.py [--steps 40,200] [--reps 5] [--json]
    [--plot FILE] [--floor]

Ours: the Wikipedia agent with an instant scripted model touring the offline
snapshot (`graph.testing.tour_replies`: Search a page, Lookup a word on it,
Search the next page, ..., then Finish). The anchor: `langchain.agents.create_agent`
with an instant fake tool-calling model and a trivial tool, N-1 tool calls then
a final answer. Both run in this process, interleaved (the order flips every
repetition), with no checkpointer, `InMemorySaver` and SQLite on a fresh file
(the same connection pragmas for both), each agent in its shipped durability
(mode `default`: `async` for both here) and both in `durability="sync"` (mode
`sync`); figures are medians over the repetitions. Bytes per step: the SQLite file's size after a
WAL checkpoint, divided by the steps. Prints a table, or with `--json`
`{"results": [{"steps", "saver", "mode", "project_ms_per_step", "anchor_ms_per_step",
"ratio", "project_bytes_per_step", "anchor_bytes_per_step"}]}` (plus CPU
figures). With `--floor`, each pair also runs our graph and saver with do-nothing
nodes (`prebuilt_runs.FloorNodes`: the floor our graph's shape, channels, guard and
saver set) and a bare graph of three do-nothing nodes on one integer channel with our
saver (`prebuilt_runs.run_bare`: what LangGraph alone costs for three supersteps a
step), reported as `floor_ratio` and `bare_ratio`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from prebuilt_runs import Sample, run_one

from graph.testing import tour_replies

SAVERS = ("none", "memory", "sqlite")
CASES: tuple[tuple[str, str], ...] = (
    ("none", "default"),
    ("memory", "default"),
    ("memory", "sync"),
    ("sqlite", "default"),
    ("sqlite", "sync"),
)
"""(saver, mode): `default` runs each agent in its shipped durability (ours: `async` for
Wikipedia, `graph.settings.durability`; the anchor: LangGraph's default, `async`), `sync` both
synchronously. Without a saver there is nothing to save, so no `sync` row."""


def measure(
    steps_list: list[int], reps: int, workdir: Path, floor: bool = False
) -> list[dict[str, Any]]:
    """One row per (steps, saver): medians over `reps` interleaved pairs of runs.

    `ratio` is the median of the per-pair ratios (ours / anchor, wall clock),
    which cancels the load drifts a shared machine has between pairs;
    `cpu_ratio` is the same for process CPU time. With `floor`, each pair also
    runs `FloorNodes` and the bare graph, and `floor_ratio` and `bare_ratio` are theirs
    (wall clock).
    """
    scripts = {steps: tour_replies(steps) for steps in steps_list}
    pairs: dict[tuple[int, str, str], list[dict[str, Sample]]] = {}
    members = ("project", "anchor", "floor", "bare") if floor else ("project", "anchor")
    for who in members:
        run_one(who, "sqlite", tour_replies(4), workdir / f"warm-{who}.sqlite3")
    for rep in range(reps):
        for steps in steps_list:
            for kind, mode in CASES:
                order = members if rep % 2 == 0 else members[::-1]
                name = f"{kind}-{mode}-{steps}-{rep}"
                pair = {
                    who: run_one(who, kind, scripts[steps], workdir / f"{who}-{name}", mode)
                    for who in order
                }
                pairs.setdefault((steps, kind, mode), []).append(pair)
        print(f"repetition {rep + 1}/{reps} done", file=sys.stderr)
    return [
        summary(steps, kind, mode, pairs[(steps, kind, mode)])
        for steps in steps_list
        for kind, mode in CASES
    ]


def summary(steps: int, kind: str, mode: str, pairs: list[dict[str, Sample]]) -> dict[str, Any]:
    """The row of one (steps, saver, mode): medians per step and of the paired ratios."""
    row: dict[str, Any] = {"steps": steps, "saver": kind, "mode": mode}
    for who in ("project", "anchor"):
        samples = [pair[who] for pair in pairs]
        row[f"{who}_ms_per_step"] = statistics.median(s.wall_s for s in samples) * 1000 / steps
        row[f"{who}_cpu_ms_per_step"] = statistics.median(s.cpu_s for s in samples) * 1000 / steps
        sizes = [s.size for s in samples if s.size is not None]
        row[f"{who}_bytes_per_step"] = round(statistics.median(sizes) / steps) if sizes else None
    row["ratio"] = statistics.median(p["project"].wall_s / p["anchor"].wall_s for p in pairs)
    row["cpu_ratio"] = statistics.median(p["project"].cpu_s / p["anchor"].cpu_s for p in pairs)
    for who in ("floor", "bare"):
        if who in pairs[0]:
            samples = [pair[who] for pair in pairs]
            row[f"{who}_ms_per_step"] = statistics.median(s.wall_s for s in samples) * 1000 / steps
            row[f"{who}_ratio"] = statistics.median(
                p[who].wall_s / p["anchor"].wall_s for p in pairs
            )
    return row


def print_table(results: list[dict[str, Any]], reps: int) -> None:
    print(f"Per step, medians of {reps} interleaved pairs (ours vs create_agent); ratios are")
    print("medians of the per-pair ratios, wall clock and process CPU time:")
    print(
        f"{'steps':>5} {'saver':<7}{'mode':<8}{'ours ms':>9}{'anchor ms':>11}{'ratio':>7}"
        f"{'cpu ratio':>11}{'ours B':>9}{'anchor B':>10}"
    )
    for row in results:
        ours_b, anchor_b = row["project_bytes_per_step"], row["anchor_bytes_per_step"]
        floor = (
            f"  floor {row['floor_ratio']:.2f}  bare {row['bare_ratio']:.2f}"
            if "floor_ratio" in row
            else ""
        )
        print(
            f"{row['steps']:>5} {row['saver']:<7}{row['mode']:<8}{row['project_ms_per_step']:>9.2f}"
            f"{row['anchor_ms_per_step']:>11.2f}{row['ratio']:>7.2f}{row['cpu_ratio']:>11.2f}"
            f"{'-' if ours_b is None else ours_b:>9}{'-' if anchor_b is None else anchor_b:>10}"
            + floor
        )


def plot(results: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (times, sizes) = plt.subplots(1, 2, figsize=(10, 4))
    labels = [f"{row['saver']} {row['mode']}\n{row['steps']} steps" for row in results]
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
        sizes.set_xticks(
            range(len(sqlite)), [f"{row['mode']}\n{row['steps']} steps" for row in sqlite]
        )
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
    parser.add_argument(
        "--floor", action="store_true", help="also time our graph with do-nothing nodes"
    )
    args = parser.parse_args(argv)
    steps_list = [int(part) for part in args.steps.split(",") if part.strip()]
    if any(steps < 2 for steps in steps_list) or args.reps < 1:
        parser.error("--steps must each be at least 2 and --reps at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-vs-prebuilt-") as workdir:
        results = measure(steps_list, args.reps, Path(workdir), args.floor)
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
