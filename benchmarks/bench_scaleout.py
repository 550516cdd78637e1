"""Episodes per second of `bench qa`: threads, `--workers N` processes, `--server`.

Run with `python benchmarks/bench_scaleout.py` (`--json` for one JSON object,
`--plot --out DIR` for a figure). Two scripted models answer the built-in
HotpotQA questions (`graph.evaluation.oracles.HotpotOracleModel`: Search each supporting
page, then Finish; three model calls, two snapshot searches and the verifier
per episode): one *waits* 0.1 s per call, as a model behind an API does, and
one *computes* for 0.1 s of CPU per call, as a local model does. For each it
times the episodes alone (not the report) of:

- `threads N`: one process, `--concurrency N` (episodes in memory);
- `workers N`: `--workers N`, N processes sharing an SQLite store (`--db`),
  process start included;
- `server J`: `--server`, against a `langgraph dev` that runs at most J runs
  at once (its checkpoints in SQLite), after a warm-up run.

Each rate is compared with the ideal, N times the rate of one process running
the episodes one after the other. Everything is written under a temporary
directory; servers listen on 127.0.0.1 and are stopped by process group id.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from graph.evaluation.qa_bench import BenchConfig, QABench  # noqa: E402
from graph.evaluation.runners import run_pending  # noqa: E402

MODELS = {
    "wait 0.1 s/call": "graph.evaluation.oracles:slow_hotpot_model",
    "CPU 0.1 s/call": "graph.evaluation.oracles:busy_hotpot_model",
}
METHOD = "react+verify"
COLUMNS = "{:<16} {:<11} {:>8} {:>7} {:>6} {:>6} {:>5}"
HEADER = COLUMNS.format("model", "mode", "episodes", "wall s", "ep/s", "ideal", "eff.")


def timed_run(config: BenchConfig) -> tuple[int, float]:
    """(episodes run, seconds) of one comparison's pending episodes."""
    bench = QABench(config, progress=False)
    bench.prepare()
    started = time.perf_counter()
    ran = run_pending(bench)
    return ran, time.perf_counter() - started


@contextmanager
def langgraph_server(root: Path, jobs: int, db: str | None) -> Iterator[str]:
    """A `langgraph dev` on 127.0.0.1 running at most `jobs` runs at once, its checkpoints
    in `db` (default: an SQLite file under `root`)."""
    from server_utils import start_server, stop_server

    server = start_server(root, db or root / "server.sqlite3", jobs=jobs)
    try:
        yield server.url
    finally:
        stop_server(server)


def measure(
    model: str,
    questions: int,
    levels: list[int],
    jobs: list[int],
    root: Path,
    say: Callable[[str], None],
    db: str | None = None,
) -> list[dict[str, Any]]:
    """Every mode's rate for one model; the first row is the sequential baseline."""
    rows: list[dict[str, Any]] = []

    def run(mode: str, level: int, **options: Any) -> None:
        out = root / f"{len(rows)}-{mode.replace(' ', '')}"
        config = BenchConfig(
            out=out, model=model, methods=(METHOD,), n=questions, seeds=1, **options
        )
        ran, wall = timed_run(config)
        base = rows[0]["rate"] if rows else ran / wall
        row = {"mode": mode, "level": level, "episodes": ran, "wall_s": round(wall, 3)}
        row |= {
            "rate": ran / wall,
            "ideal": level * base,
            "efficiency": ran / wall / (level * base),
        }
        rows.append(row)
        say(f"  {mode}: {ran} episodes in {wall:.2f} s")

    run("sequential", 1, concurrency=1)
    for level in levels:
        if level > 1:  # one thread is the sequential baseline
            run(f"threads {level}", level, concurrency=level)
    for level in levels:
        store = db or str(root / f"store-{level}.sqlite3")
        run(f"workers {level}", level, workers=level, db=store)
    for level in jobs:
        with langgraph_server(root / f"server-{level}", level, db) as url:
            warm = BenchConfig(
                out=root / f"warm-{level}", model=model, methods=(METHOD,), n=2, seeds=1, server=url
            )
            timed_run(warm)
            run(f"server {level}", level, server=url, concurrency=max(level, 4))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=12, help="episodes per mode (default: 12)")
    parser.add_argument("--levels", default="1,2,4", help="threads and workers (default: 1,2,4)")
    parser.add_argument(
        "--server-jobs", default="1,4", help="server run slots (default: 1,4; '' skips)"
    )
    parser.add_argument("--models", default=",".join(MODELS), help="which models, by label")
    parser.add_argument(
        "--db", help="store of the workers and the server: a postgresql:// URL (default: SQLite)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--plot", action="store_true", help="draw the rates (needs --out)")
    parser.add_argument("--out", type=Path, help="directory for the plot")
    args = parser.parse_args(argv)
    if args.plot and args.out is None:
        parser.error("--plot needs --out DIR")
    levels = [int(x) for x in args.levels.split(",") if x]
    jobs = [int(x) for x in args.server_jobs.split(",") if x]
    chosen = [label.strip() for label in args.models.split(",") if label.strip()]
    say = (lambda _: None) if args.json else (lambda text: print(text, file=sys.stderr, flush=True))
    results: dict[str, Any] = {
        "store": "postgresql" if args.db else "sqlite",
        "cores": os.cpu_count(),
        "load_avg": list(os.getloadavg()),
        "models": {},
    }
    with tempfile.TemporaryDirectory() as scratch:
        for label in chosen:
            say(f"{label} ({MODELS[label]}):")
            results["models"][label] = measure(
                MODELS[label],
                args.questions,
                levels,
                jobs,
                Path(scratch) / str(len(results["models"])),
                say,
                args.db,
            )
    results["load_avg_after"] = list(os.getloadavg())
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_table(results)
    if args.plot:
        plot(results, args.out)
    return 0


def print_table(results: dict[str, Any]) -> None:
    """The rates as a table, under the machine's cores and load."""
    before, after = results["load_avg"][0], results["load_avg_after"][0]
    print(f"{results['cores']} cores, shared (load {before:.1f} before, {after:.1f} after)")
    print(HEADER)
    for label, rows in results["models"].items():
        for row in rows:
            figures = (f"{row['wall_s']:.2f}", f"{row['rate']:.2f}", f"{row['ideal']:.2f}")
            efficiency = f"{row['efficiency']:.0%}"
            print(COLUMNS.format(label, row["mode"], row["episodes"], *figures, efficiency))


def plot(results: dict[str, Any], out: Path) -> None:
    """Episodes per second by mode, one panel per model, the ideal as a marker."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out.mkdir(parents=True, exist_ok=True)
    models = results["models"]
    figure, axes = plt.subplots(1, len(models), figsize=(6 * len(models), 4), squeeze=False)
    for axis, (label, rows) in zip(axes[0], models.items(), strict=True):
        names = [row["mode"] for row in rows]
        axis.bar(names, [row["rate"] for row in rows], label="measured")
        axis.scatter(
            names, [row["ideal"] for row in rows], color="black", marker="_", s=400, label="ideal"
        )
        axis.set_title(f"{label} ({results['cores']} shared cores)")
        axis.set_ylabel("episodes / s")
        axis.tick_params(axis="x", rotation=45)
        axis.legend()
    figure.tight_layout()
    figure.savefig(out / "scaleout.png", dpi=100)


if __name__ == "__main__":
    sys.exit(main())
