"""Train the verifier's learned name scorer, and say whether it beats the name rules.

Run with `python benchmarks/train_verifier_scorer.py [--write]` (needs the
`[train]` extra: scikit-learn). Training data: the built-in HotpotQA training
questions only, through the verifier benchmark's cases: every stated name that
is of the class the question asks for and reaches the tie check, labelled by
whether it is the gold answer (`positive`, `episode_positive`) or a wrong
span from the same pages (`span_swap`). Folds are grouped by question
(`fold_of`, 5 folds). For each fold, a logistic regression is trained on the
other four; its threshold keeps, on those four, the gold recall the name rules
have there; it is then scored on the held-out fold against the rules on the
same names. `--write` saves the per-fold models and one trained on all folds
to `graph/verifier/data/name_scorer.json`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph.evaluation.hotpot import load_questions  # noqa: E402
from graph.evaluation.verifier_cases import build_cases, fold_of, load_pages  # noqa: E402
from graph.verifier import verify_answer  # noqa: E402
from graph.verifier.check import Check  # noqa: E402
from graph.verifier.lexicon_store import snapshot_lexicon  # noqa: E402
from graph.verifier.reading import Reading  # noqa: E402
from graph.verifier.scorer import FEATURES, SCORER_FILE, features  # noqa: E402
from graph.verifier.ties import name_tied  # noqa: E402

FOLDS = 5
SEED = 13
KINDS = ("positive", "episode_positive", "span_swap")
ROW = (
    "{label:<20} gold names kept {recall:.3f} ({kept}/{gold})"
    "   wrong names accepted {fp:.3f} ({acc}/{wrong})"
)
TRAINED_ON = "built-in HotpotQA training questions (tools/data/hotpotqa_train.jsonl.gz)"


class Recorder:
    """A `NameScorer` that accepts every name and records its measurements and the rules'
    decision (so that every name reaching the tie check becomes an example)."""

    def __init__(self) -> None:
        self.seen: list[tuple[list[float], bool]] = []

    def judge_name(self, check: Check, reading: Reading) -> tuple[bool, str]:
        self.seen.append((features(check, reading), name_tied(reading)))
        return True, "recorded"


def examples() -> list[dict[str, Any]]:
    questions = load_questions()
    titles = {t for q in questions for t in q.get("context_titles", [])}
    titles |= {t for q in questions for t, _ in q["supporting_facts"]}
    lexicon = snapshot_lexicon()
    rows: list[dict[str, Any]] = []
    for case in build_cases(questions, load_pages(titles)):
        if case["case"] not in KINDS:
            continue
        recorder = Recorder()
        verify_answer(
            case["question"], case["answer"], case["evidence"], lexicon=lexicon, scorer=recorder
        )
        for values, rules in recorder.seen:
            rows.append(
                {
                    "x": values,
                    "y": bool(case["label"]),
                    "rules": rules,
                    "fold": fold_of(case["id"], FOLDS),
                    "case": case["case"],
                }
            )
    return rows


def fit(rows: list[dict[str, Any]], target: float | None = None) -> dict[str, Any]:
    """A logistic regression, and the threshold that keeps the rules' gold recall (or the
    `target` recall) on the rows it is fitted on."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    x = np.array([row["x"] for row in rows])
    y = np.array([row["y"] for row in rows])
    model = LogisticRegression(C=1.0, max_iter=5000, random_state=SEED).fit(x, y)
    scores = model.predict_proba(x)[:, 1]
    gold = sorted(score for score, row in zip(scores, rows, strict=True) if row["y"])
    recall = target or sum(row["rules"] for row in rows if row["y"]) / max(1, len(gold))
    threshold = float(gold[int((1 - recall) * len(gold))]) if gold else 0.5
    return {
        "weights": [round(float(w), 6) for w in model.coef_[0]],
        "bias": round(float(model.intercept_[0]), 6),
        "threshold": round(threshold, 6),
    }


def score(model: dict[str, Any], row: dict[str, Any]) -> bool:
    import math

    total = model["bias"] + sum(w * v for w, v in zip(model["weights"], row["x"], strict=True))
    return 1 / (1 + math.exp(-total)) >= model["threshold"]


def report(label: str, rows: list[dict[str, Any]], decided: list[bool]) -> dict[str, float]:
    gold = [d for d, row in zip(decided, rows, strict=True) if row["y"]]
    wrong = [d for d, row in zip(decided, rows, strict=True) if not row["y"]]
    figures = {
        "recall": sum(gold) / max(1, len(gold)),
        "false_acceptance": sum(wrong) / max(1, len(wrong)),
    }
    print(
        ROW.format(
            label=label,
            recall=figures["recall"],
            kept=sum(gold),
            gold=len(gold),
            fp=figures["false_acceptance"],
            acc=sum(wrong),
            wrong=len(wrong),
        )
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"Save the models to {SCORER_FILE}.")
    parser.add_argument(
        "--target-recall",
        type=float,
        default=None,
        help="Gold recall the threshold keeps on the training folds (default: the rules').",
    )
    args = parser.parse_args(argv)
    rows = examples()
    held_out: list[dict[str, Any]] = []
    decided: list[tuple[dict[str, Any], bool]] = []
    for fold in range(FOLDS):
        model = fit([row for row in rows if row["fold"] != fold], args.target_recall)
        held_out.append(model)
        decided += [(row, score(model, row)) for row in rows if row["fold"] == fold]
    ordered = [row for row, _ in decided]
    print(f"{len(rows)} stated right-class names ({sum(r['y'] for r in rows)} gold), {FOLDS} folds")
    rules = report("rules (held out)", ordered, [row["rules"] for row in ordered])
    learned = report("scorer (held out)", ordered, [kept for _, kept in decided])
    margin = rules["false_acceptance"] - learned["false_acceptance"]
    print(
        f"scorer - rules: wrong names accepted {-margin:+.3f},"
        f" gold names kept {learned['recall'] - rules['recall']:+.3f}"
    )
    if args.write:
        full = fit(rows, args.target_recall)
        SCORER_FILE.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "features": list(FEATURES),
            "folds": FOLDS,
            "trained_on": TRAINED_ON,
            "held_out": held_out,
            "full": full,
        }
        SCORER_FILE.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {SCORER_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
