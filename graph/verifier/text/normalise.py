"""Fold text for matching: case, accents, abbreviations, possessives, articles,
numbers, dates and units, so that equal facts compare equal."""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import filterfalse

from graph.verifier.text.cache_sizes import TEXTS, WORDS
from graph.verifier.text.clean import clean
from graph.verifier.text.number_folds import (
    MONTH_NAMES,
    MONTHS,
    SCALES,
    currency_words,
    fold_numbers,
    scaled,
)
from graph.verifier.text.shortened import AREA_UNITS, WRITTEN_WORDS, written_whole

# A date glued to the next one where a dash was lost ("195418 March 2008", "1971September").
_GLUED_DATE = re.compile(
    r"(?<=\b\d{4})(?=(?:\d{1,2} )?(?:january|february|march|april|may|june|july|august"
    r"|september|october|november|december)\b)",
    re.IGNORECASE,
)
_GLUED_YEAR = re.compile(r"[0-9]{4}(?:[A-Z]|[0-9]{1,2} [A-Z])")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_ABBREVIATION = re.compile(r"\b(?:[^\W\d_]\.){2,}")
# What an ISO date and an abbreviation hold, sought from a literal (a faster scan).
_ISO_HINT = re.compile(r"-\d{2}-")
_ABBREVIATION_HINT = re.compile(r"\.[^\W\d_]\.")
# An apostrophe after a word character, sought from the apostrophe (a faster scan).
_APOSTROPHE = re.compile(r"['’](?<=\w['’])(?:s\b|(?=\w))")
_COMBINING = re.compile(r"[\u0300-\u036f]")
_DIGIT = re.compile(r"\d")
# Digits grouped by spaces ("481 420", "1 000 000", with the no-break or thin space that
# `clean` makes a space): one number, as "481,420" is.
_SPACED_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?:\.\d+)?(?!\d|,\d)")
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
# A text of plain letters and spaces, whose words are its tokens.
_LETTERS = re.compile(r"[A-Za-z ]+")
# The same tokens in a text folded to ASCII, found faster.
_ASCII_TOKEN = re.compile(r"[a-z]+|\d+(?:[.,]\d+)*")
# ASCII bytes with each upper-case letter as "A" and each digit as "0", for gates on
# ASCII text; and with every byte but a lower-case letter as a space, to split the
# tokens of folded ASCII text without digits.
_KINDS = bytes.maketrans((string.ascii_uppercase + string.digits).encode(), b"A" * 26 + b"0" * 10)
_LOWER_LETTERS = bytes(byte if chr(byte) in string.ascii_lowercase else 32 for byte in range(256))
_TENS_UNITS = re.compile(
    r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]+"
    r"(one|two|three|four|five|six|seven|eight|nine)\b"
)


def split_words(text: str) -> list[str]:
    """The space-separated words of a word-list literal."""
    return text.split()


def alternation(words: list[str]) -> str:
    """A regex alternation of plain words, as a trie ("t(?:en|wo)" for "ten|two"): the
    same words, but a search tries one branch per letter instead of every word."""
    branches: dict[str, list[str]] = {}
    for word in words:
        branches.setdefault(word[0], []).append(word[1:])
    parts = []
    for head, rests in sorted(branches.items()):
        longer = [rest for rest in rests if rest]
        if not longer:
            parts.append(head)
            continue
        optional = "?" if len(longer) < len(rests) else ""
        parts.append(f"{head}(?:{alternation(longer)}){optional}")
    return "|".join(parts)


