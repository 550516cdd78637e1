"""Stored sentences and how texts match: containment, near spans, topical overlap, and
which pages relate to one another (denials: `graph.verifier.trust.denials`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import islice, pairwise
from typing import NamedTuple

from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.normalise import (
    REWRITTEN,
    Text,
    analyse,
    fold_each,
    plain,
    singular_form,
)
from graph.verifier.text.wordstems import stems
from graph.verifier.trust.instructions import introduces, is_trusted

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
# Two or more capitalised words (the first not inside a word; the look-behind follows its
# capital, so the scan can skip to capitals).
_CAPITALISED_RUN = re.compile(r"[A-Z](?<!\w[A-Z])[\w'’-]*\s+(?:[A-Z][\w'’-]*\s+)*[A-Z][\w'’-]*")


class Item(NamedTuple):
    """One stored sentence with its page title; analysed only when a check needs it (each
    analysis is kept per sentence text)."""

    id: str
    title: str
    raw: str
    position: int = -1  # the sentence's index on its page (-1: unknown)
    preceding: str = ""  # the stored sentence just before it on its page ("" if none)
    call: str = ""  # an untitled sentence's tool call: its source but the index ("" if none)

    @property
    def page(self) -> str:
        """The page the sentence is on: its title, else the tool call that stored it (a
        call's lines are one page, as a page's sentences are), else its own id."""
        return self.title or self.call or self.id

    @property
    def text(self) -> Text:
        return analyse(self.raw)

    @property
    def title_text(self) -> Text:
        """The page title folded, without its parenthesis."""
        return title_text(self.title)

    @property
    def trusted(self) -> bool:
        """Not addressed to the agent, nor introduced to it by the sentence before it
        ("Note to AI:", then the fact); decided only for sentences a check reads."""
        return is_trusted(self.raw) and not (self.preceding and introduces(self.preceding))

    def title_may_contain(self, probe: str | None) -> bool:
        """Whether the page's title can state a text whose `probe_of` is `probe` (a cheap
        filter; `Check.containing` filters sentences so)."""
        return probe is None or probe in plain(self.title)


@lru_cache(maxsize=16384)
def title_text(title: str) -> Text:
    """A page title folded for matching, without its parenthesis."""
    return analyse(_PARENTHETICAL.sub("", title))


@lru_cache(maxsize=256)
def folded_list(items: tuple[Item, ...]) -> tuple[tuple[str, ...], str, str]:
    """An evidence list folded as `plain` folds each text, kept per list (the checks of an
    episode's answers share its list): each sentence (see `fold_each`: an ASCII list is
    folded as one text), all of them joined by newlines (no probe holds one), and every
    page title once, joined so."""
    folds = tuple(fold_each([item.raw for item in items]))
    titles = [plain(title) for title in dict.fromkeys(item.title for item in items)]
    return folds, "\n".join(folds), "\n".join(titles)


def holding(items: Sequence[Item], probe: str | None) -> Sequence[Item]:
    """The sentences whose fold holds `probe` (all of them for None): those that can state
    a text whose `probe_of` it is (a cheap filter before each is analysed)."""
    if probe is None:
        return items
    folds, joined, _ = folded_list(tuple(items))
    if probe not in joined:
        return ()
    return [item for item, fold in zip(items, folds, strict=True) if probe in fold]


def may_state(items: Sequence[Item], needle: Text) -> Sequence[Item]:
    """The sentences that can state `needle` (`holding` its probe)."""
    return holding(items, probe_of(needle))


def probe_of(needle: Text) -> str | None:
    """A substring every sentence that states `needle` must contain, or None.

    It is the start of the needle's longest plain word (not a number, month or
    unit, which folding may have rewritten), short enough to match plurals.
    """
    words = [token for token in needle.tokens if token.isalpha() and token not in REWRITTEN]
    if not words:
        return None
    word = max(words, key=len)
    if word.endswith("ies"):
        return word[:-3]
    return word[:-1] if word.endswith("s") else word


def contains(hay: Text, needle: Text) -> bool:
    """The needle's tokens occur in the hay, in order, as whole words."""
    return bool(needle.tokens) and needle.padded in hay.padded


def contains_singular(hay: Text, needle: Text) -> bool:
    """`contains`, with every word of both texts in the singular (`plants` ~ `plant`)."""
    return bool(needle.tokens) and singular_form(needle.padded) in singular_form(hay.padded)


def near(hay: Text, needle: Text) -> bool:
    """Every needle token within a window barely longer than the needle, in any order."""
    wanted = set(needle.tokens)
    if len(wanted) < 2 or not wanted.issubset(hay.tokens):
        return False
    width = len(needle.tokens) + 1
    positions = [i for i, token in enumerate(hay.tokens) if token in wanted]
    for first, start in enumerate(positions):
        seen: set[str] = set()
        for i in islice(positions, first, None):
            if i >= start + width:
                break
            seen.add(hay.tokens[i])
        if seen >= wanted:
            return True
    return False


def shares_enough(sentences: list[Item], wanted: frozenset[str], names: frozenset[str]) -> bool:
    """A page's trusted sentences, and its title once one of them is trusted, share
    `wanted` stems with the question: one of `names`, or two others. Read sentence by
    sentence, stopping once they do (the shared stems only grow, so the answer is the one
    of all at once); a sentence is checked for trust only when it would add a stem, the
    title's on the first trusted one: the others change nothing, trusted or not."""
    if not sentences:
        return False
    title = wanted & stems(sentences[0].title_text.padded)
    shared: set[str] = set()
    titled = False
    for item in sentences:
        new = wanted & stems(item.text.padded)
        if (new <= shared and (titled or title <= shared)) or not item.trusted:
            continue
        if not titled:
            shared |= title
            titled = True
        shared |= new
        if len(shared) > 1 or not names.isdisjoint(shared):
            return True
    return False


@lru_cache(maxsize=TEXTS)
def _names(text: str) -> frozenset[str]:
    """Capitalised two-word names in a sentence (`Clear Lake`, `Pacific Games`), folded."""
    pairs: set[str] = set()
    for name in _CAPITALISED_RUN.findall(text):
        words = name.casefold().split()
        pairs.update(f"{a} {b}" for a, b in pairwise(words))
    return frozenset(pairs)


def _names_title(sentences: list[Item], page: list[Item]) -> bool:
    """Some sentence names the page's title (or the part before a comma: `Stull, Kansas`)."""
    core = _PARENTHETICAL.sub("", page[0].title)
    titles = [
        title for title in (analyse(core), analyse(core.split(",")[0])) if stems(title.padded)
    ]
    return any(contains(item.text, title) for item in sentences for title in titles)


def pages_linked(page: list[Item], other: list[Item]) -> bool:
    """Two pages are linked: one names the other's title, or both name the same name."""
    if _names_title(other, page) or _names_title(page, other):
        return True
    names = frozenset().union(*(_names(item.raw) for item in page))
    return any(not names.isdisjoint(_names(item.raw)) for item in other)


def is_about(item: Item, entity: Text) -> bool:
    """The stored sentence is about `entity`: it comes from the entity's page.

    A page title inside the entity's name counts when it has two words or more
    (`Hoodoo Gurus` for "Sydney's Hoodoo Gurus", not `Boston` for "Boston
    College"). Evidence without a page title is about what it names.
    """
    title = item.title_text
    if not title.tokens:
        return contains_singular(item.text, entity)
    if contains_singular(title, entity):
        return True
    return len(title.tokens) > 1 and contains_singular(entity, title)
