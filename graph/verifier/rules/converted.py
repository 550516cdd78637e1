"""A measure converted to another unit: "984 ft" where a related sentence gives "300
metres".

A model may give a measure in another unit than the one it read. No stored sentence
states the converted value, but it is no other value either: when the answer is one
number and one unit of length, area or mass, and a trusted sentence of a related page
gives a number in another unit of the same kind that converts to it (within half a unit
of the answer's last digit, or 0.5 % for a longer number), the answer is grounded on that
sentence (stated, as converted; its tie to the question is not read), never rejected as
absent. Units of another kind never convert ("300 kg" is no "300 m"), and a word that
names money as well ("pounds") is no unit.
"""

from __future__ import annotations

import math
from itertools import pairwise

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
}
UNITS = {unit: (kind, size) for kind, sizes in _SIZES.items() for unit, size in sizes.items()}
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


def measure(text: Text) -> tuple[float, str, float] | None:
    """A folded text's number, unit and tolerance, when it is one number and one unit
    (hedges aside)."""
    tokens = [token for token in text.tokens if token not in HEDGES]
    if len(tokens) != 2 or tokens[1] not in UNITS:
        return None
    value = _value(tokens[0])
    if value is None:
        return None
    whole, _, decimals = tokens[0].partition(".")
    zeros = len(whole) - len(whole.rstrip("0")) if whole.strip("0") else 0
    last_digit = 10.0 ** -len(decimals) if decimals else 10.0**zeros
    return value, tokens[1], max(last_digit / 2, _RELATIVE * value)


def converts_to(value: float, unit: str, target: tuple[float, str, float]) -> bool:
    """Whether a value in a unit is the target measure in another unit of its kind."""
    target_value, target_unit, tolerance = target
    stated, asked = UNITS.get(unit), UNITS[target_unit]
    if stated is None or stated[0] != asked[0] or unit == target_unit:
        return False
    return abs(value * stated[1] / asked[1] - target_value) <= tolerance


def same_measure(one: Text, other: Text) -> bool:
    """Two folded texts are one measure in two units ("300 m" and "984 ft")."""
    first, second = measure(one), measure(other)
    return first is not None and second is not None and converts_to(first[0], first[1], second)


def converted_from(check: Check) -> tuple[list[str], str] | None:
    """The stored sentence (id) giving the measure the answer converts, and that measure
    as folded ("300 m"); None when the answer is no measure or none converts to it."""
    target = measure(check.folded)
    if target is None:
        return None
    for item, _ in related_numbers(check, lambda _: True):
        for number, unit in pairwise(item.text.tokens):
            value = _value(number) if unit in UNITS else None
            if value is not None and converts_to(value, unit, target):
                return [item.id], f"{number} {unit}"
    return None