_ARTICLES = frozenset(split_words("a an the"))
# The eras a year may be written with that do not change it.
_ERAS = frozenset(split_words("ad ce"))
# Words that `_as_figures` reads: a half, a per cent, an era.
_SPOKEN = frozenset(("half", "cent", *_ERAS, *SCALES))
# Numbers said in words as a count ("five", "twenty"), not as an ordinal or "twice".
_CARDINALS = {
    **{
        word: str(value)
        for value, word in enumerate(
            split_words(
                "zero one two three four five six seven eight nine ten eleven twelve thirteen"
                " fourteen fifteen sixteen seventeen eighteen nineteen twenty"
            )
        )
    },
    **{
        word: str(10 * tens)
        for tens, word in enumerate(
            split_words("thirty forty fifty sixty seventy eighty ninety"), start=3
        )
    },
}
CARDINAL_WORDS = tuple(_CARDINALS)
_NUMBER_WORDS = {
    **_CARDINALS,
    **{
        word: str(value)
        for value, word in enumerate(
            split_words(
                "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth"
                " fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
            ),
            start=3,
        )
    },
    "once": "1",
    "twice": "2",
    "dozen": "12",
    "thrice": "3",
}
_UNITS = {
    "kilometres": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometer": "km",
    "metres": "m",
    "meters": "m",
    "metre": "m",
    "meter": "m",
    "miles": "mi",
    "mile": "mi",
    "feet": "ft",
    "foot": "ft",
    "inches": "inch",
    "kilograms": "kg",
    "kilogram": "kg",
    "pct": "percent",
    "centimetres": "cm",
    "centimeters": "cm",
    "hectares": "ha",
    "acres": "acre",
}
# An era written two ways ("500 BCE" is "500 BC").
_ERA_FOLDS = {"bce": "bc"}
_WORD_FOLDS = {**_NUMBER_WORDS, **_UNITS, **_ERA_FOLDS}
_NUMBER_WORD = re.compile(rf"\b(?:{alternation(list(_NUMBER_WORDS))})\b", re.IGNORECASE)
# Folded spellings of units and months, which a sentence may write otherwise.
REWRITTEN = frozenset(
    [*_UNITS.values(), "percent", *AREA_UNITS, *WRITTEN_WORDS, *MONTH_NAMES.values()]
)
# Folded units: a number followed by one is a measure ("1454 ft"), never a year.
UNITS = frozenset([*_UNITS.values(), "percent", *AREA_UNITS])
_TENS = frozenset(split_words("twenty thirty forty fifty sixty seventy eighty ninety"))
# The words that `analyse` drops or folds, or that may start a compound number.
_FOLDED = frozenset([*_ARTICLES, *_WORD_FOLDS, *_TENS])


@dataclass(frozen=True, slots=True)
class Text:
    """A text folded for matching: its tokens, and them joined with a space at each end."""

    tokens: tuple[str, ...]
    padded: str

    @classmethod
    def of(cls, tokens: tuple[str, ...]) -> Text:
        """The text of these folded tokens."""
        return cls(tokens, f" {' '.join(tokens)} ")


def may_hold_number(text: str) -> bool:
    """Whether `analyse` may give the text a number: it has a digit or a number word (the
    digit is looked for first, on its own: a scan for it is fast, and most have one)."""
    return _DIGIT.search(text) is not None or _NUMBER_WORD.search(text) is not None


def is_number(token: str) -> bool:
    return token[:1].isdecimal()


@lru_cache(maxsize=WORDS)
def singular(token: str) -> str:
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 4 and token.endswith(("sses", "xes", "ches", "shes", "zzes")):
        return token[:-2]
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


def unglue_dates(text: str) -> str:
    """Put back the dash between two dates written without one ("1971September 13, 1996")."""
    return _GLUED_DATE.sub(" – ", text) if _GLUED_YEAR.search(text) else text


def _tens_units(match: re.Match[str]) -> str:
    return str(int(_NUMBER_WORDS[match.group(1)]) + int(_NUMBER_WORDS[match.group(2)]))


def _iso_date(match: re.Match[str]) -> str:
    month = int(match.group(2))
    if not 1 <= month <= 12:
        return match.group(0)
    return f"{MONTHS[month - 1]} {int(match.group(3))} {match.group(1)}"


def _joined_groups(match: re.Match[str]) -> str:
    return match.group(0).replace(" ", "")


def _unabbreviate(match: re.Match[str]) -> str:
    return match.group(0).replace(".", "")


def _text(words: list[str]) -> Text:
    """The text of the words without articles, number words and unit names folded
    (mapped in C: a comprehension over every token of every new sentence cost more)."""
    kept = tuple(filterfalse(_ARTICLES.__contains__, words))
    if not _WORD_FOLDS.keys().isdisjoint(kept):
        kept = tuple(map(_WORD_FOLDS.get, kept, kept))
    if not _SPOKEN.isdisjoint(kept):
        kept = _as_figures(kept)
    return Text.of(kept)


