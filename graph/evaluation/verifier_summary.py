"""The verifier benchmark's figures from its per-case results, and their text form."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterable
from typing import Any

from graph.evaluation.spans import ANSWER_KINDS
from graph.evaluation.verifier_cases import CASE_KINDS, EASY_KINDS, HARD_NEGATIVE_KINDS, SEED
from graph.evaluation.verifier_dress import format_dressed
from graph.evaluation.verifier_invariance import format_invariance
from graph.evaluation.verifier_outcomes import format_outcomes

QUESTION_TYPES = ("bridge", "comparison")

SUMMARY_LINE = (
    "{label:<12} precision {precision:.3f}  recall {recall:.3f}  f1 {f1:.3f}  ({cases} cases)"
)
SPEED_LINE = (
    "{per_second:,.0f} verifications per second ({ms:.3f} ms mean, {median:.3f} ms median,"
    " {p90:.3f} ms p90) over {cases} cases; a question's first check (its sentences read for"
    " the first time): {first:.3f} ms median"
)
CASE_LINE = "{kind:<17} {accepted:>5}/{cases:<5} accepted ({rate:.3f})"
KIND_LINE = (
    "{kind:<8} hard negatives accepted {accepted:>4}/{cases:<4} ({rate:.3f})"
    "   gold recall {recall:.3f} ({positives})"
)
JUDGE_LINE = (
    "judge {model}: {calls} calls ({input_tokens} input, {output_tokens} output tokens),"
    " {overturned} verified answers made grounded, {confirmed} grounded ones verified"
)
RULES_LINE = (
    "rules alone: precision {precision:.3f}, recall {recall:.3f}, gold recall on an episode's"
    " evidence {episode_recall:.3f}, hard negatives accepted {hard_negative_acceptance:.3f}"
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


def _first_median(results: list[dict[str, Any]], timings: list[float]) -> float:
    """The median time of each question's first check, which reads its sentences first."""
    seen: set[str] = set()
    first = []
    for result, seconds in zip(results, timings, strict=True):
        if result["id"] not in seen:
            seen.add(result["id"])
            first.append(seconds)
    return round(1000 * statistics.median(first), 4) if first else 0.0


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
        "ms_p90": round(1000 * sorted(timings)[int(0.9 * len(timings))], 4) if timings else 0.0,
        "ms_first_median": _first_median(results, timings),
        "cases": len(results),
        "errors": random.Random(SEED).sample(wrong, min(sample_errors, len(wrong))),
    }


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
            p90=summary["ms_p90"],
            first=summary["ms_first_median"],
            cases=summary["cases"],
        )
    )
    if "outcomes" in summary:
        lines.extend(format_outcomes(summary))
    if "invariance" in summary:
        lines.append("gold answers said or stored another way (without a judge):")
        lines.extend(format_invariance(summary["invariance"]))
    if "dressed_negatives" in summary:
        lines.append("wrong answers quoted, emphasised or in lower case (without a judge):")
        lines.extend(format_dressed(summary["dressed_negatives"]))
    if "judge" in summary:
        spent, rules = summary["judge"], summary["rules_only"]
        lines.append(JUDGE_LINE.format(**spent))
        lines.append(RULES_LINE.format(**rules))
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
