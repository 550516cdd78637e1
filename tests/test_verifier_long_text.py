"""Reading a long sentence stays linear (see benchmarks/verifier_long_text.py for the
timings): the searches that replaced whole-sentence scans per match give the same
answers as those scans."""

from __future__ import annotations

import random

from graph.verifier.evidence.candidates import find_in
from graph.verifier.read.relation import nearest_position
from graph.verifier.text.normalise import Text


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
