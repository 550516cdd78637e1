"""Namesakes: a stored page that bears the name the question asks about, but is
another thing of that name ("the novel Breakfast on Pluto" against the page of the 2005
film; "the 1982 film Cat People" against the 1942 one).

The question describes a name by the kind of work written right before it, and a year
just before that ("the 1982 film Cat People"); the page by its title's parenthesis
("Cat People (1942 film)") or, without one, by its lead ("Breakfast on Pluto is a 1998
novel by ...").
The page is another thing when a kind or a year differs and the question mentions the
page's own kind or year nowhere (then it may be a hop: "the novel the film X is based
on").
"""

from __future__ import annotations

import re
from typing import NamedTuple

from graph.verifier.evidence.candidates import is_year
from graph.verifier.evidence.matching import Item, contains
from graph.verifier.kinds.descriptions import COPULA
from graph.verifier.text.normalise import Text, analyse

# Kinds of work, each word mapped to its kind (synonyms share one).
_KINDS = {
    "film": "film",
    "movie": "film",
    "novel": "book",
    "novella": "book",
    "book": "book",
    "song": "song",
    "single": "song",
    "album": "album",
    "play": "play",
    "musical": "musical",
    "opera": "opera",
    "magazine": "magazine",
    "newspaper": "newspaper",
    "poem": "poem",
    "sitcom": "series",
    "series": "series",
}
DESCRIBED_WORDS = 2  # words before a kind of work that may date it
LEAD_WORDS = 8  # words after the name's copula in a page's lead that may describe it
_PARENTHESIS = re.compile(r"\(([^)]*)\)\s*$")


class Described(NamedTuple):
    """A kind of work and a year said of a name (either may be missing)."""

    kind: str | None
    year: str | None


def _described(tokens: tuple[str, ...] | list[str]) -> Described:
    kind = next((_KINDS[t] for t in tokens if t in _KINDS), None)
    year = next((t for t in tokens if is_year(t)), None)
    return Described(kind, year)


def in_question(question: Text, name: Text) -> Described:
    """How a text (the question) describes `name`: a kind of work written right before
    its first mention, with a year among the `DESCRIBED_WORDS` before that ("the 1982
    film Cat People"); a kind further off describes something else ("which album first
    released Deliver Your Children?" asks for the album)."""
    size = len(name.tokens)
    tokens = question.tokens
    for start in range(1, len(tokens) - size + 1):
        if size and tokens[start : start + size] == name.tokens:
            if tokens[start - 1] not in _KINDS:
                return Described(None, None)
            return _described(tokens[max(0, start - 1 - DESCRIBED_WORDS) : start])
    return Described(None, None)


def of_page(title: str, lead: str | None) -> Described:
    """How a page describes its subject: its title's parenthesis, else its lead's words
    after the first copula."""
    parenthesis = _PARENTHESIS.search(title)
    if parenthesis:
        return _described(analyse(parenthesis.group(1)).tokens)
    if lead is None:
        return Described(None, None)
    tokens = analyse(lead).tokens
    copula = next((i for i, t in enumerate(tokens) if t in COPULA), None)
    if copula is None:
        return Described(None, None)
    return _described(tokens[copula + 1 : copula + 1 + LEAD_WORDS])


def is_namesake(question: Text, asked: Described, page: Described) -> bool:
    """The page describes the name the question `asked` about as another kind of work,
    or the same kind of another year, and the question names that kind or year nowhere
    (a year counts only with the kind it dates: "the 1982 film X")."""
    if asked.kind is None or page == Described(None, None):
        return False
    mentioned = {_KINDS.get(t) for t in question.tokens} | set(question.tokens)
    if page.kind and asked.kind != page.kind:
        return page.kind not in mentioned
    return bool(asked.year and page.year and asked.year != page.year) and (
        page.year not in mentioned
    )


def describes_as_asked(sentence: Text, name: Text, asked: Described) -> bool:
    """The sentence itself names `name` as the question does ("the soundtrack to the 1992
    film This Is My Life", on the album's page), so it speaks of the asked thing."""
    said = in_question(sentence, name)
    return said.kind == asked.kind and (asked.year is None or said.year == asked.year)


def namesake_pages(question: Text, by_page: dict[str, list[Item]]) -> dict[str, Described]:
    """The stored pages (by page, their sentences) that are namesakes of a work the
    question names, each with the question's description of it."""
    found: dict[str, Described] = {}
    for page, sentences in by_page.items():
        name = sentences[0].title_text
        if not sentences[0].title or not contains(question, name):
            continue
        asked = in_question(question, name)
        lead = next((item.raw for item in sentences if item.position == 0), None)
        if is_namesake(question, asked, of_page(sentences[0].title, lead)):
            found[page] = asked
    return found
