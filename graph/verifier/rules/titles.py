"""Quoted titles: a span a sentence writes only inside a quoted title (the album "Live in
Paris", the single "France", the song "John Lennon") names that work, so it answers no
question that asks for a person, a place or another thing that is not a work, nor a
year ("the song "1979"").

A quoted span is a title only when a noun of a work stands just before or after it ("the
album "Live in Paris"", "the "London Town" single", "entitled "..."): the snapshot quotes many other
names too ("holding home games at "Nuevo Estadio Los Pajaritos"", "oldest "a cappella"
singing group", nicknames), and those stay.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.evidence.matching import contains
from graph.verifier.read.check import Check
from graph.verifier.text.categories import WORK
from graph.verifier.text.normalise import analyse, split_words
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

# A quoted span, with up to two words before it and one after (a noun of a work there
# makes it a title).
_QUOTED = re.compile(r"((?:[\w'’]+,?\s+){0,2})[\"“]([^\"“”]{1,120})[\"”](\s+[\w'’]+)?")
_WORK_NOUNS = frozenset(
    split_words(
        "album albums single singles song songs track tracks film films movie movies novel"
        " novels book books play plays series show shows poem poems opera operas episode"
        " episodes ep eps titled entitled"
    )
)

REASON_IN_TITLE = (
    "{answer!r} appears in stored {cite} only inside the quoted title {title!r}, which names"
    " a work, not what the question asks for."
)


@lru_cache(maxsize=16384)
def _titles_removed(raw: str) -> tuple[str, tuple[str, ...]]:
    """The sentence with its quoted titles blanked out (other quoted names kept), and
    those titles (kept per sentence; a sentence without a quote mark has none)."""
    if '"' not in raw and "“" not in raw:
        return raw, ()
    titles: list[str] = []

    def blank(match: re.Match[str]) -> str:
        after = match.group(3) or ""
        around = set(f"{match.group(1)} {after}".casefold().replace(",", " ").split())
        if around.isdisjoint(_WORK_NOUNS):
            return match.group(0)
        titles.append(match.group(2))
        return f"{match.group(1)} ; {after}"

    return _QUOTED.sub(blank, raw), tuple(titles)


def title_problem(check: Check) -> Verdict | None:
    """A refusal when every sentence stating the answer writes it only inside a quoted
    title, and the question asks for a year or for a class that is no work."""
    classes = check.expected.classes
    if not (check.q.asks_year or (classes and WORK not in classes)):
        return None
    if '"' in check.answer or "“" in check.answer:
        return None
    inside: list[tuple[str, str]] = []
    for item in check.stating_items():
        kept, titles = _titles_removed(item.raw)
        if not titles or contains(analyse(kept), check.folded):
            return None
        holding = [t for t in titles if contains(analyse(t), check.folded)]
        if not holding:
            return None
        inside.append((item.id, holding[0]))
    if not inside:
        return None
    reason = REASON_IN_TITLE.format(
        answer=check.answer, cite=citation(i for i, _ in inside), title=inside[0][1]
    )
    return reject(reason, [check.answer.strip()])
