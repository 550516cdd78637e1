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
    values = {
        "class_fits": fits is True,
        "class_unknown": fits is None,
        "question_names_class": bool(check.expected.classes),
        "slot": reading.slot,
        "relation_nearness": _nearness(near),
        "relation_within_2": near <= 2,
        "relation_within_6": near <= 6,
        "no_relation_word": near >= FAR,
        "rival_nearness": _nearness(rival),
        "nearer_than_rivals": near < rival,
        "sentence_cues": min(reading.sentence_cues, CAP) / CAP,
        "near_cues": min(reading.near_cues, CAP) / CAP,
        "cue_share": reading.sentence_cues / max(1, reading.cue_count),
        "own_page": reading.subject_cues >= 0,
        "own_page_cues": min(max(reading.subject_cues, 0), CAP) / CAP,
        "category_noun_next": reading.head_adjacent is True,
        "no_category_noun": reading.head_adjacent is None,
        "names_question": reading.names_question,
        "rival_cues": min(reading.rival_cues, CAP) / CAP,
        "cue_margin": (reading.sentence_cues - reading.rival_cues) / CAP,
        "placements": min(len(reading.placements), 4) / 4,
        "in_first_sentence": bool(best and best.item.index == 0),
    }
    return [float(values[name]) for name in FEATURES]


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
