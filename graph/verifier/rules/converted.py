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

from itertools import pairwise

from graph.verifier.read.check import Check
from graph.verifier.rules.rounding import HEDGES, related_numbers
from graph.verifier.text.normalise import is_number

# Each unit as `analyse` folds it: its kind, and its size in the kind's base unit.
_SIZES = {
    "length": {"m": 1.0, "km": 1e3, "cm": 1e-2, "mm": 1e-3, "ft": 0.3048, "inch": 0.0254}
    | {"mi": 1609.344, "yd": 0.9144, "yard": 0.9144, "yards": 0.9144},
    "area": {"ha": 1e4, "acre": 4046.8564224},
    "mass": {"kg": 1.0, "g": 1e-3, "gram": 1e-3, "grams": 1e-3, "t": 1e3, "tonne": 1e3}
    | {"tonnes": 1e3, "lb": 0.45359237, "lbs": 0.45359237},
}
UNITS = {unit: (kind, size) for kind, sizes in _SIZES.items() for unit, size in sizes.items()}
# How near a longer number must convert: Wikipedia rounds its conversions ("8,849 m
# (29,032 ft)") to a few significant digits.
_RELATIVE = 0.005


def _measure(check: Check) -> tuple[float, str, float] | None:
    """The answer's number, unit and tolerance, when it is one number and one unit."""
    tokens = [token for token in check.folded.tokens if token not in HEDGES]
    if len(tokens) != 2 or not is_number(tokens[0]) or tokens[1] not in UNITS:
        return None
    try:
        value = float(tokens[0])
    except ValueError:
        return None
    whole, _, decimals = tokens[0].partition(".")
    zeros = len(whole) - len(whole.rstrip("0"))
    last_digit = 10.0 ** -len(decimals) if decimals else 10.0**zeros
    return value, tokens[1], max(last_digit / 2, _RELATIVE * value)


def converted_from(check: Check) -> tuple[list[str], str] | None:
    """The stored sentence (id) giving the measure the answer converts, and that measure
    as folded ("300 m"); None when the answer is no measure or none converts to it."""
    measure = _measure(check)
    if measure is None:
        return None
    value, unit, tolerance = measure
    kind, size = UNITS[unit]
    for item, _ in related_numbers(check, lambda _: True):
        tokens = item.text.tokens
        for number, stated_unit in pairwise(tokens):
            stated = UNITS.get(stated_unit)
            if stated is None or stated[0] != kind or stated_unit == unit:
                continue
            if not is_number(number) or number.count(".") > 1:
                continue
            if abs(float(number) * stated[1] / size - value) <= tolerance:
                return [item.id], f"{number} {stated_unit}"
    return None
