"""The class of thing a question asks for, and the class of thing an answer names.

A question's class comes from its wh-word ("who", "where") or the category noun
after "which"/"what" ("which label" -> an organisation). An answer's class
comes from a description of it: the first sentence of its own article says
what it is ("... is an American actor"), as does a title's parenthesis
(`Lolita (1962 film)`). Descriptions come from the stored evidence and, when
the caller injects one, a `Describe` lookup (the offline snapshot's leads, or
one request per name on a live wiki). A description only ever rejects an
answer of the wrong class or confirms the class; it never states the answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from graph.verifier.text.cache_sizes import WORDS
from graph.verifier.text.categories import (
    CLASS_OF,
    DEMONYMS,
    NATIONALITY,
    PERSON,
    PLACE,
    WHERE_CLASSES,
    WHO_CLASSES,
)
from graph.verifier.text.normalise import singular, split_words


class NameLexicon(Protocol):
    """What names are: the injected type lexicon (the offline snapshot's leads, or one
    request per name on a live wiki)."""

    def describe(self, name: str) -> Sequence[str]:
        """The descriptions of the articles titled `name` (first sentences, title
        parentheses); empty when unknown."""
        ...

    def guess(self, name: str) -> str | None:
        """A weaker description of a name `describe` does not know ("X is a person", from a
        given name), or None."""
        ...

    def __hash__(self) -> int:
        """Lexicons are hashable (the verifier caches what they say per name)."""
        ...


WORD_TOKEN = re.compile(r"[^\W\d_][\w'’-]*|\d+|[,;:()\"“”?]")
DETERMINERS = frozenset(split_words("a an the one of any"))
_QUESTION_STOPS = frozenset(
    split_words(
        "is are was were do does did has have had can could will would should of in on at by from"
        " for with to that which who whom whose where when why how as and or the be been being"
    )
)
_SKIP_AFTER_WH = frozenset(split_words("type kind sort form genre"))
_NAME_JOINERS = frozenset(split_words("of the and de von van for"))
# "The middle name of X" asks for a part of X's name, not for X.
_NAME_PARTS = frozenset(split_words("first middle last given family maiden"))
_PHRASE_WORDS = 6
# "who" asking, not relating: opening a clause, after a preposition, or closing the question.
_WH_WORDS = frozenset(split_words("which what when where how why"))
_RELATING = frozenset(split_words("who whom whose where when"))
_ASKING_WORDS = _WH_WORDS | _RELATING  # no other word asks
# A "who" asks at the start, after a preposition, or at the end ("created by who?").
_ASKING_BEFORE = frozenset(split_words("by with to for from of than about in on at"))
# "the country which adopted ...": after an article and its noun, "which" relates.
_ARTICLES = frozenset(split_words("the a an this that these those"))
# A nationality asked. A part of each of its words ("nat", "zen", "ethn", "country of")
# is looked for first in the question lowered: letters other than "i", "k" and "s" fold
# only to ASCII under IGNORECASE, so a match always holds one.
_NATIONALITY = re.compile(
    r"\b(?:nationality|citizenship|ethnicity|(?:country of|national) origin)\b", re.IGNORECASE
)
# "where" asks only for a place when it asks where something is sited ("Where is the
# company based?", "... and is based where?", "Where are the headquarters of ...?"), not
# "Where did she study?" (a university).
_WHERE_SITED = re.compile(
    r"\b(?:based|located|headquartered|situated)(?:\s+(?:in|at))?(?:\s+where)?\W*$"
    r"|\bwhere\s+(?:is|are|was|were)\s+(?:the\s+|its\s+|their\s+)?headquarters\b",
    re.IGNORECASE,
)
_SHORTEST_COMPOUND = 6
_SHORTEST_PART = 4


@lru_cache(maxsize=WORDS)
def class_of(word: str) -> frozenset[str]:
    """The classes a category noun names (a compound by its last part: "headcoach")."""
    found = CLASS_OF.get(word) or CLASS_OF.get(singular(word))
    if found is None and len(word) > _SHORTEST_COMPOUND:
        for start in range(2, len(word) - _SHORTEST_PART + 1):
            found = CLASS_OF.get(singular(word[start:]))
            if found is not None:
                break
    return found or frozenset()


@dataclass(frozen=True, slots=True)
class Expected:
    """What a question asks for: acceptable classes (empty: any), the noun that said so,
    and whether that noun is part of a name ("which World Cup")."""

    classes: frozenset[str] = frozenset()
    noun: str = ""
    proper: bool = False


NOTHING_EXPECTED = Expected()


def _capitalised(word: str) -> bool:
    return word[:1].isupper()


def _name_end(raw: list[str], start: int) -> int:
    """The end of the capitalised name opening at `start`: its capitalised words, numbers,
    and the small words between two of them ("World Series of Poker Ladies' Event")."""
    end = start
    while end < len(raw) and (
        _capitalised(raw[end])
        or raw[end].isdigit()
        or (raw[end] in _NAME_JOINERS and end + 1 < len(raw) and _capitalised(raw[end + 1]))
    ):
        end += 1
    return end


def _head_after(words: list[str], raw: list[str], start: int) -> tuple[str, frozenset[str], bool]:
    """The category nouns after a wh-word, up to the end of its phrase: the last one, the
    classes of them all ("band artist": an organisation or a person), and whether it is
    part of a name ("which World Cup"). A year inside the phrase is passed over ("what
    2001 novel"); a capitalised name counts as one word, and its nouns only when no
    common noun follows ("which Soviet Union dictator" asks for a dictator)."""
    head, kinds = "", frozenset[str]()
    named_head, named_kinds = "", frozenset[str]()
    while start < len(words) and words[start] in DETERMINERS:
        start += 1
    index, seen = start, 0
    while index < len(words) and seen < _PHRASE_WORDS:
        word = words[index]
        seen += 1
        if _capitalised(raw[index]):
            end = _name_end(raw, index)
            for inner in words[index:end]:
                found = class_of(inner)
                if found:
                    named_head, named_kinds = inner, named_kinds | found
            index = end
            continue
        index += 1
        if word in _SKIP_AFTER_WH or word == "of" or word.isdigit():
            if word == "of" and (head or named_head):
                break
            continue
        if word in _QUESTION_STOPS or word in DETERMINERS or not word[0].isalpha():
            break
        found = class_of(word)
        if found:
            head, kinds = word, kinds | found
    if head:
        return head, kinds, False
    return named_head, named_kinds, bool(named_head)


def _asking(words: list[str], index: int) -> bool:
    """Whether the wh-word at `index` asks: "which"/"what" unless after a comma or after an
    article and its noun ("the country which adopted ..."); "who",
    "where" and "when" at the start, after a preposition or at the end (not "the city
    where she was born")."""
    word = words[index]
    before = words[index - 1] if index else ""
    if word in ("which", "what"):
        relative = index >= 2 and before.isalpha() and words[index - 2] in _ARTICLES
        return before != "," and not (relative and before not in _ASKING_BEFORE)
    if word not in _RELATING:
        return word in _WH_WORDS
    after = words[index + 1 : index + 3]
    return not before or before in _ASKING_BEFORE or not any(w[0].isalnum() for w in after)


@lru_cache(maxsize=4096)
def expected_class(question: str) -> Expected:
    """The classes of answer the question's first asking wh-word accepts (nothing when it
    does not say: when, how, or a which/what without a category noun)."""
    raw = WORD_TOKEN.findall(question)
    words = list(map(str.casefold, raw))
    lowered = question.lower()
    if (
        "nat" in lowered or "zen" in lowered or "ethn" in lowered or "country of" in lowered
    ) and _NATIONALITY.search(question):
        return Expected(frozenset({NATIONALITY, PLACE}), "nationality")
    for index, word in enumerate(words):
        named = word == "name" and words[index + 1 : index + 2] == ["of"]
        if named and words[index - 1 : index] and words[index - 1] in _NAME_PARTS:
            return NOTHING_EXPECTED  # "the middle name of the actor": a part of a name
        if named or (word == "name" and index == 0):  # "Name the country which ..."
            head, kinds, _ = _head_after(words, raw, index + (2 if named else 1))
            if kinds:
                return Expected(kinds, head)
        if word not in _ASKING_WORDS or not _asking(words, index):
            continue
        if word in ("which", "what"):
            head, kinds, proper = _head_after(words, raw, index + 1)
            if kinds:
                return Expected(kinds, head, proper)
            following = words[index + 1 : index + 3]
            if len(following) == 2 and following[0] in DEMONYMS and following[1] in _QUESTION_STOPS:
                return Expected(frozenset({PERSON}), following[0])
            continue
        if word == "whose":
            return Expected(WHO_CLASSES | {PLACE}, "who")
        if word in ("who", "whom"):
            return Expected(WHO_CLASSES, "who")
        if word == "where":
            if _WHERE_SITED.search(question):
                return Expected(frozenset({PLACE}), "where")
            return Expected(WHERE_CLASSES, "where")
        return NOTHING_EXPECTED
    return NOTHING_EXPECTED
