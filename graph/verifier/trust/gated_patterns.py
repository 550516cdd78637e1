"""A pattern with its gate: the words (runs of a-z in the casefolded text) or substrings
one of which every match holds, and where given, `also` words one of which it holds
too. `order_patterns` runs a pattern only where its gate opens."""

from __future__ import annotations

import re
from typing import NamedTuple

from graph.verifier.text.normalise import split_words
from graph.verifier.trust.sentence_starts import at_sentence_starts


class GatedPattern(NamedTuple):
    """A pattern and its gate; for one that reads the start of a text ("^\\W*"), `later`
    reads the start of each of its sentences too (`at_sentence_starts`: slower, so tried
    only where one opens)."""

    words: frozenset[str]
    substrings: tuple[str, ...]
    pattern: re.Pattern[str]
    later: re.Pattern[str] | None = None
    also: frozenset[str] = frozenset()

    def may_match(self, words: frozenset[str], folded: str) -> bool:
        """Whether a text with these words (folded as given) could match."""
        if self.also and self.also.isdisjoint(words):
            return False
        if not self.words and not self.substrings:
            return True
        return not self.words.isdisjoint(words) or any(s in folded for s in self.substrings)


def gated(
    words: str, pattern: str, substrings: tuple[str, ...] = (), also: str = ""
) -> GatedPattern:
    """`pattern` compiled, with the gate of these words and substrings (and `also` words)."""
    later = re.compile(at_sentence_starts(pattern)) if r"^\W*" in pattern else None
    split = frozenset(split_words(words))
    return GatedPattern(split, substrings, re.compile(pattern), later, frozenset(split_words(also)))
