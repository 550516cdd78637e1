"""Ranks by a superlative ("the 31st highest mountain in the world") are read as one
pattern per superlative read them: the rank, the superlative and its noun and scope."""

from __future__ import annotations

import random
import re

from graph.verifier.rules.ranks import ORDINAL_NUMBERS
from graph.verifier.rules.superlatives import _ranks_in


def _one_pattern(raw: str, superlative: str) -> list[tuple[int, str, str]]:
    """The reading as a single pattern built for the superlative."""
    pattern = re.compile(
        rf"\b(?:(\d{{1,4}})(?:st|nd|rd|th)|(?<![\w-])({'|'.join(ORDINAL_NUMBERS)}))[\s-]+"
        rf"{re.escape(superlative)}"
        r"\s+([a-z]+)((?:\s+(?:in|of|on)\s+(?:the\s+)?[A-Za-z]+)?)",
        re.IGNORECASE,
    )
    return [
        (int(digits) if digits else ORDINAL_NUMBERS[word.casefold()], noun, scope)
        for digits, word, noun, scope in (match.groups() for match in pattern.finditer(raw))
    ]


def test_ranks_are_read_as_the_single_pattern_reads_them() -> None:
    rng = random.Random(13)
    words = (
        "the", "2nd", "31st", "12345th", "twenty-first", "Fifth", "second", "-", "highest",
        "Highest", "most", "populous", "mountain", "city", "in", "of", "on", "world",
        "Nepal", "3rd", "first", "highest-ranked", ",", ".", "x2nd", "tenth",
    )  # fmt: skip
    superlatives = ("highest", "most populous", "largest")
    for _ in range(4000):
        raw = "".join(
            rng.choice(words) + rng.choice((" ", " ", "  ", "-", ""))
            for _ in range(rng.randint(0, 14))
        )
        superlative = rng.choice(superlatives)
        assert list(_ranks_in(raw, superlative)) == _one_pattern(raw, superlative), raw
    assert list(_ranks_in("the 31st highest mountain in the world", "highest")) == [
        (31, "mountain", " in the world")
    ]
