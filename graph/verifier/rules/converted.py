"""A measure converted to another unit: "984 ft" where a related sentence gives "300
metres".

A model may give a measure in another unit than the one it read. No stored sentence
states the converted value, but it is no other value either: when the answer is one
number and one unit of length, area or mass, and a trusted sentence of a related page
gives a number in another unit of the same kind that converts to it (within half a unit
of the answer's last digit, or 0.5 % for a longer number), the answer is grounded on that
sentence (stated, as converted; its tie to the question is not read), never rejected as
absent. Units of another kind never convert ("300 kg" is no "300 m"), and a word that
names money as well ("pounds") is no unit. A measure in two units of one kind ("6 ft 1
in", "2 hours and 22 minutes") is their sum, on either side, within half its smaller unit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from graph.verifier.read.check import Check
from graph.verifier.rules.rounding import HEDGES, related_numbers
from graph.verifier.text.normalise import Text, is_number

# Each unit as `analyse` folds it: its kind, and its size in the kind's base unit.
_SIZES = {
    "length": {"m": 1.0, "km": 1e3, "cm": 1e-2, "mm": 1e-3, "ft": 0.3048, "inch": 0.0254}
    | {"mi": 1609.344, "yd": 0.9144, "yard": 0.9144, "yards": 0.9144},
    "area": {"ha": 1e4, "acre": 4046.8564224, "sqkm": 1e6, "sqmi": 2589988.110336}
    | {"sqm": 1.0, "sqft": 0.09290304},
    "mass": {"kg": 1.0, "g": 1e-3, "gram": 1e-3, "grams": 1e-3, "t": 1e3, "tonne": 1e3}
    | {"tonnes": 1e3, "lb": 0.45359237, "lbs": 0.45359237},
    "time": {"seconds": 1.0, "second": 1.0, "minutes": 60.0, "minute": 60.0, "hours": 3600.0}
    | {"hour": 3600.0, "h": 3600.0},
}
UNITS = {unit: (kind, size) for kind, sizes in _SIZES.items() for unit, size in sizes.items()}
# The smaller unit of a measure in two units as `analyse` folds it where it means that
# unit only after a larger one ("6 ft 1 in").
_SMALLER_ONLY = {"in": "inch"}
# How near a longer number must convert: Wikipedia rounds its conversions ("8,849 m
# (29,032 ft)") to a few significant digits.
_RELATIVE = 0.005


def _value(token: str) -> float | None:
    """The number a folded token is ("2.5"), or None ("4x4", "1.2.3", "1e999")."""
    if not is_number(token):
        return None
    try:
        value = float(token)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _compound(tokens: Sequence[str]) -> tuple[float, str, float] | None:
    """A measure in two units of one kind, the larger first ("6 ft 1 in", "2 hours and 22
    minutes"): its value in the larger unit, that unit, and half the smaller as tolerance."""
    if len(tokens) == 5 and tokens[2] == "and":
        tokens = [tokens[0], tokens[1], tokens[3], tokens[4]]
    if len(tokens) != 4:
        return None
    larger, smaller = UNITS.get(tokens[1]), UNITS.get(_SMALLER_ONLY.get(tokens[3], tokens[3]))
    first, second = _value(tokens[0]), _value(tokens[2])
    if larger is None or smaller is None or first is None or second is None:
        return None
    if larger[0] != smaller[0] or not 0 <= second * smaller[1] < larger[1]:
        return None
    share = smaller[1] / larger[1]
    return first + second * share, tokens[1], share / 2


def measure(text: Text) -> tuple[float, str, float] | None:
    """A folded text's number, unit and tolerance, when it is one number and one unit, or
    a measure in two units (hedges aside)."""
    tokens = [token for token in text.tokens if token not in HEDGES]
    if len(tokens) != 2 or tokens[1] not in UNITS:
        return _compound(tokens)
    value = _value(tokens[0])
    if value is None:
        return None
    whole, _, decimals = tokens[0].partition(".")
    zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
    last_digit = 10.0 ** -len(decimals) if decimals else 10.0**zeros
    return value, tokens[1], max(last_digit / 2, _RELATIVE * value)


def converts_to(
    value: float, unit: str, target: tuple[float, str, float], *, same_unit: bool = False
) -> bool:
    """Whether a value in a unit is the target measure in another unit of its kind (or in
    the same unit, for a value summed from two units)."""
    target_value, target_unit, tolerance = target
    stated, asked = UNITS.get(unit), UNITS[target_unit]
    if stated is None or stated[0] != asked[0] or (unit == target_unit and not same_unit):
        return False
    return abs(value * stated[1] / asked[1] - target_value) <= tolerance


def same_measure(one: Text, other: Text) -> bool:
    """Two folded texts are one measure in two units ("300 m" and "984 ft")."""
    first, second = measure(one), measure(other)
    return first is not None and second is not None and converts_to(first[0], first[1], second)


def stated_measures(tokens: Sequence[str]) -> Iterator[tuple[float, str, str, bool]]:
    """The measures a sentence's folded tokens give: each value, its unit, its text ("300
    m") and whether it is summed from two units ("6 ft 1 in", whose parts are no measures
    of their own)."""
    start = 0
    while start < len(tokens) - 1:
        number, unit = tokens[start], tokens[start + 1]
        value = _value(number) if unit in UNITS else None
        if value is None:
            start += 1
            continue
        for length in (5, 4):
            compound = _compound(tokens[start : start + length])
            if compound is not None:
                yield compound[0], unit, " ".join(tokens[start : start + length]), True
                start += length
                break
        else:
            yield value, unit, f"{number} {unit}", False
            start += 2


def converted_from(check: Check) -> tuple[list[str], str] | None:
    """The stored sentence (id) giving the measure the answer converts, and that measure
    as folded ("300 m"); None when the answer is no measure or none converts to it."""
    target = measure(check.folded)
    if target is None:
        return None
    for item, _ in related_numbers(check, lambda _: True):
        for value, unit, said, summed in stated_measures(item.text.tokens):
            if converts_to(value, unit, target, same_unit=summed):
                return [item.id], said
    return None
