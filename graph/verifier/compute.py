"""Comparisons computed from the stored evidence, never guessed.

Each compared entity's facts are the trusted stored sentences of its own page.
The question says what is compared:

- dates, for first / earlier / older / before and later / younger / after:
  the date nearest a relation word of the question ("born", "formed"), else
  the first date of the page's first sentence (a person's birth, a work's year);
- numbers, for more / larger / longer / higher and fewer / smaller: the number
  nearest the counted word ("more species") or another relation word;
- "same <nationality, country, origin>": the demonyms each page gives;
- "both", "same" and the like otherwise: whether each page states every word
  of the attribute (a broader word covers a narrower one: "writer" a novelist);
- an either/or question with none of these: which page states more of the
  attribute the question names.

A value that cannot be found makes the comparison undecided: no answer is
accepted then.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graph.verifier.answer_types import class_of
from graph.verifier.candidates import NAME, NUMBER, is_year, spans_in
from graph.verifier.categories import DEMONYMS, HYPERNYMS
from graph.verifier.matching import Item
from graph.verifier.normalise import MONTH_NAMES, analyse, singular, split_words
from graph.verifier.relation import Cues, cue_positions, cue_stem, distance, reading

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
    )
)
NATIONALITY_WORDS = frozenset(split_words("nationality country citizenship origin"))
_NOT_ATTRIBUTE = frozenset(
    split_words("both same also either each all two following share common one")
)
# The words a page measures a comparative's quantity by.
_MEASURES = {
    comparative: split_words(measures)
    for comparatives, measures in (
        ("higher highest", "high height elevation altitude tall"),
        ("taller tallest", "tall height high"),
        ("longer longest shorter shortest", "long length"),
        ("larger largest bigger biggest smaller smallest", "large size area big"),
        ("deeper deepest", "deep depth"),
        ("heavier heaviest lighter", "heavy weight"),
        ("wider widest narrower", "wide width"),
        ("populous", "population inhabitants"),
    )
    for comparative in split_words(comparatives)
}
NEAR_ENOUGH = 6
_LOWER_WORD = re.compile(r"\b[a-z][a-z-]+\b")
NEXT_TO = 1
_MONTH_NUMBERS = {
    month: number for number, month in enumerate(dict.fromkeys(MONTH_NAMES.values()), start=1)
}

Value = tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Measured:
    """An entity's value and the sentence that gives it."""

    value: Value
    shown: str
    item: Item


def _date_at(tokens: tuple[str, ...], index: int) -> tuple[Value, str]:
    """The date whose year is `tokens[index]`, with its month and day when written."""
    year = int(tokens[index])
    if index >= 2 and tokens[index - 2] in _MONTH_NUMBERS and tokens[index - 1].isdigit():
        month, day = _MONTH_NUMBERS[tokens[index - 2]], int(tokens[index - 1])
        return (year, month, day), " ".join(tokens[index - 2 : index + 1])
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
    for item in sorted(items, key=lambda item: (item.index != 0, item.index)):
        tokens = analyse(reading(item.raw)).tokens
        years = [index for index, token in enumerate(tokens) if is_year(token)]
        if years:
            value, shown = _date_at(tokens, years[0])
            return Measured(value, shown, item)
    return None


def number_of(items: list[Item], counted: frozenset[str]) -> Measured | None:
    """The number nearest the counted word ("species", "albums") on the entity's page."""
    best: tuple[int, Measured] | None = None
    for item in items:
        tokens = analyse(reading(item.raw)).tokens
        positions = cue_positions(item.raw, counted)
        for index, number in _numbers(reading(item.raw)):
            gap = distance(positions, (index, index + 1))
            if gap <= NEAR_ENOUGH and (best is None or gap < best[0]):
                best = (gap, Measured((number,), tokens[index], item))
    return best[1] if best else None


