"""The learned name scorer: a small versioned JSON model, evaluated in plain Python, used
in place of the name rules; trained reproducibly by benchmarks/train_verifier_scorer.py."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from verifier_utils import Store

from graph.verifier import verify_answer
from graph.verifier.lexicon_store import snapshot_lexicon
from graph.verifier.scorer import FEATURES, SCORER_FILE, NameModel, load_name_scorer

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "What film did Peter Best make in 1986 that was set in the Australian Outback?"


def test_the_model_file_is_small_and_matches_the_features() -> None:
    assert SCORER_FILE.stat().st_size < 20_000
    scorers = load_name_scorer()
    assert scorers.folds == len(scorers.held_out) == 5
    for model in (*scorers.held_out, scorers.full):
        assert len(model.weights) == len(FEATURES) and 0 < model.threshold < 1
    assert "training questions" in json.loads(SCORER_FILE.read_text())["trained_on"]


def test_the_scorer_keeps_a_tied_gold_answer_and_explains_a_rejection() -> None:
    store = Store()
    store.add("Peter Best (composer)", 0)
    store.add("Crocodile Dundee", 0)
    full = load_name_scorer().full
    kept = verify_answer(
        QUESTION, "Crocodile Dundee", store.evidence, lexicon=snapshot_lexicon(), scorer=full
    )
    assert kept["supported"], kept["reason"]
    never = NameModel(full.weights, full.bias, threshold=1.0)
    refused = verify_answer(QUESTION, "Crocodile Dundee", store.evidence, scorer=never)
    assert not refused["supported"] and "learned scorer scored" in refused["reason"]


def test_training_fits_a_threshold_that_keeps_the_asked_recall() -> None:
    pytest.importorskip("sklearn")
    spec = importlib.util.spec_from_file_location(
        "train_verifier_scorer", ROOT / "benchmarks" / "train_verifier_scorer.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    width = len(FEATURES)
    rows = [
        {"x": [float(i % 7 == j % 7) for j in range(width)], "y": i % 2 == 0, "rules": True}
        for i in range(60)
    ]
    model = module.fit(rows, target=0.9)
    assert len(model["weights"]) == width
    kept = sum(module.score(model, row) for row in rows if row["y"])
    assert kept >= 0.9 * 30
