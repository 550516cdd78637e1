"""A learned scorer for named answers: how strongly the stored evidence ties a stated,
right-class name to the question, from the same measurements the rules use.

It is a logistic regression evaluated in plain Python from a small JSON file
(`graph/verifier/data/name_scorer.json`), trained by
`benchmarks/train_verifier_scorer.py` on the built-in training questions only,
with held-out folds grouped by question. The file keeps one model per fold
(trained without that fold, for honest benchmark figures) and one trained on
all of them (for the agent).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from graph.verifier.check import Check
from graph.verifier.reading import Reading
from graph.verifier.relation import FAR

SCORER_FILE = Path(__file__).resolve().parent / "data" / "name_scorer.json"
CAP = 8.0

FEATURES = (
    "class_fits",
    "class_unknown",
    "question_names_class",
    "slot",
    "relation_nearness",
    "relation_within_2",
    "relation_within_6",
    "no_relation_word",
    "rival_nearness",
    "nearer_than_rivals",
    "sentence_cues",
    "near_cues",
    "cue_share",
    "own_page",
    "own_page_cues",
    "category_noun_next",
    "no_category_noun",
    "names_question",
    "rival_cues",
    "cue_margin",
    "placements",
    "in_first_sentence",
)


def _nearness(distance: int) -> float:
    return 1.0 / distance if distance < FAR else 0.0


def features(check: Check, reading: Reading) -> list[float]:
    """The measurements of one stated name, scaled to about [0, 1], in `FEATURES` order."""
    fits = reading.classified.fits(check.expected)
    near, rival = reading.relation_distance, reading.rival_distance
    best = reading.best
    cues, near_cues = (len(best.sentence_cues), len(best.near_cues)) if best else (0, 0)
    subject, rival_cues, head = reading.subject_cues, reading.rival_cues, reading.head_adjacent
    values = (
        fits is True,
        fits is None,
        bool(check.expected.classes),
        reading.slot,
        _nearness(near),
        near <= 2,
        near <= 6,
        near >= FAR,
        _nearness(rival),
        near < rival,
        min(cues, CAP) / CAP,
        min(near_cues, CAP) / CAP,
        cues / max(1, reading.cue_count),
        subject >= 0,
        min(max(subject, 0), CAP) / CAP,
        head is True,
        head is None,
        reading.names_question,
        min(rival_cues, CAP) / CAP,
        (cues - rival_cues) / CAP,
        min(len(reading.placements), 4) / 4,
        bool(best and best.item.position == 0),
    )
    return [float(value) for value in values]


@dataclass(frozen=True, slots=True)
class NameModel:
    """One logistic regression over `FEATURES`, with its acceptance threshold."""

    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, values: Sequence[float]) -> float:
        total = self.bias + sum(w * v for w, v in zip(self.weights, values, strict=True))
        return 1.0 / (1.0 + math.exp(-total))

    def judge_name(self, check: Check, reading: Reading) -> tuple[bool, str]:
        """(accepted, the score against the threshold, in words)."""
        score = self.probability(features(check, reading))
        return score >= self.threshold, f"scored {score:.2f} against {self.threshold:.2f}"

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NameModel:
        return cls(
            tuple(float(w) for w in data["weights"]), float(data["bias"]), float(data["threshold"])
        )


@dataclass(frozen=True, slots=True)
class NameScorerFile:
    """The trained models: one per held-out fold, and one trained on every fold."""

    folds: int
    held_out: tuple[NameModel, ...]
    full: NameModel

    def for_fold(self, fold: int) -> NameModel:
        """The model that never saw the questions of `fold` (for benchmark figures)."""
        return self.held_out[fold]


@lru_cache(maxsize=2)
def load_name_scorer(path: Path = SCORER_FILE) -> NameScorerFile:
    """The scorer file; it must have been trained on today's `FEATURES`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{path} was trained on other features; run the training script again")
    return NameScorerFile(
        folds=int(data["folds"]),
        held_out=tuple(NameModel.from_json(model) for model in data["held_out"]),
        full=NameModel.from_json(data["full"]),
    )
