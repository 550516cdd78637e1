"""Figures a text writes shortened, written whole before `analyse` reads its tokens: a
year range's end ("1998–99"), an amount's scale after a currency sign ("$5M"), "No."
before a number, minutes and hours after one ("142 min"), a height in feet and inches
with their marks ("6'1\"" is "6 ft 1 in"), and an area's unit in one word ("1,234 km2",
"square kilometres" and "sq km" are all "sqkm")."""

from __future__ import annotations

import re

# A range of years whose end gives its last two digits ("1998–99", "1999-00", "1914/18").
_SHORT_RANGE = re.compile(r"\b(1[0-9]|20)([0-9]{2})(\s?[-–—/]\s?)([0-9]{2})\b(?![.,:]?[0-9])")
# The most years such a range spans.
_SHORT_RANGE_SPAN = 20
# An amount of money with its scale abbreviated ("$5M", "£2.5bn", "US$40k"): after a
# currency sign, "m" is no metre.
_MONEY_SCALE = re.compile(r"([$£€])\s?(\d[\d,]*(?:\.\d+)?)\s?(mil|mn|mln|m|bn|b|k)\b")
# "US$5": a dollar as a sentence on an American subject writes it, "$5".
_US_DOLLAR = re.compile(r"\bus\$(?=\s?\d)")
_SCALE_WORDS = {
    "mil": "million",
    "mn": "million",
    "mln": "million",
    "m": "million",
    "bn": "billion",
    "b": "billion",
}
# "No. 1" is "number 1", and "142 min" and "2 hrs" are minutes and hours: after a number
# only ("No" is a reply, "Min" a name).
_NUMBER_SIGN = re.compile(r"\bno\.\s?(?=\d)")
_TIME_UNIT = re.compile(r"(?<=\d)\s?(mins?|hrs?)\b")
_TIME_UNITS = {"min": "minutes", "mins": "minutes", "hr": "hours", "hrs": "hours"}
# Feet and inches with their marks ("6'1\"", "5′ 11″"): the inch mark is required.
_FEET_INCHES = re.compile(r"\b(\d)\s?['′’]\s?(\d{1,2})\s?(?:\"|″|”|'')")
# A vulgar fraction after a whole number, as NFKD writes it ("12½" is "121⁄2"): its
# decimal ("12.5").
_VULGAR_FRACTION = re.compile(r"(\d?)(1⁄2|1⁄4|3⁄4)")
_FRACTIONS = {"1⁄2": ".5", "1⁄4": ".25", "3⁄4": ".75"}
# The words `written_whole` writes, which the text it read may not hold.
WRITTEN_WORDS = frozenset(
    (*_SCALE_WORDS.values(), "thousand", "number", *_TIME_UNITS.values(), "ft", "in")
)
# A unit of area: a unit of length squared after a number ("km2", "km²" as NFKC folds
# it), or "square"/"sq" before one.
_AREA = re.compile(
    r"(?<=\d)\s?(km|mi|m|ft)2\b"
    r"|\b(?:square|sq\.?)\s?(kilomet(?:re|er)s?|km|miles?|mi|met(?:re|er)s?|m|feet|foot|ft)\b"
)
# The units of area as `analyse` folds them.
AREA_UNITS = frozenset(("sqkm", "sqmi", "sqm", "sqft"))


def _whole_range(match: re.Match[str]) -> str:
    """A range of years with its end written whole ("1998–99" as "1998–1999"), when the end
    follows the start within a few years; else as written."""
    century, start, dash, end = match.groups()
    gap = (int(end) - int(start)) % 100
    if not 0 < gap <= _SHORT_RANGE_SPAN:
        return match.group(0)
    whole = int(century + start) + gap
    return f"{century}{start}{dash}{whole}"


def _area(match: re.Match[str]) -> str:
    """The unit of area in one word: "sqkm", "sqmi", "sqft" or "sqm"."""
    unit = match.group(1) or match.group(2)
    if unit.startswith(("ki", "km")):
        return " sqkm"
    if unit.startswith("mi"):
        return " sqmi"
    return " sqft" if unit.startswith("f") else " sqm"


def _money(match: re.Match[str]) -> str:
    sign, amount, scale = match.groups()
    return f"{sign}{amount} {_SCALE_WORDS.get(scale, 'thousand')}"


def _fraction(match: re.Match[str]) -> str:
    whole, fraction = match.groups()
    return f"{whole or '0'}{_FRACTIONS[fraction]}"


def _time_unit(match: re.Match[str]) -> str:
    return f" {_TIME_UNITS[match.group(1)]}"


def written_whole(folded: str) -> str:
    """A cased, accent-folded text that holds a digit, with the figures it writes
    shortened written whole ("1998–99" as "1998–1999", "$5m" as "$5 million", "no. 1" as
    "number 1", "142 min" as "142 minutes", "6'1\"" as "6 ft 1 in")."""
    if "$" in folded or "£" in folded or "€" in folded:
        folded = _MONEY_SCALE.sub(_money, _US_DOLLAR.sub("$", folded))
    if "no." in folded:
        folded = _NUMBER_SIGN.sub("number ", folded)
    if "min" in folded or "hr" in folded:
        folded = _TIME_UNIT.sub(_time_unit, folded)
    if "⁄" in folded:
        folded = _VULGAR_FRACTION.sub(_fraction, folded)
    if ("'" in folded or "′" in folded or "’" in folded) and (
        '"' in folded or "″" in folded or "”" in folded or "''" in folded
    ):
        folded = _FEET_INCHES.sub(r"\1 ft \2 in", folded)
    if "sq" in folded or "m2" in folded or "i2" in folded or "t2" in folded:
        folded = _AREA.sub(_area, folded)
    if ("-" in folded or "–" in folded or "/" in folded or "—" in folded) and _SHORT_RANGE.search(
        folded
    ):
        folded = _SHORT_RANGE.sub(_whole_range, folded)
    return folded
