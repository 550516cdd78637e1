"""How wall time of `bench qa` scales with `--concurrency`.

Run with `python benchmarks/bench_concurrency.py`. A scripted model sleeps a
fixed time per call (as a remote model would wait on the network) and answers
64 built-in questions by ReAct: Search the first supporting article, then
Finish with the gold answer (2 model calls, 1 snapshot lookup, verification).
For each concurrency level it times the episodes alone (not the report and
plots), and prints them against the ideal: the serial time divided by the
concurrency. With `--plot FILE.png` it also draws them (the README's figure is
`--plot docs/benchmarks/concurrency.png`); it writes nothing else outside a
temporary directory.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph.evaluation.qa_bench import BenchConfig, QABench  # noqa: E402
from graph.evaluation.questions import select_questions  # noqa: E402
from graph.evaluation.runners import run_pending  # noqa: E402
from graph.testing import ScriptedReActModel  # noqa: E402

ROW = "{level:>11} {wall:>9.2f} {ideal:>9.2f} {speedup:>8.2f} {efficiency:>10.0%}"
HEADER = f"{'concurrency':>11} {'wall s':>9} {'ideal s':>9} {'speedup':>8} {'efficiency':>10}"


def scripted_model(questions: int, delay_s: float) -> ScriptedReActModel:
    """Replies for the first `questions` of the default sample: Search, then Finish."""
    chosen, _ = select_questions(None, questions, 0)
    scripts = {
        q["question"].strip(): [
            f"Thought: open the article.\nAction: Search[{q['supporting_facts'][0][0]}]",
            f"Thought: it says so.\nAction: Finish[{q['answer']}]",
        ]
        for q in chosen
    }
    return ScriptedReActModel(by_question=scripts, delay_s=delay_s)


def wall_time(level: int, questions: int, model: ScriptedReActModel, method: str) -> float:
    """Seconds to run every episode once at this concurrency (fresh output directory)."""
    with tempfile.TemporaryDirectory() as out:
        config = BenchConfig(
            out=Path(out),
            model="scripted:bench",
            methods=(method,),
            n=questions,
            seeds=1,
            concurrency=level,
        )
        bench = QABench(config, lambda component, seed: model, progress=False)
        bench.prepare()
        started = time.perf_counter()
        ran = run_pending(bench)
        elapsed = time.perf_counter() - started
        failed = [r["stop_reason"] for r in bench.log.load().values() if r["status"] == "error"]
        if ran != questions or failed:
            raise RuntimeError(f"expected {questions} clean episodes, ran {ran}: {failed[:3]}")
        return elapsed


def plot(levels: list[int], walls: list[float], path: Path, title: str) -> None:
    """Measured and ideal wall time against concurrency."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ideal = [walls[0] * levels[0] / level for level in levels]
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    ax.plot(levels, walls, "o-", label="measured")
    ax.plot(levels, ideal, "s--", label="ideal (serial / concurrency)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(levels, [str(level) for level in levels])
    ax.set_xlabel("--concurrency")
    ax.set_ylabel("wall time (s)")
    ax.set_title(title, fontsize=10)
    ax.legend()
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Measure, print the table, and draw the PNG if `--plot` asks for one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--questions", type=int, default=64)
    parser.add_argument("--delay", type=float, default=0.1, help="seconds per model call")
    parser.add_argument("--levels", default="1,4,16", help="concurrency levels, first is serial")
    parser.add_argument("--method", default="react", help="method to run (default: react)")
    parser.add_argument("--plot", type=Path, default=None, help="write a PNG of the figures")
    args = parser.parse_args(argv)
    levels = [int(part) for part in args.levels.split(",")]
    model = scripted_model(args.questions, args.delay)
    wall_time(levels[0], 2, model, args.method)  # warm the snapshot index and imports
    walls = [wall_time(level, args.questions, model, args.method) for level in levels]
    print(f"{args.questions} questions, method {args.method}, {args.delay:g} s per model call")
    print(HEADER)
    for level, wall in zip(levels, walls, strict=True):
        ideal = walls[0] * levels[0] / level
        speedup = walls[0] / wall
        print(
            ROW.format(
                level=level,
                wall=wall,
                ideal=ideal,
                speedup=speedup,
                efficiency=speedup / (level / levels[0]),
            )
        )
    title = (
        f"bench qa wall time: {args.questions} questions, {args.method}, "
        f"{args.delay:g} s per call (scripted)"
    )
    if args.plot:
        plot(levels, walls, args.plot, title)
        print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
