"""The attribute a "both ..." comparison asks about, and what each entity's page says of
it: the words it states (a broader word by a narrower one, a nationality by a country,
a misspelt word by the right one), and what its first sentence contradicts."""

from __future__ import annotations

import re

from graph.verifier.evidence.matching import Item
from graph.verifier.kinds.answer_types import class_of
from graph.verifier.kinds.places import nationalities_named
from graph.verifier.read.relation import Cues
from graph.verifier.text.categories import DEMONYMS, HYPERNYMS
from graph.verifier.text.normalise import singular, split_words
from graph.verifier.text.wordstems import cue_stem, one_typo_apart

_NOT_ATTRIBUTE = frozenset(
    split_words(
        "both same also either each all two following share common one type types kind kinds"
        " sort sorts industry"
    )
)
_LOWER_WORD = re.compile(r"\b[a-z][a-z-]+\b")
# What a lead says its subject is: from the first "is a"/"was an" to the end of that clause.
_DESCRIPTION = re.compile(r"\b(?:is|was|are|were)\s+(?:an?|the|one)\b([^,;:()]*)")
# Kinds of plant that a modifier of the question rules out: no fern, moss or conifer is a
# "flowering plant", whatever else its page says it is.
_EXCLUDED_KINDS = {
    "flowering": frozenset(
        split_words(
            "fern moss conifer gymnosperm cycad liverwort hornwort alga algae fungus fungi lichen"
            " horsetail clubmoss lycophyte"
        )
    )
}
# "same <word>" questions about what the subjects are, read from their first sentences.
OCCUPATION_WORDS = frozenset(split_words("profession professions occupation occupations job jobs"))
GENRE_WORDS = frozenset(split_words("genre genres"))
# Words a description puts before its category noun that say nothing of a genre.
_NOT_GENRE = frozenset(
    split_words(
        "former defunct famous popular well-known best-known short-lived new old current"
        " professional successful influential major leading"
    )
)


def _page_stems(items: list[Item]) -> frozenset[str]:
    found: set[str] = set()
    for item in items:
        found.update(cue_stem(token) for token in item.text.tokens)
        found.update(cue_stem(token) for token in item.title_text.tokens)
    return frozenset(found - {""})


def attribute_of(
    question_words: tuple[str, ...], cues: Cues, entities: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The attribute a comparison asks about: the question's words less the compared
    entities' and the comparison's own, and less verbs in -ed ("worked as", "situated
    in"); split into its core (names, category nouns, demonyms) and the rest."""
    core: set[str] = set()
    rest: set[str] = set()
    for word in question_words:
        stemmed = cue_stem(word)
        if stemmed not in cues.stems - entities or word in _NOT_ATTRIBUTE:
            continue
        if stemmed in cues.names or class_of(word) or word in DEMONYMS:
            core.add(word)
        elif not word.endswith("ed"):
            rest.add(word)
    return frozenset(core), frozenset(rest)


def _related(noun: str, other: str) -> bool:
    """The same category, or one broader than the other ("writer" and "novelist")."""
    return (
        singular(noun) == singular(other)
        or singular(other) in HYPERNYMS.get(singular(noun), frozenset())
        or singular(noun) in HYPERNYMS.get(singular(other), frozenset())
    )


def covered(items: list[Item], words: frozenset[str]) -> frozenset[str]:
    """The attribute words the entity's page states (a broader word by a narrower one, a
    nationality by a country, a word misspelt by one letter by the right one)."""
    stems = _page_stems(items)
    tokens = {singular(token) for item in items for token in item.text.tokens}
    nationalities = frozenset().union(*(nationalities_named(item.raw) for item in items))
    return frozenset(
        word
        for word in words
        if cue_stem(word) in stems
        or word in nationalities
        or not tokens.isdisjoint(HYPERNYMS.get(singular(word), ()))
        or any(one_typo_apart(singular(word), token) for token in tokens)
    )


def _described(lead: str) -> str:
    """The lead's description of its subject ("a genus of ... trees"), else the whole lead."""
    match = _DESCRIPTION.search(lead)
    return match.group(1) if match else lead


def conflict(items: list[Item], core: frozenset[str], rest: frozenset[str] = frozenset()) -> str:
    """A core attribute word the page's first sentence contradicts: another nationality
    (or the country of another one: "in eastern Denmark" for "located in India?"), or
    only categories unrelated to the asked one ("film director" for "actress"); or a kind
    it describes that another attribute word rules out ("a genus of ferns" is no
    flowering plant)."""
    leads = [item for item in items if item.position == 0]
    if not leads:
        return ""
    demonyms = demonyms_of(leads)
    nouns = {
        word
        for item in leads
        for word in _LOWER_WORD.findall(_described(item.raw))
        if class_of(word)
    }
    for word in sorted(core | rest):
        excluded = sorted(n for n in nouns if singular(n) in _EXCLUDED_KINDS.get(word, ()))
        if excluded:
            return f"{leads[0].id} describes it as {', '.join(excluded)}, which is not {word}"
    for word in sorted(core):
        nationality = {word} if word in DEMONYMS else nationalities_named(word.title())
        if nationality and demonyms and nationality.isdisjoint(demonyms):
            return f"{leads[0].id} gives {', '.join(sorted(demonyms))}, not {word}"
        if class_of(word) and nouns and not any(_related(word, noun) for noun in nouns):
            return f"{leads[0].id} describes it as {', '.join(sorted(nouns))}, not {word}"
    return ""


def _leads(items: list[Item]) -> list[Item]:
    return [item for item in items if item.position == 0] or items


def demonyms_of(items: list[Item]) -> frozenset[str]:
    """The nationalities the entity's page gives (its first sentence when stored), as
    demonyms or by the countries and states it names."""
    return frozenset(
        nationality
        for item in _leads(items)
        for nationality in (
            *(token for token in item.text.tokens if token in DEMONYMS),
            *nationalities_named(item.raw),
        )
    )


def occupations_of(items: list[Item]) -> frozenset[str]:
    """The categories of person the page's first sentence describes its subject as
    ("an American actor, singer and producer": actor, singer, producer)."""
    return frozenset(
        singular(word)
        for item in items
        if item.position == 0
        for word in _LOWER_WORD.findall(_described(item.raw))
        if "person" in class_of(word)
    )


def genres_of(items: list[Item]) -> frozenset[str]:
    """The words before the first category noun of the page's first sentence's description
    ("an American alternative rock band": alternative, rock), demonyms aside."""
    found: set[str] = set()
    for item in items:
        if item.position != 0:
            continue
        for word in _LOWER_WORD.findall(_described(item.raw)):
            if class_of(word):
                break
            if word not in DEMONYMS:
                found.add(word)
    return frozenset(found - _NOT_ATTRIBUTE - _NOT_GENRE)


def shared_occupation(first: frozenset[str], second: frozenset[str]) -> bool | None:
    """Whether two pages' occupations share one (the same or one broader than the other);
    None when a page gives none."""
    if not first or not second:
        return None
    return any(_related(one, other) for one in first for other in second)
