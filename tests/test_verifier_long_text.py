"""Reading a long sentence stays linear (see benchmarks/verifier_long_text.py for the
timings): the searches that replaced whole-sentence scans per match give the same
answers as those scans."""

from __future__ import annotations

import random

import pytest

from graph.evaluation.hotpot import load_questions
from graph.evaluation.verifier_cases import build_cases, pages_of
from graph.verifier.evidence.candidates import NAME, _found_by_size, _name_texts, find_in, spans_in
from graph.verifier.evidence.matching import Item, contains, may_state
from graph.verifier.evidence.stored import stored_items
from graph.verifier.read import reader
from graph.verifier.read.reader import _title_stems, sentence_cues
from graph.verifier.read.relation import cue_positions, nearest_position, token_stems
from graph.verifier.text.normalise import Text, analyse


def _scanned(hay: Text, needle: tuple[str, ...]) -> list[tuple[int, int]]:
    tokens = hay.tokens
    return [
        (i, i + len(needle))
        for i in range(len(tokens) - len(needle) + 1)
        if tokens[i : i + len(needle)] == needle
    ]


def test_find_in_finds_every_occurrence_a_scan_finds() -> None:
    rng = random.Random(7)
    for _ in range(500):
        tokens = tuple(rng.choice("ab") * rng.randint(1, 2) for _ in range(rng.randint(0, 60)))
        needle = tuple(rng.choice(("a", "b", "aa", "bb")) for _ in range(rng.randint(1, 3)))
        assert find_in(Text.of(tokens), needle) == _scanned(Text.of(tokens), needle)


def test_nearest_position_is_the_nearest_and_the_earlier_on_a_tie() -> None:
    rng = random.Random(11)
    assert nearest_position((), 5) is None
    assert nearest_position(((2, "x"), (8, "y")), 5) == (2, "x")
    for _ in range(2000):
        indices = sorted(rng.sample(range(40), rng.randint(1, 8)))
        positions = tuple((i, f"s{i}") for i in indices)
        at = rng.randrange(40)
        expected = min(positions, key=lambda position: abs(position[0] - at))
        assert nearest_position(positions, at) == expected


def _names_scanned(raw: str) -> tuple[tuple[tuple[int, int], tuple[str, ...]], ...]:
    """Every occurrence of each capitalised run, each found by a scan of its own."""
    text = analyse(raw)
    found: dict[tuple[int, int], tuple[str, ...]] = {}
    for name in dict.fromkeys(name.tokens for name in _name_texts(raw)):
        for span in _scanned(text, name):
            found.setdefault(span, name)
    return tuple(sorted(found.items()))


def test_names_are_found_in_one_pass_as_a_scan_per_name_finds_them() -> None:
    rng = random.Random(5)
    words = ("Eva", "Green", "Ann", "Lee", "eva", "green", "met", "and", "of", "Lord", "Bo")
    for _ in range(800):
        raw = " ".join(rng.choice(words) for _ in range(rng.randint(0, 40))) + "."
        expected = _names_scanned(raw)
        assert spans_in(raw, NAME) == expected, raw
        names = [name.tokens for name in _name_texts(raw)]
        assert tuple(sorted(_found_by_size(analyse(raw).tokens, names).items())) == expected


@pytest.mark.parametrize("few_cues", [0, reader._FEW_CUES])
def test_the_cues_outside_a_span_are_those_a_scan_outside_it_finds(
    few_cues: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reader, "_FEW_CUES", few_cues)  # 0: every sentence counted once
    sentence_cues.cache_clear()
    rng = random.Random(3)
    words = ("born", "actor", "film", "born", "in", "the", "Chester", "actor")
    stems = frozenset(token_stems("born actor film chester"))
    for _ in range(800):
        raw = " ".join(rng.choice(words) for _ in range(rng.randint(1, 30)))
        title = rng.choice(("Born Free", "Film", ""))
        count = len(token_stems(raw))
        if not count:
            continue
        start = rng.randrange(count)
        span = (start, rng.randint(start, count))
        positions = cue_positions(raw, stems)
        outside = {stem for at, stem in positions if not span[0] <= at < span[1]}
        expected = frozenset(outside | (_title_stems(title) & stems))
        assert sentence_cues(raw, title, stems, span) == expected, (raw, span)
        assert sentence_cues(raw, title, stems, None) == frozenset(
            {stem for _, stem in positions} | (expected - outside)
        )


def test_the_cheap_filter_keeps_every_sentence_that_states_a_text() -> None:
    rng = random.Random(17)
    words = (
        "Café", "cafe", "Zürich", "Zurich", "studies", "study", "St.", "Saint", "1,200", "1200",
        "twelve", "Ann", "ANN", "Lee's", "Lees", "the", "of", "Bros.", "rock-and-roll",
    )  # fmt: skip
    items = [
        Item(f"e{i}", "Page", " ".join(rng.choice(words) for _ in range(rng.randint(1, 12))))
        for i in range(300)
    ]
    for _ in range(300):
        needle = analyse(" ".join(rng.choice(words) for _ in range(rng.randint(1, 3))))
        kept = may_state(items, needle)
        assert all(item in kept for item in items if contains(item.text, needle)), needle
    questions = load_questions()[:60]
    for case in build_cases(questions, pages_of(questions)):
        stored = stored_items(case["evidence"])
        needle = analyse(case["answer"])
        kept = may_state(stored, needle)
        assert all(item in kept for item in stored if contains(item.text, needle)), case["answer"]
