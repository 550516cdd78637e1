"""A measure and its conversion side by side: "8,849 metres (29,032 ft) tall".

Wikipedia gives most measures in two units, one in parentheses. The converted number is
the same measure, so it is no rival of the answer: "29,032 ft" sits nearer to "tall",
and "8,849 m" answers "How tall is Mount Everest?" as well.
"""

from __future__ import annotations

from graph.verifier.evidence.candidates import Span
from graph.verifier.read.relation import locate, reading
from graph.verifier.text.normalise import UNITS, analyse


def _unit(tokens: tuple[str, ...], span: Span) -> tuple[str, bool] | None:
    """The unit of a number span, and whether the span holds it ("8849 m"), or None."""
    start, end = span
    if end - start > 1 and tokens[end - 1] in UNITS:
        return tokens[end - 1], True
    if end < len(tokens) and tokens[end] in UNITS:
        return tokens[end], False
    return None


def converts(raw: str, span: Span, answer: tuple[str, ...]) -> bool:
    """Whether the number at `span` of the sentence is a stated `answer` in another unit,
    the two side by side (only their units between them)."""
    tokens = analyse(reading(raw)).tokens
    for stated in locate(raw, answer):
        first, second = sorted((stated, span))
        units = _unit(tokens, first), _unit(tokens, second)
        if units[0] is None or units[1] is None or units[0][0] == units[1][0]:
            continue
        if second[0] - first[1] == (0 if units[0][1] else 1):
            return True
    return False
