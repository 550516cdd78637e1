"""Values of "same <noun>?" comparisons that the names next to the noun do not give.

- "the same year": each entity's date (`graph.verifier.rules.compute.date_of`), by its year;
- "the same family" (or order): the scientific names a page gives, known by the endings
  the codes of nomenclature fix ("Cupressaceae", "Felidae"), wherever it writes them
  ("in the Cupressaceae (cypress family)", "the nightshade family, Solanaceae");

Each gives a value only when the page states one; an entity without one leaves the
comparison undecided (a word that is absent never makes it "no").

A "which is the largest <noun>, A or B?" whose measures no page states is decided by the
one page that states the superlative itself ("A is the largest private hospital in ..."),
not ranked ("the 2nd largest", "one of the largest").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph.verifier.evidence.candidates import find_all
from graph.verifier.evidence.matching import Item
from graph.verifier.rules.compute import LESS, MORE
from graph.verifier.text.normalise import is_number, singular
from graph.verifier.text.wordstems import STOPWORDS

SUPERLATIVES = frozenset(word for word in MORE | LESS if word.endswith("est"))
_RANKED = frozenset({"second", "of", "among", "amongst", "not", "nor", "never"})
STATES = "{id} states the {phrase!r}, the other page no such thing"
_PHRASE_WORDS = 3
# A scope after the superlative's noun: "the largest private hospital in Washington, D.C.".
_SCOPING = frozenset({"in", "of", "on", "at", "within", "among"})
_ALTERNATIVES = frozenset({"or", "and"})
_SCOPE_WORDS = 4
_SHORTEST_SCOPE_WORD = 3
# Endings of the scientific names of a rank: plant and animal families, orders of birds
# and fish.
_RANK_ENDINGS = {"family": ("aceae", "idae"), "order": ("iformes",)}
_SHORTEST_TAXON = 7
_CAPITALISED_WORD = re.compile(r"\b[A-Z][a-z]+\b")
DATE_NOUNS = frozenset({"year"})
# The sign of a comparison of values that asks whether they are the same.
SAME = 0
# "The same type of <noun>" asks about the noun ("the same type of work": a profession).
KIND_OF = frozenset((kind, "of") for kind in ("type", "kind", "sort", "line"))


def taxa(items: Iterable[Item], noun: str) -> frozenset[str]:
    """The scientific names of the rank `noun` the sentences write (none for another noun)."""
    endings = _RANK_ENDINGS.get(singular(noun), ())
    if not endings:
        return frozenset()
    return frozenset(
        word.casefold()
        for item in items
        for word in _CAPITALISED_WORD.findall(item.raw)
        if len(word) >= _SHORTEST_TAXON and word.endswith(endings)
    )


def _superlative(
    words: tuple[str, ...], skipped: frozenset[int]
) -> tuple[tuple[str, ...], frozenset[str]]:
    """The question's superlative and the words of its noun after it, outside the compared
    names (`skipped`): "largest private hospital" (() without a noun); and the content
    words of the scope that follows ("in Washington, D.C.": {"washington"})."""
    for index, word in enumerate(words):
        if index in skipped or word not in SUPERLATIVES:
            continue
        phrase = [word]
        at = index + 1
        while at < len(words) and len(phrase) <= _PHRASE_WORDS:
            if words[at] in STOPWORDS or at in skipped:
                break
            phrase.append(words[at])
            at += 1
        if len(phrase) == 1:
            return (), frozenset()
        return tuple(phrase), _scope(words, at, skipped)
    return (), frozenset()


def _scope(words: tuple[str, ...], at: int, skipped: frozenset[int]) -> frozenset[str]:
    """The content words after a scoping preposition at `at`, up to a compared name or the
    alternatives' "or"."""
    if at >= len(words) or words[at] not in _SCOPING:
        return frozenset()
    scope: set[str] = set()
    for index in range(at + 1, min(len(words), at + 1 + _SCOPE_WORDS)):
        word = words[index]
        if index in skipped or word in _ALTERNATIVES:
            break
        if word not in STOPWORDS and len(word) >= _SHORTEST_SCOPE_WORD and word.isalpha():
            scope.add(word)
    return frozenset(scope)


def _states(items: list[Item], phrase: tuple[str, ...], scope: frozenset[str]) -> Item | None:
    """The sentence of an entity's page that states the superlative phrase unranked, and
    within the question's scope (every scope word after the phrase)."""
    for item in items:
        tokens = item.text.tokens
        for start, _ in find_all(tokens, phrase):
            before = tokens[start - 1] if start else ""
            if is_number(before) or before in _RANKED:
                continue
            if scope <= set(tokens[start + len(phrase) :]):
                return item
    return None


def stated_superlative(
    words: tuple[str, ...], skipped: frozenset[int], facts: list[list[Item]]
) -> tuple[int, str, str] | None:
    """(the winner, the fact in words, its sentence's id) when exactly one entity's page
    states the question's superlative."""
    phrase, scope = _superlative(words, skipped)
    stating = [_states(items, phrase, scope) if phrase else None for items in facts]
    found = [(index, item) for index, item in enumerate(stating) if item is not None]
    if len(found) != 1:
        return None
    winner, item = found[0]
    return winner, STATES.format(id=item.id, phrase=" ".join(phrase)), item.id
