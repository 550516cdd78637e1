"""Who decides whether a stated answer of a kind (a year, a number, a name) answers the
question: a small learned combiner of its signals, or the hand rules.

The combiner is one logistic regression per group of answer kinds (`value`: years and
numbers; `name`), evaluated in plain Python from a small JSON file
(`graph/verifier/score/data/combiner.json`) over `graph.verifier.score.signals`. It is trained by
`benchmarks/train_verifier_combiner.py` on the built-in training questions only, with
folds grouped by question; each group's threshold keeps a target share of the gold
answers of the folds it was trained on. The file keeps one combiner per fold (trained
without that fold, for honest benchmark figures) and one trained on every fold (for the
agent). `RULES` decides by the hand rules instead (each rule a veto), for comparison.
"""

from __future__ import annotations

import json
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from graph.verifier.evidence.candidates import NAME, NUMBER, YEAR
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.read.ties import rule_problem
from graph.verifier.score.signals import SIGNALS, signals

COMBINER_FILE = Path(__file__).resolve().parent / "data" / "combiner.json"
VALUE = "value"
GROUPS = {YEAR: VALUE, NUMBER: VALUE, NAME: NAME}
SCORED = "the learned combiner scored {score:.2f} against {threshold:.2f}"


@dataclass(frozen=True, slots=True)
class Decision:
    """Whether the answer is accepted, and the score behind it in words ("" for rules)."""

    accepted: bool
    said: str = ""


class Decider(Protocol):
    """Decides whether a stated answer of a kind answers the question."""

    def decide(self, check: Check, found: Found, reading: Reading) -> Decision:
        """The decision on one stated answer (its `reading.kind` is not None)."""
        ...


class Rules:
    """The hand rules: every class and tie rule is a veto."""

    def decide(self, check: Check, found: Found, reading: Reading) -> Decision:
        return Decision(rule_problem(check, reading) is None)


RULES = Rules()


@dataclass(frozen=True, slots=True)
class Model:
    """One logistic regression over `SIGNALS`, with its acceptance threshold."""

    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, values: Sequence[float]) -> float:
        if len(values) != len(self.weights):
            raise ValueError(f"{len(values)} signals for {len(self.weights)} weights")
        total = self.bias + sum(map(operator.mul, self.weights, values))
        return 1.0 / (1.0 + math.exp(-total))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Model:
        weights = tuple(float(w) for w in data["weights"])
        if len(weights) != len(SIGNALS):
            raise ValueError(f"a combiner model has {len(weights)} weights for {len(SIGNALS)}")
        return cls(weights, float(data["bias"]), float(data["threshold"]))


@dataclass(frozen=True, slots=True)
class Combiner:
    """One model per group of answer kinds."""

    models: dict[str, Model]

    def decide(self, check: Check, found: Found, reading: Reading) -> Decision:
        model = self.models[GROUPS[reading.kind or NAME]]
        score = model.probability(signals(check, found, reading))
        said = SCORED.format(score=score, threshold=model.threshold)
        return Decision(score >= model.threshold, said)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Combiner:
        return cls({group: Model.from_json(data[group]) for group in (VALUE, NAME)})


@dataclass(frozen=True, slots=True)
class CombinerFile:
    """The trained combiners: one per held-out fold, and one trained on every fold."""

    folds: int
    held_out: tuple[Combiner, ...]
    full: Combiner

    def for_fold(self, fold: int) -> Combiner:
        """The combiner that never saw the questions of `fold` (for benchmark figures)."""
        return self.held_out[fold]


@lru_cache(maxsize=2)
def load_combiner(path: Path = COMBINER_FILE) -> CombinerFile:
    """The combiner file; it must have been trained on today's `SIGNALS`."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if tuple(data["signals"]) != SIGNALS:
        raise ValueError(f"{path} was trained on other signals; run the training script again")
    return CombinerFile(
        folds=int(data["folds"]),
        held_out=tuple(Combiner.from_json(models) for models in data["held_out"]),
        full=Combiner.from_json(data["full"]),
    )
