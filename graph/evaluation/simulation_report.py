"""The simulation's options on `bench verifier`, its text table and its plot.

`graph.evaluation.plots` is imported only when the plot is drawn: matplotlib is an
optional extra, and at the top it would add about 0.4 s to every `react-agent bench`
command's start-up (python -X importtime).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from graph.evaluation.bench_args import whole_number
from graph.evaluation.config import BenchError, check_output_file
from graph.evaluation.hotpot import load_questions
from graph.evaluation.simulation import POLICY_KINDS, SimulationSettings, run_simulation
from graph.evaluation.verifier_cases import fold_of

DEFAULT_PLOT = Path("verifier_simulation.png")
RUN_LINE = (
    "p={p:<4} verifier {verifier:<3}  exact match {em:.3f} (first answer {first_answer_em:.3f})"
    "  verified precision {verified}  grounded precision {grounded}  statuses {statuses}"
)


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a probability in 0..1, got {text!r}")
    return value


def _shares(text: str) -> tuple[float, ...]:
    return tuple(_share(part) for part in text.split(",") if part.strip())


def _kinds(text: str) -> tuple[str, ...]:
    kinds = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    unknown = [kind for kind in kinds if kind not in POLICY_KINDS]
    if unknown or not kinds:
        raise argparse.ArgumentTypeError(
            f"expected some of {', '.join(POLICY_KINDS)}, got {text!r}"
        )
    return kinds


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The `--simulate` option and its parameters."""
    default = SimulationSettings()
    group = parser.add_argument_group(
        "simulation",
        "Scripted policies through the real graph, verifier on and off: they search the gold "
        "pages, finish with the gold answer with probability p and a hard negative otherwise; "
        "when the answer is sent back they keep it with probability --keep, else switch to the "
        "gold answer with probability --p-switch and to another hard negative otherwise. Verifier "
        "off: the graph's verify_mode 'record' (the first Finish ends the episode). Questions: "
        "the first --n of --data, of --folds if given (default: the built-in ones, on which "
        "the shipped combiner was trained).",
    )
    group.add_argument(
        "--simulate", action="store_true", help="Run the simulation instead of the cases."
    )
    group.add_argument(
        "--p",
        type=_shares,
        default=default.ps,
        metavar="P[,P...]",
        help="Chances of a first answer being gold (default: "
        + ",".join(map(str, default.ps))
        + ").",
    )
    group.add_argument(
        "--keep",
        type=_share,
        default=default.keep,
        help="Chance to keep a sent-back answer (default: %(default)s).",
    )
    group.add_argument(
        "--p-switch",
        type=_share,
        default=default.p_switch,
        help="Chance that a switch goes to the gold answer (default: %(default)s).",
    )
    group.add_argument(
        "--kinds",
        type=_kinds,
        default=default.kinds,
        metavar="KIND[,KIND...]",
        help="Case kinds of the hard negatives a policy draws (default: all of "
        + ",".join(POLICY_KINDS)
        + "; span_swap alone: a wrong-span policy).",
    )
    group.add_argument(
        "--n",
        type=whole_number,
        default=default.n,
        help="Questions (default: %(default)s; 0: all).",
    )
    group.add_argument(
        "--seed", type=int, default=default.seed, help="Seed of the draws (default: %(default)s)."
    )
    group.add_argument(
        "--plot",
        type=Path,
        default=DEFAULT_PLOT,
        help="Plot of exact match against p (default: %(default)s).",
    )


def command(args: argparse.Namespace) -> int:
    """Run the simulation, print its figures (or `--json`), write the plot."""
    cfg = SimulationSettings(
        ps=args.p,
        keep=args.keep,
        p_switch=args.p_switch,
        n=args.n,
        seed=args.seed,
        kinds=args.kinds,
    )
    check_output_file(args.plot, "--plot", "the plot")
    plot = args.plot if args.plot.suffix else args.plot.with_suffix(".png")  # what is written
    try:
        questions = load_questions(args.data)
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot read the questions: {error}") from None
    if args.folds is not None:
        count, chosen = args.folds
        questions = [q for q in questions if fold_of(q["_id"], count) in chosen]
    summary = run_simulation(cfg, questions)
    from graph.evaluation.plots import plot_simulation

    plot_simulation(summary, plot)
    summary["plot"] = str(plot)
    print(json.dumps(summary, ensure_ascii=False) if args.json else format_simulation(summary))
    return 0


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def format_simulation(summary: dict[str, Any]) -> str:
    """The parameters, then one line per p and verifier mode."""
    settings = summary["settings"]
    lines = [
        f"simulation over {settings['questions']} questions: keep {settings['keep']},"
        f" p_switch {settings['p_switch']}, seed {settings['seed']}; hard negatives:"
        f" {', '.join(settings['policy_kinds'])} ({summary['without_negative']} questions"
        " without one answer gold)"
    ]
    for run in summary["runs"]:
        statuses = ", ".join(f"{s} {v:.2f}" for s, v in run["status_share"].items())
        lines.append(
            RUN_LINE.format(
                **run,
                verified=_rate(run["verified_precision"]),
                grounded=_rate(run["grounded_precision"]),
                statuses=statuses,
            )
        )
        kinds = run["by_first_kind"].items()
        lines.append(
            "  exact match by first answer: "
            + ", ".join(f"{kind} {row['em']:.2f} ({row['episodes']})" for kind, row in kinds)
        )
    if "plot" in summary:
        lines.append(f"plot: {summary['plot']}")
    return "\n".join(lines)
