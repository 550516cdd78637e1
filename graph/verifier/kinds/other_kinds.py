"""A place or a work of another kind than the one asked: "On the west bank of which
river ...?" answered "Guilin", whose article says it "is a prefecture-level city"; "What
song debuted in the October 27, 1999 episode of South Park?" answered the episode, whose
article says it "is the tenth episode of the third season". The class check passes both
(a place for a place, a work for a work); they are usually what a two-hop question goes
through (its bridge), not what it asks for. Such an answer is at most grounded.

Kinds come in groups that may name one another (a county town is a town, a city-state a
country, an island often a country or a state: "Ireland is an island"; a sitcom is a
series, an EP an album, a show a series or a stage work): the answer's kinds are every
kind noun of the head of what its lead says it is, and it differs only when none of them
shares a group with the asked noun. Without a lead, a name ending in a kind of building
or way ("Vilnius Cathedral", "Montana Highway") says its kind; a name ending in a kind
of land or water does not ("Auburn Hills" and "Herons Creek" are towns), nor does a
work's ("Song of the South" is a film).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from graph.verifier.kinds.answer_types import NameLexicon
from graph.verifier.kinds.described import head_words
from graph.verifier.text.normalise import singular, split_words

REASON_OTHER_KIND = (
    "{answer!r} is stated in stored {cite}, but it is {kind}, and the question asks for"
    " {noun}: more likely {family} the question goes through than the one it asks for."
)
_PLACES = {
    "settlement": """city town village hamlet suburb borough neighbourhood neighborhood
        district capital municipality commune parish community settlement locality
        metropolis conurbation""",
    "region": """county country state province region territory nation kingdom republic
        empire prefecture oblast canton department continent district island archipelago
        peninsula""",
    "water": "river lake sea ocean bay gulf strait canal creek stream waterfall glacier",
    "land": """island archipelago peninsula mountain peak hill volcano range valley desert
        forest coast beach cape headland""",
    "building": """building tower skyscraper stadium arena venue bridge airport station
        hotel casino resort theatre theater mall castle palace fort fortress lighthouse dam
        mine prison campus estate street road avenue highway square park cathedral church""",
}
# Works, and the characters and franchises they hold.
_WORKS = {
    "film": "film movie documentary",
    "series": "series sitcom show programme program serial miniseries telenovela",
    "episode": "episode",
    "song": "song single track anthem ballad hymn",
    "album": "album ep soundtrack mixtape lp compilation",
    "book": "novel novella book memoir autobiography biography",
    "stage": "play musical opera operetta ballet show",
    "periodical": "magazine newspaper journal periodical",
    "comic": "comic manga anime",
    "game": "game",
    "poem": "poem",
    "character": "character",
    "franchise": "franchise",
}
_WORD = re.compile(r"[A-Za-z]+")


class _Family(NamedTuple):
    """Kinds of one family (places, works): each kind noun with the groups it is in
    ("district": a settlement's or a region's), and the groups a name's last word says."""

    article: str
    kinds: dict[str, frozenset[str]]
    named_by_ending: frozenset[str]


def _family(article: str, groups: dict[str, str], named_by_ending: frozenset[str]) -> _Family:
    words = {group: frozenset(split_words(text)) for group, text in groups.items()}
    kinds = {
        word: frozenset(group for group, members in words.items() if word in members)
        for word in frozenset().union(*words.values())
    }
    return _Family(article, kinds, named_by_ending)


PLACE, WORK = "a place", "a work"
_FAMILIES = {
    PLACE: _family(PLACE, _PLACES, frozenset({"building"})),
    WORK: _family(WORK, _WORKS, frozenset()),
}


class OtherKind(NamedTuple):
    """The kind the answer is (its noun) and its family ("a place", "a work")."""

    kind: str
    family: str


def _kinds_of(family: _Family, words: list[str]) -> frozenset[str]:
    return frozenset().union(*(family.kinds.get(singular(word.casefold()), ()) for word in words))


@lru_cache(maxsize=4096)
def _answer_kinds(answer: str, lexicon: NameLexicon, article: str) -> tuple[frozenset[str], str]:
    """The groups of the family `article` names the answer is of, and the word that says
    so ("" when unknown)."""
    family = _FAMILIES[article]
    for lead in lexicon.describe(answer)[:1]:
        words = head_words(lead)
        kinds = _kinds_of(family, words)
        if kinds:
            return kinds, next(singular(w) for w in reversed(words) if _kinds_of(family, [w]))
    name = _WORD.findall(answer)
    ending = _kinds_of(family, name[-1:])
    if ending and ending <= family.named_by_ending:
        return ending, singular(name[-1].casefold())
    return frozenset(), ""


def other_kind(
    answer: str, noun: str, lexicon: NameLexicon | None, article: str
) -> OtherKind | None:
    """The kind of place or work (`article`: `PLACE`, `WORK`) the answer is, by its
    article or its name's last word, when the question asks for one of another kind
    (`noun`), else None."""
    family = _FAMILIES[article]
    asked = family.kinds.get(singular(noun.casefold())) if noun else None
    if lexicon is None or asked is None:
        return None
    kinds, word = _answer_kinds(answer, lexicon, article)
    return OtherKind(word, article) if kinds and asked.isdisjoint(kinds) else None
