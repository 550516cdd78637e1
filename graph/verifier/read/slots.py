"""The words of a question that govern its answer's slot.

A date answers an event: "born in what year" asks for the date of a birth,
"When was the book written" for the date of a writing, even when the question
also says "the composer" or "the 2016 campaign". The question's event words
(born, died, founded, released, ...) govern a date answer; a work's year ("a
2006 film") is read as the date it was made, which any of them may ask for.

A number counts or measures something: "how many albums" counts albums, "what
is the seating capacity" measures a capacity; the counted noun, or the measured
quantity, governs the answer. "How tall" asks for a height: the answer must be
a height (a number next to "tall", "height" or a unit of length), and the
question's other words say which.
"""

from __future__ import annotations

from graph.verifier.evidence.candidates import is_year
from graph.verifier.kinds.descriptions import COPULA
from graph.verifier.text.normalise import split_words
from graph.verifier.text.wordstems import cue_stem

# Events a date can be the date of, in groups of words that date the same event
# ("created in 1994" dates a founding); compared as `cue_stem` reads them.
EVENT_GROUPS = (
    "born birth birthdate birthday",
    "died death killed assassinated executed",
    "married marriage wedding",
    "founded founding foundation established establishment formed formation created creation"
    " launched started began begun inception inaugurated incorporated introduced opened",
    "released release published publication premiered premiere aired airing debuted debut"
    " issued broadcast launched opened",
    "built constructed construction completed completion erected opened",
    "written wrote composed recorded produced directed painted designed",
    "won elected election appointed signed joined retired retirement",
    "ended closed closing dissolved abolished disbanded defunct",
    "discovered discovery invented invention",
    "adapted adaptation",
    "occurred happened fought",
    "merged acquired captured annexed conquered defeated sank crowned coronation renamed",
)
# Words that ask for a date.
# A question's event word followed this near by a year is dated by the question.
_DATED_REACH = 4
_DATE_ASKING = frozenset(split_words("when year years date dates birthdate birthday century"))
# Words after which the next noun is what a number counts or measures.
_COUNTING = frozenset(split_words("many much"))
_MEASURE_ASKING = frozenset(split_words("what which"))
_ASKING = _MEASURE_ASKING | {"how"}  # a number is asked after one of them
_KIND_WORDS = frozenset(split_words("type kind sort total number"))
# What a "how ..." adjective or a comparative measures: the quantity's names and units.
_TIME_UNITS = "year month week day hour minute second decade century"
_LENGTH_UNITS = "km m mi ft inch cm yard"
_AREA_UNITS = "acre ha km mi square sq"
_HEIGHT_UNITS = f"{_LENGTH_UNITS} storey story floor"
QUANTITIES = {
    adjective: (split_words(names), split_words(units))
    for adjective, names, units in (
        ("tall", "tall height high", _HEIGHT_UNITS),
        ("high", "high height elevation altitude tall", _HEIGHT_UNITS),
        ("long", "long length", f"{_TIME_UNITS} {_LENGTH_UNITS}"),
        ("old", "old age aged", "year"),
        ("far", "far distance away", _LENGTH_UNITS),
        ("large", "large size area big", _AREA_UNITS),
        ("big", "big size area large", _AREA_UNITS),
        ("wide", "wide width", _LENGTH_UNITS),
        ("deep", "deep depth", _LENGTH_UNITS),
        ("heavy", "heavy weight", "kg lb pound ton tonne"),
        ("populous", "population inhabitants populous", ""),
    )
}
COMPARATIVES = {
    comparative: adjective
    for adjective, comparatives in (
        ("high", "higher highest lower lowest"),
        ("tall", "taller tallest"),
        ("long", "longer longest shorter shortest"),
        ("large", "larger largest bigger biggest smaller smallest"),
        ("deep", "deeper deepest shallower shallowest"),
        ("heavy", "heavier heaviest lighter"),
        ("wide", "wider widest narrower"),
        ("populous", "populous"),
    )
    for comparative in split_words(comparatives)
}


def _same_event() -> dict[str, frozenset[str]]:
    """Each event word's stem -> the stems of every word that dates the same event."""
    same: dict[str, frozenset[str]] = {}
    for group in EVENT_GROUPS:
        stems = frozenset(cue_stem(word) for word in split_words(group))
        for stemmed in stems:
            same[stemmed] = same.get(stemmed, frozenset()) | stems
    return same


SAME_EVENT = _same_event()
# The implicit event of a work's year ("a 2006 film": made in 2006), see
# `graph.verifier.read.relation`.
MADE = "make"
_KIND_STEMS = frozenset(cue_stem(word) for word in _KIND_WORDS)
_LIFE_STEMS = frozenset(cue_stem(word) for word in split_words("born died married"))


def _undated(tokens: tuple[str, ...]) -> list[str]:
    """The words of a question less those whose date it gives itself ("an actor born
    February 4, 1985": not the birth it asks the date of)."""
    dated = {
        before
        for index, token in enumerate(tokens)
        if is_year(token)
        for before in range(index - _DATED_REACH, index)
    }
    return [token for index, token in enumerate(tokens) if index not in dated]


def date_governors(tokens: tuple[str, ...]) -> frozenset[str]:
    """The words, as `cue_stem` reads them, that date the events a question asking for a
    date names (`tokens`, folded), with the implicit one of a work's year unless a life's
    event is asked; none when it asks for no date or names no event."""
    if _DATE_ASKING.isdisjoint(tokens):
        return frozenset()
    found = {cue_stem(token) for token in _undated(tokens)} & SAME_EVENT.keys()
    events = frozenset[str]().union(*(SAME_EVENT[stemmed] for stemmed in found))
    return events | {cue_stem(MADE)} if events and found.isdisjoint(_LIFE_STEMS) else events


def _run(tokens: tuple[str, ...], start: int) -> frozenset[str]:
    """The content words' stems from `start` up to the first other word (at most three),
    past words that only say what kind of thing is counted ("of this type of brewery")."""
    run: list[str] = []
    for stemmed in map(cue_stem, tokens[start : start + 6]):
        if stemmed in _KIND_STEMS:
            continue
        if not stemmed or len(run) == 3:
            if run:
                break
            continue
        run.append(stemmed)
    return frozenset(run)


def measured(tokens: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """What a number answer counts or measures, as `cue_stem` reads it: (the words after
    "how many"/"how much" or "what is the", ()), or ((), the names and units of the
    quantity a "how tall/long/old ..." asks for)."""
    if _ASKING.isdisjoint(tokens):
        return frozenset(), frozenset()
    for index, token in enumerate(tokens):
        following = tokens[index + 1] if index + 1 < len(tokens) else ""
        if token == "how" and following in _COUNTING:
            return _run(tokens, index + 2), frozenset()
        if token == "how" and following in QUANTITIES:
            names, units = QUANTITIES[following]
            return frozenset(), frozenset(cue_stem(word) for word in (*names, *units))
        if token in _MEASURE_ASKING and following in COPULA:
            return _run(tokens, index + 2), frozenset()
    return frozenset(), frozenset()