def _as_figures(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """Folded tokens with what figures write otherwise said as figures write it: "3 and
    half" (an article already dropped) as 3.5, a number said in words with its scale
    ("five million", "one and a half million") as its figures, "per cent" as "percent",
    and the era of a year dropped ("476 AD", "AD 476", "476 CE" are 476; "BC" is kept: it
    changes the year)."""
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        after = tokens[index + 1 : index + 3]
        if is_number(token) and after == ("and", "half") and token.replace(".", "", 1).isdigit():
            out.append(f"{float(token) + 0.5:g}")
            index += 3
            continue
        if token in SCALES and out and out[-1].replace(".", "", 1).isdecimal():
            out[-1] = scaled(out[-1], SCALES[token])
            index += 1 + currency_words(tokens, index + 1)
            continue
        if token == "per" and after[:1] == ("cent",):
            out.append("percent")
            index += 2
            continue
        if token in _ERAS and ((out and is_number(out[-1])) or (after[:1] and is_number(after[0]))):
            index += 1
            continue
        out.append(token)
        index += 1
    return tuple(out)


@lru_cache(maxsize=TEXTS)
def analyse(text: str) -> Text:
    """Fold `text` for matching (cached: stored sentences recur across checks)."""
    if _LETTERS.fullmatch(text):
        words = text.lower().split()
        if _FOLDED.isdisjoint(words):  # a name: its words are its tokens
            return Text.of(tuple(words))
        if _TENS.isdisjoint(words):
            return _text(words)
    if text.isascii():  # clean leaves it, lower() is its casefold, its kinds show digits
        kinds = text.encode().translate(_KINDS)
        digits = b"0" in kinds
        if not digits or (b"0000A" not in kinds and b"00000 A" not in kinds):  # no `_GLUED_YEAR`
            return _folded(text.lower(), digits)
    folded = unglue_dates(clean(text)).casefold()
    if not folded.isascii():
        folded = _COMBINING.sub("", unicodedata.normalize("NFKD", folded))
    return _folded(folded, _DIGIT.search(folded) is not None)


def _folded(folded: str, digits: bool) -> Text:
    """`analyse` of a cleaned text, cased and accents folded, that holds a digit or not
    (no step below adds or drops one)."""
    ascii_tokens = folded.isascii()
    tokens = _ASCII_TOKEN if ascii_tokens else _TOKEN
    if digits and "-" in folded and _ISO_HINT.search(folded):
        folded = _ISO_DATE.sub(_iso_date, folded)
    if digits:
        folded = written_whole(folded)
        if " " in folded:
            folded = _SPACED_GROUPS.sub(_joined_groups, folded)
    if folded.count(".") > 1 and _ABBREVIATION_HINT.search(folded):
        folded = _ABBREVIATION.sub(_unabbreviate, folded)
    if "'" in folded or "’" in folded:
        folded = _APOSTROPHE.sub("", folded)
    if "%" in folded:
        folded = folded.replace("%", " percent ")
    if ascii_tokens and not digits:  # its tokens are its runs of letters
        raw = folded.encode().translate(_LOWER_LETTERS).decode().split()
    else:
        raw = tokens.findall(folded)
    if not _TENS.isdisjoint(raw):
        raw = tokens.findall(_TENS_UNITS.sub(_tens_units, folded))
    if digits:
        raw = fold_numbers(raw)
    return _text(raw)


@lru_cache(maxsize=TEXTS)
def singular_form(padded: str) -> str:
    """A padded folded text with each word in the singular."""
    return f" {' '.join(map(singular, padded.split()))} "


@lru_cache(maxsize=TEXTS)
def plain(text: str) -> str:
    """`fold_plain`, kept per text."""
    return fold_plain(text)


def fold_each(texts: Sequence[str]) -> list[str]:
    """`fold_plain` of each text. The ASCII texts (without a newline) are folded at once,
    joined by newlines, then split apart: `fold_plain` works character by character, and
    one pass over many ASCII texts costs far less than a call for each; the others are
    folded one by one (kept by `plain`)."""
    joinable = [text for text in texts if text.isascii() and "\n" not in text]
    folded = iter(fold_plain("\n".join(joinable)).split("\n") if joinable else ())
    return [next(folded) if text.isascii() and "\n" not in text else plain(text) for text in texts]


def fold_plain(text: str) -> str:
    """Case, accents, apostrophes and full stops folded away, as `analyse` folds them
    (character by character: the fold of texts joined is the fold of each joined)."""
    folded = text.casefold()
    if not folded.isascii():
        folded = _COMBINING.sub("", unicodedata.normalize("NFKD", folded))
    return folded.replace("'", "").replace("’", "").replace(".", "")
