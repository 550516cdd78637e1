"""Benchmark of the verifier on HotpotQA questions, easy and hard cases.

The cases are described in `graph.evaluation.verifier_cases`. Figures:
precision, recall and F1 of `supported` on the easy cases (overall and per
question type), the recall on an episode's evidence, the acceptance of hard
negatives (wrong spans from the right pages, swapped yes/no) by case kind and
by answer kind, and the time spent inside `verify_answer` (mean and median).
The verifier gets the snapshot's type lexicon, as the agent does.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from graph.evaluation.hotpot import load_questions
from graph.evaluation.spans import ANSWER_KINDS
from graph.evaluation.verifier_cases import (
    CASE_KINDS,
    EASY_KINDS,
    HARD_NEGATIVE_KINDS,
    SEED,
    build_cases,
    fold_of,
    load_pages,
)
from graph.verifier import verify_answer
from graph.verifier.lexicon import snapshot_lexicon

QUESTION_TYPES = ("bridge", "comparison")
DEFAULT_OUT = Path("verifier_bench.jsonl")
RESULT_KEYS = ("id", "type", "case", "answer_kind", "question", "answer", "label")

SUMMARY_LINE = (
    "{label:<12} precision {precision:.3f}  recall {recall:.3f}  f1 {f1:.3f}  ({cases} cases)"
)
SPEED_LINE = (
    "{per_second:,.0f} verifications per second ({ms:.3f} ms mean, {median:.3f} ms median)"
    " over {cases} cases"
)
CASE_LINE = "{kind:<17} {accepted:>5}/{cases:<5} accepted ({rate:.3f})"
KIND_LINE = (
    "{kind:<8} hard negatives accepted {accepted:>4}/{cases:<4} ({rate:.3f})"
    "   gold recall {recall:.3f} ({positives})"
)
ERROR_LINE = (
    "- [{type}/{case}] expected {expected}, got {got}: Q: {question} | A: {answer}\n  {reason}"
)


def _rate(part: int, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def _scores(results: Iterable[dict[str, Any]]) -> dict[str, float | int]:
    tp = fp = fn = tn = 0
    for result in results:
        if result["supported"]:
            tp, fp = (tp + 1, fp) if result["label"] else (tp, fp + 1)
        else:
            fn, tn = (fn + 1, tn) if result["label"] else (fn, tn + 1)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "cases": tp + fp + fn + tn,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def _acceptance(results: list[dict[str, Any]]) -> dict[str, Any]:
    accepted = sum(bool(r["supported"]) for r in results)
    wrong = sum(r["supported"] != r["label"] for r in results)
    return {
        "cases": len(results),
        "accepted": accepted,
        "acceptance": _rate(accepted, len(results)),
        "wrong": wrong,
    }


def _by_answer_kind(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Hard-negative acceptance and gold recall (gold sentences) for each answer kind."""
    table: dict[str, dict[str, Any]] = {}
    for kind in ANSWER_KINDS:
        hard = [r for r in results if r["case"] in HARD_NEGATIVE_KINDS and r["answer_kind"] == kind]
        gold = [r for r in results if r["case"] == "positive" and r["answer_kind"] == kind]
        recalled = sum(bool(r["supported"]) for r in gold)
        table[kind] = {
            "hard_negatives": len(hard),
            "accepted": sum(bool(r["supported"]) for r in hard),
            "acceptance": _rate(sum(bool(r["supported"]) for r in hard), len(hard)),
            "positives": len(gold),
            "recall": _rate(recalled, len(gold)),
        }
    return table


