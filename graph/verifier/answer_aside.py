"""An aside in parentheses after an answer that only says the answer again: another
writing of it ("World War II (WWII)", "WWII (World War II)"), its initials ("Federal
Bureau of Investigation (FBI)"), the same measure in another unit ("300 m (984 ft)"),
or, when the question asks no date, the years of what it names ("World War II
(1939–1945)").

A model often adds such an aside; checked as a part of the answer, it was a part no
sentence states, and a right answer was turned away. The answer is checked without it.
An aside that says anything else ("Besançon (France)", "Lolita (1962 film)") stays, and
is checked as before.
"""

from __future__ import annotations

import re
from functools import cache

from graph.verifier.answer_asked import PREPOSITION
from graph.verifier.rules.converted import same_measure
from graph.verifier.text.normalise import analyse
from graph.verifier.text.variants import variants
from graph.verifier.text.wordstems import STOPWORDS

_ASIDE = re.compile(r"^(?P<name>[^()]*\S)\s*\((?P<aside>[^()]{1,80})\)\.?$")
# Years, or a span of them, with what may introduce them ("born 1961", "c. 1500").
_YEARS = re.compile(
    r"^(?:(?:c|ca|b|d|r)\.\s*|born\s+|died\s+|circa\s+)?\d{3,4}"
    r"(?:\s*(?:[–—-]|to)\s*(?:\d{2,4}|present))?$",
    re.IGNORECASE,
)


_LETTERS = re.compile(r"[A-Z][A-Z0-9]?(?:\.?[A-Z0-9]){1,9}\.?")
_WORD = re.compile(r"[^\W_]+")
# The longest answer read for an aside: a name and a few words (longer is no such reply).
_LONGEST_ANSWER = 200
# The most words a name its initials spell has (the matching recurses once a word).
_MOST_WORDS = 30
# Words initials may leave out: small words, and a name's particles ("Giorgio de Chirico").
_SMALL = STOPWORDS | frozenset(
    ("de", "da", "di", "du", "del", "della", "von", "van", "der", "la", "le")
)


def _is_initials(aside: str, name: str) -> bool:
    """The aside is initials of the name: a letter for each of its words but small ones
    ("of", "the", "de"), which may have one too, in order ("One Ring Roleplaying Game"
    as ORRG, "Giorgio de Chirico" as GC or GDC)."""
    if _LETTERS.fullmatch(aside) is None:
        return False
    letters = aside.replace(".", "")
    words = _WORD.findall(name)
    if not 2 <= len(words) <= _MOST_WORDS:
        return False

    @cache
    def matches(letter: int, word: int) -> bool:
        if word == len(words):
            return letter == len(letters)
        initial = words[word][0].upper()
        if letter < len(letters) and letters[letter] == initial and matches(letter + 1, word + 1):
            return True
        return words[word].casefold() in _SMALL and matches(letter, word + 1)

    return matches(0, 0)


def _says_again(name: str, aside: str) -> bool:
    """The aside is the name (less a preposition before it: "during WWII (Second World
    War)") in another writing, its initials, or its measure converted."""
    name = PREPOSITION.sub("", name, count=1)
    named, said = analyse(name), analyse(aside)
    if not named.tokens or not said.tokens:
        return False
    if named.tokens == said.tokens or _is_initials(aside, name) or _is_initials(name, aside):
        return True
    if any(analyse(other).tokens == said.tokens for other in variants(name)):
        return True
    if any(analyse(other).tokens == named.tokens for other in variants(aside)):
        return True
    return same_measure(named, said)


def without_aside(answer: str, asks_date: bool) -> str:
    """The answer without an aside in parentheses that only says it again (or gives the
    years of what it names, when no date is asked)."""
    match = _ASIDE.match(answer) if len(answer) <= _LONGEST_ANSWER else None
    if match is None:
        return answer
    name, aside = match["name"], match["aside"].strip()
    if _says_again(name, aside) or (not asks_date and _YEARS.match(aside)):
        return name
    return answer
