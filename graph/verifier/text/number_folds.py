"""Fold the tokens around each number in a text: thousands separators, ordinals,
scales, months, a date's weekday and currency words ("7,000", "5th of may", "3.5
million", "5 million dollars", which reads as "$5 million" does: a currency sign is no
token)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
MONTH_NAMES = {
    **{month: month for month in MONTHS},
    **{month[:3]: month for month in MONTHS},
    "sept": "september",
}
_ORDINAL_SUFFIXES = frozenset(["st", "nd", "rd", "th"])
# Longer runs of digits are kept as written: no quantity has so many, and Python refuses
# to convert a run of more than 4,300 digits to a number.
_LONGEST_NUMBER = 64
# Currency words after an amount ("5 million US dollars") or a code before it ("USD 5"),
# dropped as a currency sign is.
_CURRENCY_AFTER = frozenset(("dollars", "dollar", "usd", "euros", "euro", "eur"))
_CURRENCY_BEFORE = frozenset(("usd", "eur"))
# A weekday before a date ("Friday, May 4, 1962"; "Good Friday" is no date).
_WEEKDAYS = frozenset(
    ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
)
# The words `fold_numbers` reads before and after a number, looked up first (most numbers
# have none).
_BEFORE_A_NUMBER = frozenset((*MONTH_NAMES, *_WEEKDAYS, *_CURRENCY_BEFORE))
_CURRENCY_OPENING = _CURRENCY_AFTER | {"us"}
SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12, "bn": 10**9}


def _number(token: str) -> list[str]:
    """Canonical digits of a numeric token (`7,000` -> `7000`, `3.50` -> `3.5`, `07` -> `7`).

    Commas that are not thousands separators split the token (`1,2,3`).
    """
    if "," in token:
        if not _THOUSANDS.fullmatch(token):
            return [number for part in token.split(",") if part for number in _number(part)]
        token = token.replace(",", "")
    if len(token) > _LONGEST_NUMBER:
        return [token]
    if token.isdecimal():
        return [str(int(token))]
    try:
        return [format(Decimal(token).normalize(), "f")]
    except InvalidOperation:
        return [token]


def scaled(number: str, scale: int) -> str:
    try:
        return format((Decimal(number) * scale).normalize(), "f")
    except InvalidOperation:
        return number


def currency_words(tokens: Sequence[str], at: int) -> int:
    """How many tokens from `at` name a currency after an amount: "dollars", "US dollars"."""
    if at < len(tokens) and tokens[at] in _CURRENCY_AFTER:
        return 1
    if tuple(tokens[at : at + 2]) == ("us", "dollars"):
        return 2
    return 0


def _fold_before(out: list[str], number: str) -> None:
    """Fold the word before a number: drop a currency code ("usd 5") and a date's weekday
    ("friday may 4", "friday 4 may"; not "good friday 1962"), and name a month in full."""
    last = out[-1]
    if last in _CURRENCY_BEFORE or (last in _WEEKDAYS and number.isdecimal() and len(number) <= 2):
        out.pop()
    elif last in MONTH_NAMES:
        out[-1] = MONTH_NAMES[last]
        if len(out) >= 2 and out[-2] in _WEEKDAYS:
            del out[-2]


def fold_numbers(raw: list[str]) -> list[str]:
    """Fold the tokens around each number: ordinals, scales, months and day-month order."""
    out: list[str] = []
    size = len(raw)
    start = 0
    for index in [i for i, token in enumerate(raw) if token[0].isdecimal()]:
        if index < start:
            continue
        out.extend(raw[start:index])
        if out and out[-1] in _BEFORE_A_NUMBER:
            _fold_before(out, raw[index])
        numbers = _number(raw[index])
        after = index + 1
        if after < size and raw[after] in _ORDINAL_SUFFIXES:
            after += 1
        following = raw[after] if after < size else ""
        if following in SCALES and len(numbers) == 1:
            numbers = [scaled(numbers[0], SCALES[following])]
            after += 1
        else:
            month_at = after + 1 if following == "of" else after
            month = MONTH_NAMES.get(raw[month_at]) if month_at < size else None
            if (
                month
                and len(numbers) == 1
                and numbers[0].isdecimal()
                and len(numbers[0]) <= 2
                and 1 <= int(numbers[0]) <= 31
            ):
                numbers = [month, numbers[0]]
                after = month_at + 1
        if after < size and raw[after] in _CURRENCY_OPENING:
            after += currency_words(raw, after)
        out.extend(numbers)
        start = after
    out.extend(raw[start:])
    return out
