"""Fold the tokens around each number in a text: thousands separators, ordinals,
scales and months ("7,000", "5th of may", "3.5 million")."""

from __future__ import annotations

import re
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


def fold_numbers(raw: list[str]) -> list[str]:
    """Fold the tokens around each number: ordinals, scales, months and day-month order."""
    out: list[str] = []
    size = len(raw)
    start = 0
    for index in [i for i, token in enumerate(raw) if token[0].isdecimal()]:
        if index < start:
            continue
        out.extend(raw[start:index])
        if out and out[-1] in MONTH_NAMES:
            out[-1] = MONTH_NAMES[out[-1]]
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
        out.extend(numbers)
        start = after
    out.extend(raw[start:])
    return out
