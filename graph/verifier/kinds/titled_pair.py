"""A question's alternatives as the stored pages name them.

The question's pair is read from its words alone, so a comma left out before the first
alternative runs the last word before it into it: "located in Chestnut Hill,
Massachusetts Boston College or Stanford University" reads "Massachusetts Boston
College", which no stored sentence writes, and then neither the right answer nor its
alias ("BC") is one of the alternatives. An alternative that no stored page is titled
and no stored sentence writes is read as its longest end that a stored page is titled,
unless a connector joins what it drops ("Bank of America" is no "America").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from graph.verifier.evidence.matching import Item, contains, title_text
from graph.verifier.kinds.question import NAME_CONNECTORS, Question
from graph.verifier.text.normalise import Text


def titled_pair(question: Question, items: Sequence[Item]) -> Question:
    """The question with each alternative as a stored page names it (see above)."""
    if not question.pair:
        return question
    titles = {title_text(item.title).tokens for item in items}
    pair = tuple(_as_titled(name, titles, items) for name in question.pair)
    return question if pair == question.pair else replace(question, pair=pair)


def _as_titled(name: Text, titles: set[tuple[str, ...]], items: Sequence[Item]) -> Text:
    tokens = name.tokens
    if len(tokens) < 2 or tokens in titles:
        return name
    ends = (
        tokens[start:]
        for start in range(1, len(tokens))
        if tokens[start:] in titles and tokens[start - 1] not in NAME_CONNECTORS
    )
    end = next(ends, None)
    # The sentences are read only when a title could stand for the alternative.
    if end is None or any(contains(item.text, name) for item in items):
        return name
    return Text.of(end)
