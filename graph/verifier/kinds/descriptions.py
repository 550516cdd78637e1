"""What an article's description says its subject is: "is a 1986 Australian action
comedy film set in ..." -> a work (film); a life-span parenthesis -> a person. The stored
name lexicon is read through these functions (see `lexicon_store`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from graph.verifier.kinds.answer_types import DETERMINERS, WORD_TOKEN, class_of
from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.categories import PERSON
from graph.verifier.text.normalise import split_words

COPULA = frozenset(split_words("is was are were"))
_PHRASE_STOPS = frozenset(
    split_words(
        "of in on at by from for with about to who whom whose which that where when what as"
        " known located founded formed released produced directed written created published"
        " owned operated named called best but than since during after before while who's"
        " between among against versus"
        " comprising consisting including featuring starring containing covering serving"
        " originally currently also"
    )
)
_QUANTIFIERS = frozenset(
    split_words("series group collection set pair number kind type sort form range chain list")
)
_BORN = re.compile(r"\(\s*(?:born|b\.)\s|\(\s*[^()]*\d{3,4}\s*[-–—]\s*[^()]*\d{3,4}\s*\)")
_BRACKETS = re.compile(r"\([^()]*\)")
_BARE_PHRASE_WORDS = 4
# How far after a comma a list of the phrase's words may reach its next noun.
_LISTED_WORDS = 6


def _folded_words(text: str) -> list[str]:
    """The text's words, casefolded. No word spans a space, and a run of letters is one
    word, so plain ASCII text is lowered at once and only runs with other characters
    are split by the pattern."""
    if not text.isascii():
        return [word.casefold() for word in WORD_TOKEN.findall(text)]
    words: list[str] = []
    for run in text.lower().split():
        if run.isalpha():
            words.append(run)
        else:
            words += WORD_TOKEN.findall(run)
    return words


def _phrase_start(words: list[str]) -> int | None:
    """Where a description's phrase starts: after its first copula followed by a
    determiner, else after its first copula, else at its start when it is short (a bare
    phrase); None for a long one with no copula."""
    first = None
    for index, word in enumerate(words):
        if word in COPULA:
            if index + 1 < len(words) and words[index + 1] in DETERMINERS:
                return index + 1
            if first is None:
                first = index + 1
    if first is None and len(words) > _BARE_PHRASE_WORDS:
        return None
    return 0 if first is None else first


def _enumerated(words: list[str], at: int) -> bool:
    """A comma at `at - 1` goes on with a list of words that modify the phrase's noun,
    which follows the list's last word within a few words: "an American stage, radio,
    film, and, principally, television actor" is an actor, not a film. A list of nouns
    ("a physicist, author and broadcaster"), "a 1975 film, directed by ..." and "a
    village, and the seat of ..." end at the comma."""
    previous = ","
    for word in words[at : at + _LISTED_WORDS]:
        if word in (",", "and", "or"):
            previous = word
            continue
        if word in _PHRASE_STOPS or word in COPULA or word in DETERMINERS:
            return False
        if not word[0].isalnum():
            return False
        if previous not in (",", "and", "or") and class_of(word):
            return True
        previous = word
    return False


@lru_cache(maxsize=TEXTS)
def described_class(description: str) -> tuple[frozenset[str], str] | None:
    """(class, noun) that a description gives its subject, or None.

    The noun is the last category word of the phrase after the copula ("is a
    1986 Australian action comedy film set in ..." -> film); a bare phrase (a
    title's parenthesis, "1962 film") is read whole. A life-span or "born"
    parenthesis marks a person when the phrase names no category.
    """
    bare = _BRACKETS.sub(" ", description) if "(" in description else description
    words = _folded_words(bare)
    start = _phrase_start(words)
    if start is None:
        return None
    found: tuple[frozenset[str], str] | None = None
    for index, word in enumerate(words[start:], start=start):
        if word in DETERMINERS and found is None:
            continue
        following = words[index + 1] if index + 1 < len(words) else ""
        if word in _QUANTIFIERS and following == "of":
            found = None
            continue
        if word in _PHRASE_STOPS or word in COPULA or not word[0].isalnum():
            if word == "," and found is not None and _enumerated(words, index + 1):
                continue
            if found is not None or word not in ("of", ","):
                break
            continue
        kinds = class_of(word)
        if kinds:
            found = (kinds, word)
    if found is None and "(" in description and _BORN.search(description):
        return (frozenset({PERSON}), "born")
    return found


def classes_of(descriptions: Sequence[str]) -> dict[str, str]:
    """Class -> the description that gives it, over all descriptions of one name."""
    found: dict[str, str] = {}
    for description in descriptions:
        described = described_class(description)
        if described is not None:
            for kind in described[0]:
                found.setdefault(kind, description)
    return found
