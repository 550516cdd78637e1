"""Where the combiner's threshold can sit: gold answers verified against wrong answers
verified, as the share of training gold each threshold keeps moves.

Run with `python benchmarks/verifier_operating_curve.py [--targets 0.85,...] [--plot P]`
(needs the `[train]` extra: scikit-learn). For each target share of the names' threshold
(the years' and numbers' stays at `--value-target`, as shipped) it trains the per-fold
combiners as `train_verifier_combiner.py` does (nothing is written), verifies every case
of `react-agent bench verifier` with the combiner that never saw its fold, and prints
the `verified` share of the gold answers on an episode's evidence and of each hard
negative kind, with the issue's targets; the plot draws the same. It shows which
targets one threshold can meet together on these questions.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import train_verifier_combiner as training  # noqa: E402

from graph.evaluation.config import BenchError, check_output_file  # noqa: E402
from graph.evaluation.hotpot import load_questions  # noqa: E402
from graph.evaluation.verifier_cases import build_cases, fold_of, pages_of  # noqa: E402
from graph.verifier import verify_answer  # noqa: E402
from graph.verifier.kinds.lexicon_store import snapshot_lexicon  # noqa: E402
from graph.verifier.score.combiner import Combiner  # noqa: E402

DEFAULT_TARGETS = (0.85, 0.88, 0.9, 0.93, 0.95, 0.96, 0.97, 0.99)
# The ceilings on wrong answers verified, and its floor on gold verified.
CEILINGS = {
    "span_swap": 0.25,
    "bridge_entity": 0.20,
    "bridge_page_span": 0.20,
    "partial_name": 0.15,
    "extended_name": 0.15,
}
GOLD = "episode_positive"
GOLD_FLOOR = 0.85
CLI_GOLD_FLOOR = 0.90


def curve(targets: list[float], value_target: float) -> list[dict[str, Any]]:
    """The verified share of the gold and hard-negative kinds at each names' target."""
    rows = training.examples()
    questions = load_questions()
    cases = [
        case
        for case in build_cases(questions, pages_of(questions))
        if case["case"] in (GOLD, *CEILINGS)
    ]
    lexicon = snapshot_lexicon()
    points = []
    for target in targets:
        folds = [
            Combiner.from_json(
                training.fit_groups([r for r in rows if r["fold"] != fold], target, value_target)
            )
            for fold in range(training.FOLDS)
        ]
        verified: Counter[str] = Counter()
        total: Counter[str] = Counter()
        for case in cases:
            decider = folds[fold_of(case["id"], training.FOLDS)]
            verdict = verify_answer(
                case["question"], case["answer"], case["evidence"], lexicon=lexicon, decider=decider
            )
            total[case["case"]] += 1
            verified[case["case"]] += verdict["outcome"] == "verified"
        point = {"target": target} | {kind: verified[kind] / total[kind] for kind in total}
        points.append(point)
        print(
            f"target {target:.2f}: gold verified {point[GOLD]:.3f}; "
            + ", ".join(f"{kind} {point[kind]:.3f}" for kind in CEILINGS),
            flush=True,
        )
    return points


def plot(points: list[dict[str, Any]], path: Path) -> None:
    """Gold verified on the x axis, each hard negative kind's verified share on the y."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    gold = [point[GOLD] for point in points]
    for kind, ceiling in CEILINGS.items():
        (line,) = axes.plot(gold, [point[kind] for point in points], marker="o", label=kind)
        axes.axhline(ceiling, color=line.get_color(), linestyle=":", linewidth=1)
    axes.axvline(GOLD_FLOOR, color="grey", linestyle="--", linewidth=1, label="gold floor 0.85")
    axes.axvline(CLI_GOLD_FLOOR, color="black", linestyle="--", linewidth=1, label="CLI gold 0.90")
    for point in points:
        axes.annotate(f"{point['target']:.2f}", (point[GOLD], 0.02), fontsize=7, ha="center")
    axes.set_xlabel("gold answers verified (held-out folds, an episode's evidence)")
    axes.set_ylabel("wrong answers verified (dotted: the issue's ceilings)")
    axes.set_title("The combiner's threshold: each point one target share of training gold")
    axes.legend(fontsize=7, loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    print(f"wrote {path}")


def _targets(text: str) -> list[float]:
    """Comma-separated shares, each strictly between 0 and 1."""
    try:
        targets = [float(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected shares like 0.9,0.93, got {text!r}") from None
    if not all(0 < target < 1 for target in targets):
        raise argparse.ArgumentTypeError(f"each share must lie between 0 and 1, got {text!r}")
    return targets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--targets",
        type=_targets,
        default=list(DEFAULT_TARGETS),
        help="Comma-separated target shares of training gold (default: 0.85 to 0.99).",
    )
    parser.add_argument(
        "--value-target",
        type=float,
        default=training.VALUE_TARGET_RECALL,
        help="Target share of the years' and numbers' threshold (default: %(default)s, shipped).",
    )
    parser.add_argument("--plot", type=Path, default=Path("verifier_operating_curve.png"))
    args = parser.parse_args(argv)
    try:
        check_output_file(args.plot, "--plot", "the plot")
    except BenchError as error:
        parser.error(str(error))
    plot(curve(args.targets, args.value_target), args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
