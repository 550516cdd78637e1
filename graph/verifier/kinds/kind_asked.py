"""A named thing offered where the question asks for a kind of thing: "What position did
the receiver of the 2007 Golden Shoe play?" answered "Sergio Agüero", "What type of
facility was Roger Batzel best known for as director?" answered "Lawrence Livermore
National Laboratory". A position, a language or a type of facility is answered by a
common noun or a title; a person, a place, a body or a work by its name is usually the
entity the question goes through. Such an answer is at most grounded, and only when
strong sources (the lexicon, its own page, its form) say what it is and the question's
own category noun does not accept it ("which type of spear-armed soldier?" asks for a
person: "Hoplite" answers it).
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.kinds.answer_types import Expected
from graph.verifier.kinds.asked import asked_noun
from graph.verifier.kinds.classes import STRONG_SOURCES, Classified
from graph.verifier.text.categories import KIND_NOUNS, NAMED_CLASSES

REASON_NAMED_FOR_KIND = (
    "{answer!r} is stated in stored {cite}, but it names {named}, and the question asks for"
    " a {kind}: more likely what the question goes through than what it asks for."
)
_TYPE_OF = re.compile(
    r"\b(?:what|which)\s+(?:\w+\s+)?(?P<kind>type|kind|sort|form|style|genre)s?\s+of"
    r"\s+(?P<what>\w[\w-]{0,39})",  # a word, not a run of hyphens: it is shown in a reason
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def kind_asked(question: str) -> str:
    """What the question asks for when it asks for a kind of thing ("position", "type of
    products"), or "" when it asks for none."""
    noun = asked_noun(question)
    if noun in KIND_NOUNS:
        return noun
    match = _TYPE_OF.search(question)
    return f"{match['kind'].casefold()} of {match['what']}" if match else ""


def named_for_kind(question: str, expected: Expected, classified: Classified) -> str | None:
    """The class of a named answer where the question asks for a kind of thing (see the
    module's docstring), else None."""
    if not kind_asked(question):
        return None
    strong = {kind for kind, (source, _) in classified.classes.items() if source in STRONG_SOURCES}
    if not strong or not strong <= NAMED_CLASSES or classified.fits(expected):
        return None
    return sorted(strong)[0]
