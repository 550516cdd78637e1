"""Ranks: a question that asks for the first (or third, or debut) of something is not
answered by a span its sentence ranks otherwise ("X is the third studio album by ..."
answers no "what was her debut studio album?").

Ranks are read from the raw text (folding writes "third" as "3", like a count): an
ordinal word ("first" ... "twentieth", "twenty-first"), "debut", or "21st", with the
words after it as what it ranks. A sentence ranks the answer when a ranked phrase sharing
a content word with the question's stands within a few words of it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from graph.verifier.read.check import Check
from graph.verifier.text.normalise import alternation, split_words
from graph.verifier.text.wordstems import stem
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

_UNITS = split_words(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
    " thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
)
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50}
_TENTHS = {"twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50}
# Ordinals in words and their numbers ("third": 3, "twentieth": 20).
ORDINAL_NUMBERS = {word: number for number, word in enumerate(_UNITS, start=1)} | _TENTHS
_WORDS = ORDINAL_NUMBERS | {"debut": 1}
_NUMBERED = re.compile(r"(\d{1,9})(?:st|nd|rd|th)")
# The words an ordinal may open with, but for those `_NUMBERED` reads ("21st").
_ORDINAL_WORDS = frozenset([*_WORDS, *_TENS])
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
# What an ASCII text holds, lowered, if any of its words can be an ordinal.
_MAY_RANK = re.compile(rf"[0-9]|{alternation(sorted(_ORDINAL_WORDS))}")
# Words that end what an ordinal ranks ("the third album by ...", "the first to ...").
_BOUNDS = frozenset(
    split_words("the a an by of in on at to for from with and or was is which that who as")
)
_IN_NAME = "\x00"  # an ordinal inside a name
RANKED_WORDS = 3  # words after an ordinal that say what it ranks
NEAR = 6  # words between a ranked phrase and the answer it ranks

REASON_RANKED = (
    "{answer!r} is stated in stored {cite}, but ranked there as number {given} of what"
    " the question ranks as number {asked} ({phrase!r})."
)


class Ranked(NamedTuple):
    """An ordinal at word `start`, its number, and what it ranks (as stems, and the
    phrase as written)."""

    start: int
    end: int
    rank: int
    stems: frozenset[str]
    phrase: str


def _words(raw: str) -> list[str]:
    """The words of a raw text, folded; an ordinal inside a name ("7th Heaven", "Second
    Vatican Council": before a capitalised word) is marked so no rank is read from it."""
    words = _WORD.findall(raw.replace("-", " "))
    return [
        _IN_NAME if following[:1].isupper() and _ordinal_word(word) else word.casefold()
        for word, following in zip(words, [*words[1:], ""], strict=True)
    ]


def _ordinal_word(word: str) -> bool:
    folded = word.casefold()
    return folded in _WORDS or folded in _TENS or _NUMBERED.fullmatch(folded) is not None


def _ordinal(words: list[str], index: int) -> tuple[int, int] | None:
    """The rank an ordinal at `index` gives and the index after it, or None."""
    word = words[index]
    numbered = _NUMBERED.fullmatch(word)
    if numbered:
        return int(numbered.group(1)), index + 1
    if word in _TENS and index + 1 < len(words) and words[index + 1] in _UNITS[:9]:
        return _TENS[word] + _WORDS[words[index + 1]], index + 2
    if index > 0 and words[index - 1] in _TENS and word in _UNITS[:9]:
        return None  # the second half of "twenty-first", read with its first
    return (_WORDS[word], index + 1) if word in _WORDS else None


def ranked(words: list[str]) -> list[Ranked]:
    """The ranked phrases of a text's words, each with the stems of what it ranks (none
    without an ordinal word or a word opening with a digit: most texts are skipped so)."""
    found: list[Ranked] = []
    if _ORDINAL_WORDS.isdisjoint(words) and not any(word[:1].isdigit() for word in words):
        return found
    for index in range(len(words)):
        ordinal = _ordinal(words, index)
        if ordinal is None:
            continue
        rank, after = ordinal
        ranks: list[str] = []
        for offset in range(after, min(after + RANKED_WORDS, len(words))):
            if words[offset] in _BOUNDS or _ordinal(words, offset) is not None:
                break
            ranks.append(words[offset])
        kept = frozenset(stem(word) for word in ranks) - {""}
        if kept:
            found.append(Ranked(index, after, rank, kept, " ".join(words[index:after] + ranks)))
    return found


@lru_cache(maxsize=4096)
def question_rank(question: str) -> Ranked | None:
    """The question's one ranked phrase ("her debut studio album"), or None (kept per
    question: an episode's checks share it); an ASCII question with no ordinal's letters
    and no digit ranks nothing, and is not read."""
    if question.isascii() and _MAY_RANK.search(question.lower()) is None:
        return None
    phrases = ranked(_words(question))
    return phrases[0] if len(phrases) == 1 else None


def _occurrences(words: list[str], needle: list[str]) -> Iterable[tuple[int, int]]:
    size = len(needle)
    for start in range(len(words) - size + 1):
        if words[start : start + size] == needle:
            yield start, start + size


def sentence_ranks(raw: str, answer: str, asked: Ranked) -> set[int]:
    """The ranks a sentence gives the answer as what the question ranks: per occurrence,
    the nearest ranked phrase within `NEAR` words that shares a stem with the question's."""
    words, needle = _words(raw), _words(answer)
    phrases = [phrase for phrase in ranked(words) if phrase.stems & asked.stems]
    ranks: set[int] = set()
    if not needle or not phrases:
        return ranks
    for start, end in _occurrences(words, needle):
        gaps = [
            (max(phrase.start - end, start - phrase.end), phrase.rank)
            for phrase in phrases
            if phrase.end <= start or phrase.start >= end
        ]
        near = [gap for gap in gaps if gap[0] <= NEAR]
        if near:
            ranks.add(min(near)[1])
    return ranks


def rank_problem(check: Check) -> Verdict | None:
    """A refusal when the question ranks what it asks for and the sentences stating the
    answer rank it otherwise, never as asked; None when nothing is ranked so."""
    asked = question_rank(check.question)
    if asked is None:
        return None
    given: dict[int, list[str]] = {}
    for item in check.stating_items():
        for rank in sentence_ranks(item.raw, check.answer, asked):
            given.setdefault(rank, []).append(item.id)
    if not given or asked.rank in given:
        return None
    reason = REASON_RANKED.format(
        answer=check.answer,
        cite=citation(i for ids in given.values() for i in ids),
        given=" or ".join(str(rank) for rank in sorted(given)),
        asked=asked.rank,
        phrase=asked.phrase,
    )
    return reject(reason, [check.answer.strip()])
