"""A place of another kind than the one asked: "On the west bank of which river ...?"
answered "Guilin", whose article says it "is a prefecture-level city", or "In what
French river ...?" answered "Pont de Grenelle", which "is a bridge". Both are places, so
the class check passes them; they are usually the place a two-hop question goes through
(its bridge), not the one it asks for. Such an answer is at most grounded.

Kinds of place come in groups that may name one another (a county town is a town, a
city-state a country, an island often a country or a state: "Ireland is an island"):
the answer's kinds are every place noun of the head of what its lead says it is, and it
differs only when none of them shares a group with the asked noun. Without a lead, a
name ending in a kind of building or way ("Vilnius Cathedral", "Montana Highway") says
its kind; a name ending in a kind of land or water does not ("Auburn Hills" and "Herons
Creek" are towns).
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.kinds.answer_types import NameLexicon
from graph.verifier.kinds.described import head_words
from graph.verifier.text.normalise import singular, split_words

REASON_OTHER_PLACE = (
    "{answer!r} is stated in stored {cite}, but it is {kind}, and the question asks for"
    " {noun}: more likely a place the question goes through than the one it asks for."
)
_GROUPS = {
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
_GROUP_WORDS = {group: frozenset(split_words(words)) for group, words in _GROUPS.items()}
# Each kind of place with the groups it is in ("district": a settlement's or a region's).
_KINDS = {
    word: frozenset(group for group, words in _GROUP_WORDS.items() if word in words)
    for word in frozenset().union(*_GROUP_WORDS.values())
}
# A name's last word says its kind only for these groups.
_NAMED_BY_ENDING = frozenset({"building"})
_WORD = re.compile(r"[A-Za-z]+")


def _kinds_of(words: list[str]) -> frozenset[str]:
    return frozenset().union(*(_KINDS.get(singular(word.casefold()), ()) for word in words))


@lru_cache(maxsize=4096)
def _answer_kinds(answer: str, lexicon: NameLexicon) -> tuple[frozenset[str], str]:
    """The groups of place the answer is of, and the word that says so ("" when unknown)."""
    for lead in lexicon.describe(answer)[:1]:
        words = head_words(lead)
        kinds = _kinds_of(words)
        if kinds:
            return kinds, next(singular(w) for w in reversed(words) if _kinds_of([w]))
    name = _WORD.findall(answer)
    ending = _kinds_of(name[-1:])
    if ending and ending <= _NAMED_BY_ENDING:
        return ending, singular(name[-1].casefold())
    return frozenset(), ""


def other_place_kind(answer: str, noun: str, lexicon: NameLexicon | None) -> str | None:
    """The kind of place the answer is (by its article, or its name's last word) when the
    question asks for a place of another kind (`noun`), else None."""
    if lexicon is None or not noun:
        return None
    asked = _KINDS.get(singular(noun.casefold()))
    if asked is None:
        return None
    kinds, word = _answer_kinds(answer, lexicon)
    return word if kinds and asked.isdisjoint(kinds) else None