def _progress(items: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(
        items,
        desc="verifier bench",
        unit="case",
        file=sys.stderr,
        disable=len(items) < 200 or not sys.stderr.isatty(),
    )


def _write(out: Path, results: list[dict[str, Any]]) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for result in results:
            handle.write(json.dumps(result, ensure_ascii=False) + "\n")


def summarise(
    results: list[dict[str, Any]], timings: list[float], sample_errors: int = 10
) -> dict[str, Any]:
    """The benchmark's figures from per-case results and the seconds each check took."""
    easy = [r for r in results if r["case"] in EASY_KINDS]
    hard = [r for r in results if r["case"] in HARD_NEGATIVE_KINDS]
    overall = _scores(easy)
    wrong = [r for r in results if r["supported"] != r["label"]]
    elapsed = sum(timings)
    return {
        **{key: overall[key] for key in ("precision", "recall", "f1")},
        "episode_recall": _acceptance([r for r in results if r["case"] == "episode_positive"])[
            "acceptance"
        ],
        "hard_negative_acceptance": _acceptance(hard)["acceptance"],
        "by_type": {
            kind: _scores(r for r in easy if r["type"] == kind)
            for kind in sorted({r["type"] for r in easy} | set(QUESTION_TYPES))
        },
        "by_case": {
            kind: _acceptance([r for r in results if r["case"] == kind]) for kind in CASE_KINDS
        },
        "by_answer_kind": _by_answer_kind(results),
        "counts": {key: overall[key] for key in ("tp", "fp", "fn", "tn")},
        "per_second": round(len(timings) / elapsed, 1) if elapsed else 0.0,
        "ms_per_verification": round(1000 * elapsed / len(timings), 4) if timings else 0.0,
        "ms_median": round(1000 * statistics.median(timings), 4) if timings else 0.0,
        "cases": len(results),
        "errors": random.Random(SEED).sample(wrong, min(sample_errors, len(wrong))),
    }


def run_verifier_bench(
    data: Path | None = None,
    out: Path | None = None,
    sample_errors: int = 10,
    *,
    with_type: bool = False,
    folds: tuple[int, Sequence[int]] | None = None,
) -> dict[str, Any]:
    """Run every case through `verify_answer` and summarise the outcome.

    `data` is a HotpotQA JSONL(.gz) file (default: the built-in sample); `out`,
    when given, receives one JSON line per case. With `with_type` the verifier
    is told each question's HotpotQA type; by default it must detect
    comparisons itself, as it does inside the agent. `folds` = (N, [K, ...])
    keeps only the questions of folds K out of N (see `fold_of`).
    """
    questions = load_questions(data)
    if folds is not None:
        count, chosen = folds
        questions = [q for q in questions if fold_of(q["_id"], count) in chosen]
    titles = {title for q in questions for title in q.get("context_titles", [])}
    titles |= {title for q in questions for title, _ in q["supporting_facts"]}
    cases = list(build_cases(questions, load_pages(titles)))
    lexicon = snapshot_lexicon()
    results: list[dict[str, Any]] = []
    timings: list[float] = []
    for case in _progress(cases):
        started = time.perf_counter()
        verdict = verify_answer(
            case["question"],
            case["answer"],
            case["evidence"],
            question_type=case["type"] if with_type else None,
            lexicon=lexicon,
        )
        timings.append(time.perf_counter() - started)
        results.append(
            {key: case[key] for key in RESULT_KEYS}
            | {"n_evidence": len(case["evidence"]), **verdict}
        )
    if out is not None:
        _write(out, results)
    return summarise(results, timings, sample_errors) | {"with_type": with_type}


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a few lines of text, with the sample of wrong cases."""
    lines = [
        SUMMARY_LINE.format(
            label="easy cases",
            cases=sum(summary["by_type"][kind]["cases"] for kind in summary["by_type"]),
            **{key: summary[key] for key in ("precision", "recall", "f1")},
        )
    ]
    for kind, scores in summary["by_type"].items():
        lines.append(SUMMARY_LINE.format(label=kind, **scores))
    lines.append(
        f"hard negatives accepted {summary['hard_negative_acceptance']:.3f};"
        f" gold recall on an episode's evidence {summary['episode_recall']:.3f}"
    )
    for kind, row in summary["by_case"].items():
        lines.append(
            CASE_LINE.format(
                kind=kind, accepted=row["accepted"], cases=row["cases"], rate=row["acceptance"]
            )
        )
    for kind, row in summary["by_answer_kind"].items():
        lines.append(
            KIND_LINE.format(
                kind=kind,
                accepted=row["accepted"],
                cases=row["hard_negatives"],
                rate=row["acceptance"],
                recall=row["recall"],
                positives=row["positives"],
            )
        )
    lines.append(
        SPEED_LINE.format(
            per_second=summary["per_second"],
            ms=summary["ms_per_verification"],
            median=summary["ms_median"],
            cases=summary["cases"],
        )
    )
    if summary["errors"]:
        lines.append(f"sample of wrong cases ({len(summary['errors'])}):")
        lines.extend(
            ERROR_LINE.format(
                type=e["type"],
                case=e["case"],
                expected=e["label"],
                got=e["supported"],
                question=e["question"],
                answer=e["answer"],
                reason=e["reason"],
            )
            for e in summary["errors"]
        )
    return "\n".join(lines)


def _folds(text: str) -> tuple[int, list[int]]:
    kept, _, count = text.partition("/")
    try:
        folds = (int(count), [int(k) for k in kept.split(",")])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K[,K...]/N, got {text!r}") from None
    if folds[0] < 1 or not all(0 <= k < folds[0] for k in folds[1]):
        raise argparse.ArgumentTypeError(f"folds must lie in 0..N-1, got {text!r}")
    return folds


def _command(args: argparse.Namespace) -> int:
    summary = run_verifier_bench(
        args.data, args.out, args.sample_errors, with_type=args.with_type, folds=args.folds
    )
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(format_summary(summary))
        print(f"per-case results: {args.out}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `verifier` subcommand; it sets `func(args) -> int` as the handler."""
    parser = subparsers.add_parser(
        "verifier",
        help="Measure the answer verifier on HotpotQA gold supporting facts and hard negatives.",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="HotpotQA JSONL(.gz) file (default: the built-in sample).",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"Per-case JSONL results (default: {DEFAULT_OUT}).",
    )
    parser.add_argument("--json", action="store_true", help="Print the summary as one JSON object.")
    parser.add_argument(
        "--sample-errors", type=int, default=10, help="How many wrong cases to show (default: 10)."
    )
    parser.add_argument(
        "--with-type", action="store_true", help="Tell the verifier each question's HotpotQA type."
    )
    parser.add_argument(
        "--folds",
        type=_folds,
        default=None,
        metavar="K[,K...]/N",
        help="Only the questions of folds K out of N (stable hash of the question id).",
    )
    parser.set_defaults(func=_command)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark on its own: `python -m graph.evaluation.verifier_bench`."""
    parser = argparse.ArgumentParser(prog="verifier-bench")
    register(parser.add_subparsers(dest="bench", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