def named_next_to(items: list[Item], noun: str) -> frozenset[str]:
    """The names a page writes next to a noun ("Jiangsu province", "the band Alphaville")."""
    found: set[str] = set()
    for item in items:
        positions = cue_positions(item.raw, frozenset({cue_stem(noun)}))
        for span, tokens in spans_in(reading(item.raw), NAME):
            if distance(positions, span) <= NEXT_TO:
                found.add(" ".join(tokens))
    return frozenset(found)


def demonyms_of(items: list[Item]) -> frozenset[str]:
    """The nationalities the entity's page gives (its first sentence when stored)."""
    leads = [item for item in items if item.index == 0] or items
    return frozenset(token for item in leads for token in item.text.tokens if token in DEMONYMS)


def _page_stems(items: list[Item]) -> frozenset[str]:
    found: set[str] = set()
    for item in items:
        found.update(cue_stem(token) for token in item.text.tokens)
        found.update(cue_stem(token) for token in item.title_text.tokens)
    return frozenset(found - {""})


def attribute_of(
    question_words: tuple[str, ...], cues: Cues, entities: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The attribute a comparison asks about: the question's words less the compared
    entities' and the comparison's own, and less verbs in -ed ("worked as", "situated
    in"); split into its core (names, category nouns, demonyms) and the rest."""
    core: set[str] = set()
    rest: set[str] = set()
    for word in question_words:
        stemmed = cue_stem(word)
        if stemmed not in cues.stems - entities or word in _NOT_ATTRIBUTE:
            continue
        if stemmed in cues.names or class_of(word) or word in DEMONYMS:
            core.add(word)
        elif not word.endswith("ed"):
            rest.add(word)
    return frozenset(core), frozenset(rest)


def _related(noun: str, other: str) -> bool:
    """The same category, or one broader than the other ("writer" and "novelist")."""
    return (
        singular(noun) == singular(other)
        or singular(other) in HYPERNYMS.get(singular(noun), frozenset())
        or singular(noun) in HYPERNYMS.get(singular(other), frozenset())
    )


def covered(items: list[Item], words: frozenset[str]) -> frozenset[str]:
    """The attribute words the entity's page states (a broader word by a narrower one)."""
    stems = _page_stems(items)
    tokens = {singular(token) for item in items for token in item.text.tokens}
    return frozenset(
        word
        for word in words
        if cue_stem(word) in stems or not tokens.isdisjoint(HYPERNYMS.get(singular(word), ()))
    )


def conflict(items: list[Item], core: frozenset[str]) -> str:
    """A core attribute word the page's first sentence contradicts: another nationality,
    or only categories unrelated to the asked one ("film director" for "actress")."""
    leads = [item for item in items if item.index == 0]
    if not leads:
        return ""
    tokens = [token for item in leads for token in item.text.tokens]
    demonyms = {token for token in tokens if token in DEMONYMS}
    nouns = {word for item in leads for word in _LOWER_WORD.findall(item.raw) if class_of(word)}
    for word in sorted(core):
        if word in DEMONYMS and demonyms and word not in demonyms:
            return f"{leads[0].id} gives {', '.join(sorted(demonyms))}, not {word}"
        if class_of(word) and nouns and not any(_related(word, noun) for noun in nouns):
            return f"{leads[0].id} describes it as {', '.join(sorted(nouns))}, not {word}"
    return ""


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


def counted_words(words: tuple[str, ...], cues: Cues, skipped: frozenset[int]) -> frozenset[str]:
    """What a comparison measures: the measure a comparative names ("higher": height,
    elevation, altitude), the word "more"/"fewer" counts ("more species"), else the
    question's relation words."""
    for index, word in enumerate(words):
        if word not in MORE | LESS or index in skipped:
            continue
        if word in _MEASURES:
            return frozenset(cue_stem(measure) for measure in _MEASURES[word])
        following = cue_stem(words[index + 1]) if index + 1 < len(words) else ""
        if following and index + 1 not in skipped:
            return frozenset({following})
    return cues.relation
