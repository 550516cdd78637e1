"""Comparisons of values no page measures ("which is the higher mountain, A or B?" where a
page gives no height).

When both pages rank their entity by the question's own superlative, of the same noun and
scope ("the 31st highest mountain in the world", "the 106th highest mountain in the
world"), the lower rank wins. Otherwise the one page that states the superlative itself
("A is the largest private hospital in ...") decides, not ranked ("the 2nd largest",
"one of the largest"). Anything else leaves the comparison undecided.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from graph.verifier.evidence.candidates import find_all
from graph.verifier.evidence.matching import Item
from graph.verifier.rules.compute import LESS, MORE
from graph.verifier.rules.ranks import ORDINAL_NUMBERS
from graph.verifier.text.normalise import is_number, singular
from graph.verifier.text.wordstems import STOPWORDS

SUPERLATIVES = frozenset(word for word in MORE | LESS if word.endswith("est"))
_RANKED = frozenset({"second", "of", "among", "amongst", "not", "nor", "never"})
STATES = "{id} states the {phrase!r}, the other page no such thing"
RANKED = "{first}: {first_rank} ({first_id}); {second}: {second_rank} ({second_id})"
_HIGHEST_RANK = 10_000
_PHRASE_WORDS = 3
# A scope after the superlative's noun: "the largest private hospital in Washington, D.C.".
_SCOPING = frozenset({"in", "of", "on", "at", "within", "among"})
_ALTERNATIVES = frozenset({"or", "and"})
_SCOPE_WORDS = 4
_SHORTEST_SCOPE_WORD = 3


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


def _asked_superlative(words: tuple[str, ...], skipped: frozenset[int]) -> str | None:
    """The superlative of the question's comparative, as a page ranks by it: "highest"
    for "higher" or "highest", "most populous" for "more populous"."""
    for index, word in enumerate(words):
        if index in skipped or word not in MORE | LESS:
            continue
        if word in ("more", "most", "less", "least", "fewer", "fewest"):
            following = words[index + 1] if index + 1 < len(words) else ""
            if not following or index + 1 in skipped:
                return None
            most = "most" if word in ("more", "most") else "least"
            return f"{most} {following}"
        return word if word.endswith("est") else f"{word.removesuffix('er')}est"
    return None


# An ordinal rank before a superlative ("31st", "twenty-first" ends no compound), and the
# superlative's noun with a scope after it ("mountain in the world"); compiled once, as a
# pattern per superlative with them costs half a millisecond to compile.
_RANK = re.compile(
    rf"\b(?:(\d{{1,4}})(?:st|nd|rd|th)|(?<![\w-])({'|'.join(ORDINAL_NUMBERS)}))[\s-]+",
    re.IGNORECASE,
)
_NOUN_AND_SCOPE = re.compile(
    r"\s+([a-z]+)((?:\s+(?:in|of|on)\s+(?:the\s+)?[A-Za-z]+)?)", re.IGNORECASE
)


@lru_cache(maxsize=64)
def _said(superlative: str) -> re.Pattern[str]:
    return re.compile(re.escape(superlative), re.IGNORECASE)


def _ranks_in(raw: str, superlative: str) -> Iterator[tuple[int, str, str]]:
    """Each rank by the superlative a sentence states, with its noun and scope ("the 31st
    highest mountain in the world"), read left to right without overlaps."""
    said = _said(superlative)
    end = 0
    for ranked in _RANK.finditer(raw):
        if ranked.start() < end:
            continue
        superlative_at = said.match(raw, ranked.end())
        rest = superlative_at and _NOUN_AND_SCOPE.match(raw, superlative_at.end())
        if not rest:
            continue
        end = rest.end()
        digits, word = ranked.groups()
        noun, scope = rest.groups()
        yield (int(digits) if digits else ORDINAL_NUMBERS[word.casefold()]), noun, scope


def _rank(items: list[Item], superlative: str) -> tuple[int, tuple[str, str], Item] | None:
    """The one rank an entity's page gives by the superlative, with its noun and scope."""
    found = []
    for item in items:
        for rank, noun, scope in _ranks_in(item.raw, superlative):
            if 0 < rank <= _HIGHEST_RANK:
                key = (singular(noun.casefold()), " ".join(scope.casefold().split()))
                found.append((rank, key, item))
    return found[0] if len({(rank, key) for rank, key, _ in found}) == 1 else None


def stated_ranks(
    words: tuple[str, ...], skipped: frozenset[int], facts: list[list[Item]], names: list[str]
) -> tuple[int, str, tuple[str, str]] | None:
    """(the winner, the ranks in words, their sentences' ids) when both entities' pages
    rank them by the question's superlative, of one noun and scope, at different ranks."""
    superlative = _asked_superlative(words, skipped)
    if superlative is None or len(facts) != 2:
        return None
    ranks = [_rank(items, superlative) for items in facts]
    first, second = ranks
    if first is None or second is None or first[1] != second[1] or first[0] == second[0]:
        return None
    ranked = f"{superlative} {' '.join(first[1])}".strip()
    shown = RANKED.format(
        first=names[0],
        first_rank=f"#{first[0]} {ranked}",
        first_id=first[2].id,
        second=names[1],
        second_rank=f"#{second[0]} {ranked}",
        second_id=second[2].id,
    )
    return (0 if first[0] < second[0] else 1), shown, (first[2].id, second[2].id)


def unmeasured_winner(
    words: tuple[str, ...], skipped: frozenset[int], facts: list[list[Item]], names: list[str]
) -> tuple[int, str, tuple[str, ...], bool] | None:
    """(the winner, the facts in words, their sentences' ids, whether computed from ranks
    rather than read off one stated superlative), or None when neither decides."""
    ranked = stated_ranks(words, skipped, facts, names)
    if ranked is not None:
        return (*ranked, True)
    stated = stated_superlative(words, skipped, facts)
    if stated is not None:
        winner, shown, stating = stated
        return winner, shown, (stating,), False
    return None
