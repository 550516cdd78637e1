"""Spans of one kind in a stored sentence: the answers a reader of that sentence
could give to the question (years, numbers, capitalised names).

Spans are token ranges of the sentence's folded text (`analyse`), so that they
can be compared with the answer and measured against the question's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.categories import DEMONYMS
from graph.verifier.text.normalise import MONTH_NAMES, UNITS, Text, analyse, is_number, split_words

YEAR = "year"
NUMBER = "number"
NAME = "name"

Span = tuple[int, int]

# A capital not inside a word (the look-behind follows it, so the scan can skip to capitals).
_NAME_RUN = re.compile(
    r"[A-Z](?<![\w'’][A-Z])[\w'’.&-]*(?:\s+(?:(?:of|the|de|del|da|di|du|von|van|der|la|le|and|&|for)"
    r"\s+)*[A-Z0-9][\w'’.&-]*)*"
)
_SEPARATED = re.compile(r"(?<![\d,.])\d,\d{3}(?![\d,]|\.\d)")
_FUNCTION_WORDS = frozenset(
    split_words(
        "the a an he she it they his her its their this that these those in on at by for from"
        " after before during when while as since although however also there here we i you"
        " one two both some many most"
    )
)


_MONTHS = frozenset(MONTH_NAMES.values())
# Characters a sentence's names may be searched over, one search per name (fast string
# searches), before they are found in one pass per name length instead: a long sentence
# of many names would otherwise be searched once per name.
_SCAN_BUDGET = 200_000
# Eras written after or before a year: capitals that make no name of it ("476 AD").
_ERAS = frozenset(("AD", "A.D", "CE", "C.E", "BC", "B.C", "BCE", "B.C.E"))


def is_year(token: str) -> bool:
    return len(token) == 4 and token.isdecimal() and 1000 <= int(token) <= 2099


@lru_cache(maxsize=TEXTS)
def separated(raw: str) -> frozenset[str]:
    """The numbers a text writes with a thousands separator ("2,045"), as folded: never
    years, though folded they look like one."""
    if "," not in raw:
        return frozenset()
    return frozenset(match.replace(",", "") for match in _SEPARATED.findall(raw))


def answer_kind(answer: Text, raw: str) -> str | None:
    """The kind of span an answer is: a year (or a date), a number, a name, or None."""
    tokens = answer.tokens
    capitalised = [
        word for word in raw.split() if word[:1].isupper() and word.strip(".,") not in _ERAS
    ]
    written = separated(raw)
    measure = bool(tokens) and is_number(tokens[0]) and not UNITS.isdisjoint(tokens)
    if (
        not measure
        and any(is_year(t) and t not in written for t in tokens)
        and all(
            analyse(word).tokens[:1] and analyse(word).tokens[0] in MONTH_NAMES.values()
            for word in capitalised
        )
    ):
        return YEAR
    words = [token for token in tokens if not is_number(token)]
    if tokens and is_number(tokens[0]) and not capitalised and len(words) <= 1:
        return NUMBER
    if capitalised:
        return NAME
    return None


def find_all(tokens: tuple[str, ...], needle: tuple[str, ...]) -> list[Span]:
    """Every occurrence of `needle` in `tokens`, as token ranges."""
    if not needle or needle[0] not in tokens:
        return []
    return find_in(Text.of(tokens), needle)


def find_dated(hay: Text, needle: tuple[str, ...]) -> list[Span]:
    """Every occurrence of a month and year (`needle`: folded "july 1970") inside a whole
    date the text states ("30 July 1970", folded "july 30 1970"): the date's tokens."""
    if len(needle) != 2 or needle[0] not in _MONTHS or not needle[1].isdecimal():
        return []
    month, year = needle
    dated = re.compile(rf" {month} (?:[1-9]|[12][0-9]|3[01]) {year}(?= )")
    padded = hay.padded
    starts = [padded.count(" ", 0, match.start()) for match in dated.finditer(padded)]
    return [(start, start + 3) for start in starts]


def find_in(hay: Text, needle: tuple[str, ...]) -> list[Span]:
    """Every occurrence of `needle` in a folded text, as token ranges (a string search:
    tokens hold no spaces, so the spaces before a match count the tokens before it)."""
    if not needle:
        return []
    target = f" {' '.join(needle)} "
    padded = hay.padded
    spans: list[Span] = []
    counted_to = start = 0
    at = padded.find(target)
    while at >= 0:
        start += padded.count(" ", counted_to, at)
        counted_to = at
        spans.append((start, start + len(needle)))
        at = padded.find(target, at + 1)
    return spans


def _name_texts(raw: str) -> list[Text]:
    """Capitalised runs; a lone capitalised word opening the sentence is only capitalised
    because it opens it."""
    found: list[Text] = []
    opening = len(raw) - len(raw.lstrip(" \"'“(["))
    for match in _NAME_RUN.finditer(raw):
        words = match.group(0).split()
        while words and words[0].casefold().strip(".,") in _FUNCTION_WORDS:
            words = words[1:]
        if not words or (len(words) == 1 and match.start() == opening):
            continue
        text = analyse(" ".join(words))
        if not text.tokens or all(
            token in DEMONYMS or token in MONTH_NAMES or is_number(token) for token in text.tokens
        ):
            continue
        found.append(text)
    return found


@lru_cache(maxsize=TEXTS)
def spans_in(raw: str, kind: str) -> tuple[tuple[Span, tuple[str, ...]], ...]:
    """The spans of `kind` in a sentence: (token range, tokens), in order, each once."""
    text = analyse(raw)
    tokens = text.tokens
    written = separated(raw)
    found: dict[Span, tuple[str, ...]] = {}
    if kind == YEAR:
        for i, token in enumerate(tokens):
            if is_year(token) and token not in written:
                start = i - 1 if i >= 1 and tokens[i - 1] in _MONTHS else i
                if i >= 2 and tokens[i - 2] in _MONTHS and tokens[i - 1].isdecimal():
                    start = i - 2
                found[(start, i + 1)] = tokens[start : i + 1]
    elif kind == NUMBER:
        found = {
            (i, i + 1): (t,)
            for i, t in enumerate(tokens)
            if is_number(t) and (not is_year(t) or t in written)
        }
    elif kind == NAME:
        names = dict.fromkeys(name.tokens for name in _name_texts(raw))
        if len(names) * len(text.padded) <= _SCAN_BUDGET:
            for name in names:
                for span in find_in(text, name):
                    found.setdefault(span, name)
        else:
            found = _found_by_size(tokens, names)
    return tuple(sorted(found.items()))


def _found_by_size(
    tokens: tuple[str, ...], names: Iterable[tuple[str, ...]]
) -> dict[Span, tuple[str, ...]]:
    """Every occurrence of each name, as `find_in` finds them, looked up by length: one
    pass over the sentence per length, however many names it holds."""
    by_size: dict[int, set[tuple[str, ...]]] = {}
    for name in names:
        by_size.setdefault(len(name), set()).add(name)
    firsts = {name[0] for group in by_size.values() for name in group}
    found: dict[Span, tuple[str, ...]] = {}
    for size, group in by_size.items():
        for i in range(len(tokens) - size + 1):
            if tokens[i] in firsts and tokens[i : i + size] in group:
                found[(i, i + size)] = tokens[i : i + size]
    return found
