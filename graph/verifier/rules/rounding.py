"""A round number that a stored number rounds to: "about 14 million" where a related
sentence gives 13,960,000.

A model often rounds what it read ("about 14 million", "nearly 80,000", "some 6,700
km"). No stored sentence states the rounded value, but it is no other value either: when
the answer is one whole number of a thousand or more (not a year) ending in zeros, with
at most three significant digits, and with no other word than a hedge or a unit, and a
trusted sentence of a related page gives a number within half a unit of its last
significant digit, the answer is grounded on that sentence (stated, as rounded; its tie
to the question is not read), never rejected as absent. Smaller numbers are counts
("two albums", "ten members"), a number inside a name ("NBC 10") is no measure, and
"over 14 million" bounds a number instead of rounding it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from graph.verifier.evidence.matching import Item
from graph.verifier.read.check import Check
from graph.verifier.text.normalise import is_number, may_hold_number, split_words

_PADDED_NUMBER = re.compile(r"(?<= )\d[\d.]*(?= )")
# The most significant digits a rounded answer has ("13.9 million" is rounded; "13,960,000"
# is a value as stated).
MOST_DIGITS = 3
_FIRST_YEAR, _LAST_YEAR = 1000, 2100
_SMALLEST = 1000
# The most digits a rounded answer has (a thousand trillion): longer is no measure.
_LONGEST = 16
# Words that may stand beside a rounded number: hedges, and one unit ("km", "people").
HEDGES = frozenset(
    split_words("about around approximately approx roughly nearly almost some circa estimated")
)
_UNIT_LENGTH = 12
# Words that bound a number rather than round it ("over 14 million" is more than it).
BOUNDS = frozenset(split_words("over under above below more less fewer than least most up to"))


def _tolerance(token: str) -> tuple[int, float] | None:
    """The number a folded number token is, and half a unit of its last significant
    digit, when it is a round whole number of a thousand or more and no year; else None."""
    if not token.isdigit() or len(token) > _LONGEST or int(token) < _SMALLEST:
        return None
    if len(token) == 4 and _FIRST_YEAR <= int(token) <= _LAST_YEAR:
        return None
    significant = token.rstrip("0")
    if len(significant) == len(token) or len(significant) > MOST_DIGITS:
        return None
    return int(token), 10 ** (len(token) - len(significant)) / 2


def rounded_from(check: Check) -> tuple[list[str], str] | None:
    """The stored sentences (ids) giving a number the answer rounds, and that number as
    folded; None when the answer is no round number or none is near it."""
    tokens = check.folded.tokens
    numbers = [token for token in tokens if is_number(token)]
    words = [token for token in tokens if not is_number(token) and token not in HEDGES]
    if len(numbers) != 1 or len(words) > 1 or any(len(word) > _UNIT_LENGTH for word in words):
        return None
    if not BOUNDS.isdisjoint(words):
        return None
    found = _tolerance(numbers[0])
    if found is None:
        return None
    value, half = found

    def near(stated: str) -> bool:
        return stated.count(".") < 2 and abs(float(stated) - value) <= half

    for item, stated in related_numbers(check, near):
        return [item.id], stated[0]
    return None


def related_numbers(check: Check, keep: Callable[[str], bool]) -> Iterator[tuple[Item, list[str]]]:
    """Each trusted sentence of a directly related page, in order, with the numbers it
    states (folded) that `keep` accepts; a sentence with none is not checked for trust."""
    for item in check.items:
        if not may_hold_number(item.raw):
            continue
        found = [stated for stated in _PADDED_NUMBER.findall(item.text.padded) if keep(stated)]
        if found and item.trusted and check.directly_related(item.page):
            yield item, found
