"""The verifier benchmark's outcome shares: verified, grounded, rejected, per case kind.

A verdict's outcome is its `outcome` field; a verdict from before outcomes
existed counts as `verified` when `supported`, else `rejected`. The headline
figures are on an episode's evidence (`episode_positive` for the gold answer).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from graph.evaluation.verifier_cases import CASE_KINDS, CASE_LABELS

OUTCOMES = ("verified", "grounded", "rejected")
GOLD_KIND = "episode_positive"
# The gold answer said or written otherwise: "rewordings rejected" counts both.
REWORDED_KINDS = ("reworded", "rewritten")
OUTCOME_LINE = (
    "{kind:<17} {sign:<2} {cases:>5}  verified {verified:.3f}  grounded {grounded:.3f}"
    "  rejected {rejected:.3f}  ms median {ms_median:.3f} p95 {ms_p95:.3f}"
)
HEADLINE_KEYS = (
    "gold_not_rejected",
    "gold_not_rejected_comparison",
    "gold_verified",
    "reworded_rejected",
)
HEADLINE_LINE = (
    "gold on an episode's evidence: not rejected {gold_not_rejected:.3f} (comparison"
    " {gold_not_rejected_comparison:.3f}), verified {gold_verified:.3f};"
    " rewordings rejected {reworded_rejected:.3f}; per call {ms_median:.3f} ms median,"
    " {ms_p95:.3f} ms p95"
)


def outcome_of(verdict: Mapping[str, Any]) -> str:
    """The verdict's outcome, `supported` standing for `verified` when it has none."""
    outcome = verdict.get("outcome")
    if outcome:
        return str(outcome)
    return "verified" if verdict.get("supported") else "rejected"


def ms_figures(timings: Sequence[float]) -> dict[str, float]:
    """The median and 95th percentile of call times in seconds, in milliseconds."""
    if not timings:
        return {"ms_median": 0.0, "ms_p95": 0.0}
    ordered = sorted(timings)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return {
        "ms_median": round(1000 * statistics.median(ordered), 4),
        "ms_p95": round(1000 * p95, 4),
    }


def _shares(rows: Sequence[tuple[dict[str, Any], float]]) -> dict[str, Any]:
    outcomes = [outcome_of(result) for result, _ in rows]
    total = len(outcomes)
    others = sorted(set(outcomes) - set(OUTCOMES))
    return (
        {"cases": total}
        | {o: round(outcomes.count(o) / total, 4) if total else 0.0 for o in OUTCOMES}
        | ({"other": {o: outcomes.count(o) for o in others}} if others else {})
        | ms_figures([seconds for _, seconds in rows])
    )


def outcome_summary(
    results: Sequence[dict[str, Any]],
    timings: Sequence[float],
    folds: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """Outcome shares and timing per case kind, the headline figures, and (with `folds`,
    question id -> fold) the gold figures per held-out fold."""
    rows = list(zip(results, timings, strict=True))
    by_kind = {
        kind: _shares([row for row in rows if row[0]["case"] == kind])
        | {"label": CASE_LABELS[kind]}
        for kind in CASE_KINDS
    }
    gold = [row for row in rows if row[0]["case"] == GOLD_KIND]
    comparison = _shares([row for row in gold if row[0]["type"] == "comparison"])
    headline = {
        "gold_not_rejected": round(1 - by_kind[GOLD_KIND]["rejected"], 4),
        "gold_not_rejected_comparison": round(1 - comparison["rejected"], 4),
        "gold_verified": by_kind[GOLD_KIND]["verified"],
        "negative_verified": {
            kind: row["verified"]
            for kind, row in by_kind.items()
            if not row["label"] and row["cases"]
        },
        "reworded_rejected": _shares([row for row in rows if row[0]["case"] in REWORDED_KINDS])[
            "rejected"
        ],
    }
    summary: dict[str, Any] = headline | {"outcomes": by_kind} | {"timing": ms_figures(timings)}
    if folds:
        summary["by_fold"] = {
            str(fold): _fold_figures([row for row in rows if folds.get(row[0]["id"]) == fold])
            for fold in sorted(set(folds.values()))
        }
    return summary


def _fold_figures(rows: Sequence[tuple[dict[str, Any], float]]) -> dict[str, Any]:
    gold = _shares([row for row in rows if row[0]["case"] == GOLD_KIND])
    negatives = _shares([row for row in rows if not CASE_LABELS[row[0]["case"]]])
    return {
        "gold_cases": gold["cases"],
        "gold_not_rejected": round(1 - gold["rejected"], 4) if gold["cases"] else 0.0,
        "gold_verified": gold["verified"],
        "negatives_verified": negatives["verified"],
    }


def format_outcomes(summary: Mapping[str, Any]) -> list[str]:
    """The outcome table as text lines: one per case kind, then the headline."""
    lines = ["outcome shares per case kind (label: + right answer, - wrong answer):"]
    for kind, row in summary["outcomes"].items():
        if row["cases"]:
            lines.append(OUTCOME_LINE.format(kind=kind, sign="+" if row["label"] else "-", **row))
    headline = {key: summary[key] for key in HEADLINE_KEYS}
    lines.append(HEADLINE_LINE.format(**headline, **summary["timing"]))
    for fold, row in summary.get("by_fold", {}).items():
        lines.append(
            f"fold {fold}: gold not rejected {row['gold_not_rejected']:.3f}, verified"
            f" {row['gold_verified']:.3f} ({row['gold_cases']}); wrong answers verified"
            f" {row['negatives_verified']:.3f}"
        )
    return lines
