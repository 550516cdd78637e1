"""Ranges: a number a sentence states only as one end of a range ("an estimated population
of 90,000 to 100,000", "2100-2700 students", "between 9,000 and 12,000") is not the
value; nor is where a change started ("grew from 1,163 to 1,183": 1,183 is the value).

Read on folded tokens, where scales and separators are already folded ("1.5 million"
is "1500000"); a range of years ("from 1981 until 1983", "between 1956 and 1963") is
left alone, as its ends are dates.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.evidence.candidates import is_year, separated
from graph.verifier.read.check import Check
from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.normalise import is_number
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

_DASHED = re.compile(r"\d\s*[-–—]\s*\d")

REASON_RANGE_END = (
    "{answer!r} is stated in stored {cite} only as one end of a range or change"
    " ({range!r}), not as the value."
)


@lru_cache(maxsize=TEXTS)
def _dashes_numbers(raw: str) -> bool:
    """Whether the sentence writes a range of numbers with a dash ("2100-2700")."""
    return _DASHED.search(raw) is not None


def _value(token: str, raw: str) -> bool:
    """A number that is no year (a year-like number written "1,163" is a count)."""
    return is_number(token) and (not is_year(token) or token in separated(raw))


def range_end(tokens: tuple[str, ...], start: int, end: int, raw: str) -> str | None:
    """The range the span tokens[start:end] (ending in a number) is one end of, as
    written in tokens, or None: it is followed by "to N" ("and N" after "between", "-N"
    when the sentence dashes numbers), or follows "N to" (not "from N to") or "between
    N and" or "N-"."""
    dashed = _dashes_numbers(raw)
    after, before = tokens[end : end + 2], tokens[max(0, start - 3) : start]
    if not _value(tokens[end - 1], raw):
        return None
    between = start > 0 and tokens[start - 1] == "between"
    if (
        len(after) == 2
        and _value(after[1], raw)
        and (after[0] == "to" or (after[0] == "and" and between))
    ):
        return " ".join(tokens[start : end + 2])
    if dashed and after and _value(after[0], raw):
        return " ".join(tokens[start : end + 1])
    if len(before) >= 2 and _value(before[-2], raw):
        if before[-1] == "to" and not (len(before) == 3 and before[0] == "from"):
            return " ".join(tokens[start - 2 : end])
        if before[-1] == "and" and len(before) == 3 and before[0] == "between":
            return " ".join(tokens[start - 3 : end])
    if dashed and before and _value(before[-1], raw):
        return " ".join(tokens[start - 1 : end])
    return None


def range_problem(check: Check) -> Verdict | None:
    """A refusal when every sentence stating a numeric answer states it only as one end
    of a range or as where a change started; None otherwise."""
    needle = check.folded.tokens
    if not needle or not is_number(needle[-1]):
        return None
    ends: list[tuple[str, str]] = []
    for item in check.stating_items():
        tokens = item.text.tokens
        starts = [
            i for i in range(len(tokens) - len(needle) + 1) if tokens[i : i + len(needle)] == needle
        ]
        found = [range_end(tokens, i, i + len(needle), item.raw) for i in starts]
        if not found or any(written is None for written in found):
            return None
        ends.extend((item.id, written) for written in found if written is not None)
    if not ends:
        return None
    reason = REASON_RANGE_END.format(
        answer=check.answer, cite=citation(i for i, _ in ends), range=ends[0][1]
    )
    return reject(reason, [check.answer.strip()])
