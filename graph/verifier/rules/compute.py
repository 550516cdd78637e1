"""Comparisons computed from the stored evidence, never guessed.

Each compared entity's facts are the trusted stored sentences of its own page.
The question says what is compared:

- dates, for first / earlier / older / before and later / younger / after:
  the date nearest a relation word of the question ("born", "formed"), else
  the first date of the page's first sentence (a person's birth, a work's year);
- numbers, for more / larger / longer / higher and fewer / smaller: the number
  nearest the counted word ("more species") or another relation word;
- "same <nationality, country, origin>": the demonyms each page gives, and the
  countries and states it names; "same <band, province, ...>": the names each
  page writes next to that noun (or a synonym), the states a page names;
- "both", "same" and the like otherwise: whether each page states every word
  of the attribute (see `graph.verifier.read.attributes`);
- an either/or question with none of these: which page states more of the
  attribute the question names.

A value that cannot be found makes the comparison undecided: no answer is
accepted then.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.verifier.evidence.candidates import NAME, NUMBER, is_year, spans_in
from graph.verifier.evidence.matching import Item
from graph.verifier.kinds.places import regions_named
from graph.verifier.read.relation import Cues, cue_positions, cue_stem, distance, reading
from graph.verifier.read.slots import COMPARATIVES, QUANTITIES
from graph.verifier.text.normalise import MONTH_NAMES, analyse, singular, split_words

EARLIER = frozenset(
    split_words("first earlier earliest older oldest before sooner previously prior elder")
)
LATER = frozenset(
    split_words("later latest younger youngest after recently recent newer newest last")
)
MORE = frozenset(
    split_words(
        "more most larger largest bigger biggest longer longest higher highest taller tallest"
        " greater greatest deeper deepest heavier heaviest wider widest populous"
    )
)
LESS = frozenset(
    split_words(
        "fewer fewest less least smaller smallest shorter shortest lower lowest lighter narrower"
        " shallower shallowest"
    )
)
NATIONALITY_WORDS = frozenset(split_words("nationality country citizenship origin"))
NEAR_ENOUGH = 6
UNIT_REACH = 2
NEXT_TO = 1
_CLAUSE_BREAK = re.compile(r"[,;:()]")
_REGION_NOUNS = frozenset(split_words("state province"))
# Nouns a page may use for the asked one ("the girl group Apink" for a band).
_SYNONYMS = {"band": ("group",), "group": ("band",), "film": ("movie",), "movie": ("film",)}
_MONTH_NUMBERS = {
    month: number for number, month in enumerate(dict.fromkeys(MONTH_NAMES.values()), start=1)
}

Value = tuple[float, ...]
# Metres in each folded unit of length, so that measures in different units compare.
METRES = {"m": 1.0, "km": 1000.0, "cm": 0.01, "ft": 0.3048, "inch": 0.0254, "mi": 1609.344}
_UNIT_NAMES = frozenset({*METRES, *split_words("storey story floor acre ha kg lb ton tonne")})
# Lengths within this ratio of each other are one length written in two units.
SAME_LENGTH = 1.02


@dataclass(frozen=True, slots=True)
class Measured:
    """An entity's value and the sentence that gives it; a measure's value is in the base
    unit of its `dimension` (metres for a length)."""

    value: Value
    shown: str
    item: Item
    dimension: str = ""


def _date_at(tokens: tuple[str, ...], index: int) -> tuple[Value, str]:
    """The date whose year is `tokens[index]`, with its month and day when written."""
    year = int(tokens[index])
    day = tokens[index - 1] if index >= 2 else ""
    if day.isdecimal() and len(day) <= 2 and tokens[index - 2] in _MONTH_NUMBERS:
        return (year, _MONTH_NUMBERS[tokens[index - 2]], int(day)), " ".join(
            tokens[index - 2 : index + 1]
        )
    if index >= 1 and tokens[index - 1] in _MONTH_NUMBERS:
        return (year, _MONTH_NUMBERS[tokens[index - 1]], 0), " ".join(tokens[index - 1 : index + 1])
    return (year, 0, 0), tokens[index]


def _numbers(read: str) -> list[tuple[int, float]]:
    """(position, value) of each number (not a year) of a sentence as read."""
    found = []
    for (index, _), (token,) in spans_in(read, NUMBER):
        try:
            found.append((index, float(token)))
        except ValueError:
            continue
    return found


def date_of(items: list[Item], relation: frozenset[str]) -> Measured | None:
    """The date nearest a relation word on the entity's page, else its lead's first date."""
    best: tuple[int, Measured] | None = None
    for item in items:
        tokens = analyse(reading(item.raw)).tokens
        positions = cue_positions(item.raw, relation)
        for index, token in enumerate(tokens):
            if not is_year(token):
                continue
            value, shown = _date_at(tokens, index)
            gap = distance(positions, (index, index + 1))
            if gap <= NEAR_ENOUGH and (best is None or gap < best[0]):
                best = (gap, Measured(value, shown, item))
    if best is not None:
        return best[1]
    for item in sorted(items, key=lambda item: (item.position != 0, item.position)):
        tokens = analyse(reading(item.raw)).tokens
        years = [index for index, token in enumerate(tokens) if is_year(token)]
        if years:
            value, shown = _date_at(tokens, years[0])
            return Measured(value, shown, item)
    return None


def _measure(tokens: tuple[str, ...], index: int, number: float, item: Item) -> Measured:
    """A number and the unit after it, a length converted to metres."""
    unit = next((t for t in tokens[index + 1 : index + 1 + UNIT_REACH] if t in _UNIT_NAMES), "")
    shown = " ".join(tokens[index : index + 2]) if unit else tokens[index]
    if unit in METRES:
        return Measured((number * METRES[unit],), shown, item, "length")
    return Measured((number,), shown, item, unit)


def _stated_length(items: list[Item]) -> Measured | None:
    """The length a lead gives with its unit ("a 44-story, 733 foot (223 m) office tower"),
    when every length it gives is the same one (in whatever unit)."""
    found: list[Measured] = []
    for item in items:
        if item.position != 0:
            continue
        tokens = analyse(reading(item.raw)).tokens
        for index, number in _numbers(reading(item.raw)):
            measure = _measure(tokens, index, number, item)
            if measure.dimension == "length":
                found.append(measure)
    if not found or max(m.value[0] for m in found) > SAME_LENGTH * min(m.value[0] for m in found):
        return None
    return found[0]


def number_of(
    items: list[Item], counted: frozenset[str], units: frozenset[str] = frozenset()
) -> Measured | None:
    """The number nearest the counted word ("species", "albums") on the entity's page; for a
    measure, one followed by one of its `units` ("7312 m", not the "82nd highest"), else
    for a height the one length its lead gives."""
    best: tuple[int, Measured] | None = None
    for item in items:
        tokens = analyse(reading(item.raw)).tokens
        positions = cue_positions(item.raw, counted)
        for index, number in _numbers(reading(item.raw)):
            if units and units.isdisjoint(tokens[index + 1 : index + 1 + UNIT_REACH]):
                continue
            gap = distance(positions, (index, index + 1))
            if gap <= NEAR_ENOUGH and (best is None or gap < best[0]):
                best = (gap, _measure(tokens, index, number, item))
    if best is None and units and not units.isdisjoint(METRES):
        return _stated_length(items)
    return best[1] if best else None


def named_next_to(items: list[Item], noun: str) -> frozenset[str]:
    """The names a page writes next to a noun or its synonym, in the same clause
    ("Jiangsu province, China": Jiangsu; "the girl group Apink" for "band"); for a state
    or province, the ones it names ("Jefferson County, New York")."""
    wanted = frozenset({cue_stem(noun), *(cue_stem(w) for w in _SYNONYMS.get(singular(noun), ()))})
    found: set[str] = set()
    for item in items:
        if singular(noun) in _REGION_NOUNS:
            found.update(regions_named(item.raw))
        for clause in _CLAUSE_BREAK.split(reading(item.raw)):
            positions = cue_positions(clause, wanted)
            for span, tokens in spans_in(clause, NAME):
                if distance(positions, span) <= NEXT_TO:
                    found.add(" ".join(tokens))
    return frozenset(found)


def direction(words: tuple[str, ...], skipped: frozenset[int]) -> tuple[str, int] | None:
    """("date" or "number", +1 for the larger / later, -1 for the smaller / earlier), from a
    comparison word outside the compared names (`skipped`) and idioms ("at least")."""
    for index, word in enumerate(words):
        if index in skipped or (index and words[index - 1] == "at"):
            continue
        if word in EARLIER:
            return ("date", -1)
        if word in LATER:
            return ("date", 1)
        if word in MORE:
            return ("number", 1)
        if word in LESS:
            return ("number", -1)
    return None


def counted_words(
    words: tuple[str, ...], cues: Cues, skipped: frozenset[int]
) -> tuple[frozenset[str], frozenset[str]]:
    """What a comparison measures, and the units of a measure: the quantity a comparative
    names ("higher": height, elevation; in m or ft), the word "more"/"fewer" counts ("more
    species"), else the question's relation words."""
    for index, word in enumerate(words):
        if word not in MORE | LESS or index in skipped:
            continue
        if word in COMPARATIVES:
            names, units = QUANTITIES[COMPARATIVES[word]]
            return frozenset(cue_stem(name) for name in names), frozenset(units)
        following = cue_stem(words[index + 1]) if index + 1 < len(words) else ""
        if following and index + 1 not in skipped:
            return frozenset({following}), frozenset()
    return cues.relation, frozenset()
