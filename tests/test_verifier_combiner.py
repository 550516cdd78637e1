"""The learned combiner: a small versioned JSON model per group of answer kinds, evaluated
in plain Python over the verifier's signals; trained reproducibly by
benchmarks/train_verifier_combiner.py."""

from __future__ import annotations

import json

import pytest
from verifier_utils import Store, benchmark_script

from graph.verifier import verify_answer
from graph.verifier.evidence.candidates import NAME
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.score.combiner import (
    COMBINER_FILE,
    RULES,
    VALUE,
    Combiner,
    Decision,
    Model,
    load_combiner,
)
from graph.verifier.score.signals import SIGNALS, signals

QUESTION = "What film did Peter Best make in 1986 that was set in the Australian Outback?"


def _never(combiner: Combiner) -> Combiner:
    """The same models with a threshold no score reaches."""
    return Combiner({g: Model(m.weights, m.bias, 1.01) for g, m in combiner.models.items()})


def test_the_model_file_is_small_and_matches_the_signals() -> None:
    assert COMBINER_FILE.stat().st_size < 20_000
    combiners = load_combiner()
    assert combiners.folds == len(combiners.held_out) == 5
    for combiner in (*combiners.held_out, combiners.full):
        assert set(combiner.models) == {VALUE, NAME}
        for model in combiner.models.values():
            assert len(model.weights) == len(SIGNALS) and 0 < model.threshold < 1
    assert "training questions" in json.loads(COMBINER_FILE.read_text())["trained_on"]


def test_the_combiner_keeps_a_tied_gold_name_and_explains_a_rejection() -> None:
    store = Store()
    store.add("Peter Best (composer)", 0)
    store.add("Crocodile Dundee", 0)
    full = load_combiner().full
    lexicon = snapshot_lexicon()
    kept = verify_answer(
        QUESTION, "Crocodile Dundee", store.evidence, lexicon=lexicon, decider=full
    )
    assert kept["supported"], kept["reason"]
    assert "learned combiner scored" not in kept["reason"] or "though" in kept["reason"]
    refused = verify_answer(
        QUESTION, "Crocodile Dundee", store.evidence, lexicon=lexicon, decider=_never(full)
    )
    assert not refused["supported"] and "learned combiner scored" in refused["reason"]
    assert refused["missing"]


def test_a_year_goes_to_the_value_model_as_names_go_to_theirs() -> None:
    store = Store()
    store.add("Peter Best (composer)", 0)
    store.add("Crocodile Dundee", 0)
    question = "In what year was the film Crocodile Dundee released?"
    full = load_combiner().full
    for decider in (full, RULES):
        stated = verify_answer(question, "1986", store.evidence, decider=decider)
        assert stated["supported"], stated["reason"]
    refused = verify_answer(question, "1986", store.evidence, decider=_never(full))
    assert not refused["supported"] and "learned combiner scored" in refused["reason"]


class _Recorder:
    """A decider that keeps the signals it is asked about, by name, and accepts."""

    def __init__(self) -> None:
        self.seen: list[dict[str, float]] = []

    def decide(self, check: Check, found: Found, reading: Reading) -> Decision:
        self.seen.append(dict(zip(SIGNALS, signals(check, found, reading), strict=True)))
        return Decision(True)


@pytest.mark.parametrize(
    ("title", "sentence", "question", "answer", "beside", "preposition"),
    [
        (
            "David Niven",
            'His many roles included Phileas Fogg in "Around the World in 80 Days".',
            'The English actor David Niven played what role in "Around the World in 80 Days"?',
            "Phileas Fogg",
            1.0,
            0.0,
        ),
        (
            "Scaredy Squirrel (TV series)",
            "Scaredy Squirrel is a Canadian animated series based on the books by Melanie Watt.",
            'The animated series "Scaredy Squirrel" is based on books written by who?',
            "Melanie Watt",
            0.0,
            1.0,
        ),
    ],
)
def test_a_name_the_question_gives_beside_the_answer_and_its_preposition_are_signals(
    title: str, sentence: str, question: str, answer: str, beside: float, preposition: float
) -> None:
    store = Store()
    store.add_text(title, sentence)
    recorder = _Recorder()
    verify_answer(question, answer, store.evidence, decider=recorder)
    assert recorder.seen, "the answer never reached the decider"
    assert recorder.seen[-1]["named_beside"] == beside
    assert recorder.seen[-1]["same_preposition"] == preposition


def test_training_fits_a_threshold_that_keeps_the_asked_recall() -> None:
    pytest.importorskip("sklearn")
    module = benchmark_script("train_verifier_combiner")
    width = len(SIGNALS)
    rows = [
        {
            "x": [float(i % 7 == j % 7) for j in range(width)],
            "y": i % 2 == 0,
            "rules": True,
            "group": VALUE if i % 3 else NAME,
        }
        for i in range(120)
    ]
    models = module.fit_groups(rows, target=0.9)
    for group in (VALUE, NAME):
        assert len(models[group]["weights"]) == width
        gold = [row for row in rows if row["y"] and row["group"] == group]
        assert sum(module.accepts(models, row) for row in gold) >= 0.9 * len(gold)


@pytest.mark.slow
def test_the_shipped_combiner_is_what_the_training_script_gives_today() -> None:
    """A rule that changes which answers reach the combiner, or what their signals say,
    needs the combiner retrained: the shipped weights must be the script's on today's rows
    (within a tolerance for another machine's numerical libraries)."""
    pytest.importorskip("sklearn")
    module = benchmark_script("train_verifier_combiner")
    shipped = json.loads(COMBINER_FILE.read_text(encoding="utf-8"))
    trained = module.fit_groups(
        module.examples(), shipped["target_recall"], shipped["value_target_recall"]
    )
    for group in (VALUE, NAME):
        got, want = trained[group], shipped["full"][group]
        assert got["weights"] == pytest.approx(want["weights"], abs=1e-3), group
        assert got["threshold"] == pytest.approx(want["threshold"], abs=1e-3), group
