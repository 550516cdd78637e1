"""A value read off stated ones: the decade or century of a stated year ("the 1960s"
where a sentence gives 1962), an age or a span of years between two years a sentence
gives ("75" where it says "(1900–1975)", to "How old was he when he died?"), or a
nationality said by its country ("United States" where a sentence says "American", to
"What nationality ...?").

No stored sentence states such a value, but it is no other value either: it is what the
evidence says, read at another grain or subtracted. When a trusted sentence of a
related page gives what it is read off (a year it holds, two years it spans, a
country's people), the answer is grounded on that sentence (stated, as derived; its tie
to the question is not read), never rejected as absent.

- A decade or a century only when the question asks a time.
- An age only when the question asks an age or a span of years, and from a range of
  years one sentence writes (with a dash in a parenthesis, places and all between). An
  age from years alone may be a year less than their difference (a birthday not yet
  reached): both are kept.
- A nationality only when the question asks one, or a country.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from itertools import pairwise

from graph.verifier.evidence.candidates import is_year
from graph.verifier.evidence.matching import Item
from graph.verifier.kinds.places import demonym_of, is_demonym, nationalities_named
from graph.verifier.read.check import Check
from graph.verifier.rules.rounding import related_numbers
from graph.verifier.text.normalise import MONTH_NAMES, is_number, split_words

# Words that place a value inside a decade or century ("the early 1960s"), with where
# that part starts, and how much of it each part holds.
_PARTS = {"early": 0.0, "mid": 0.3, "middle": 0.3, "late": 0.6}
_PART_SIZE = 0.4
# Words an age or a span of years may stand with ("75 years old").
_AGE_WORDS = frozenset(split_words("years year old yrs"))
# What a question asking how long says, which asks a span of years when it or the
# answer says years.
_LENGTH_ASKED = re.compile(r"\bhow (?:long|many (?:more )?years)\b", re.IGNORECASE)
_YEARS = frozenset(("year", "years"))
# What a question asking a nationality or a country says.
_NATIONALITY_ASKED = re.compile(
    r"\b(?:nationality|nationalities|citizen|citizenship|country|countries|origin)\b",
    re.IGNORECASE,
)
# What a question asking a time says, besides a year or a date.
_TIME_ASKED = re.compile(r"\b(?:when|decade|century|era|period)\b", re.IGNORECASE)
# What may stand between the two years of a range once folded: a joining word, and the
# month and day of a full date.
_SPAN_WORDS = frozenset(
    [*split_words("to until till and"), *MONTH_NAMES.values(), *map(str, range(1, 32))]
)
_SPAN_GAP = 4
# A parenthesis of a sentence, and the dash of a range in it.
_PARENTHESIS = re.compile(r"\(([^()]{1,200})\)")
_DASH = re.compile(r"\s*[–—]\s*|\s+-\s+")
_YEAR_WRITTEN = re.compile(r"(?<![\d,.])\d{4}(?![\d,.])")
# The most words of a country's name ("democratic republic of congo").
_LONGEST_COUNTRY = 5
_LAST_CENTURY = 21
_OLDEST = 150


def _whole(token: str, digits: int) -> int | None:
    """The whole number a folded token of at most `digits` decimal digits is, or None
    ("²" is a digit, but no decimal one; a number of 5,000 digits is no year)."""
    return int(token) if token.isdecimal() and len(token) <= digits else None


def _year(token: str) -> int | None:
    return int(token) if is_year(token) else None


def _period(tokens: tuple[str, ...]) -> tuple[int, int, str] | None:
    """The first and last year of a decade or century an answer names ("1960s", "the
    1800s", "15th century"), or of its early, middle or late part (a loose 40 %: "the
    early 1960s" is 1960-1963), and how it names it; None for any other answer."""
    parts = [token for token in tokens if token in _PARTS]
    core = tuple(token for token in tokens if token not in _PARTS)
    number = _whole(core[0], 4) if len(core) == 2 else None
    if len(parts) > 1 or number is None:
        return None
    if core[1] == "s" and _year(core[0]) is not None and number % 10 == 0:
        size, named = (100, "century") if number % 100 == 0 else (10, "decade")
    elif core[1] == "century" and 0 < number <= _LAST_CENTURY:
        size, named, number = 100, "century", 100 * (number - 1)
    else:
        return None
    if not parts:
        return number, number + size - 1, named
    start = number + int(size * _PARTS[parts[0]])
    return start, start + int(size * _PART_SIZE) - 1, f"{parts[0]} part of the {named}"


def _age(tokens: tuple[str, ...]) -> int | None:
    """The number of years an answer gives ("75", "75 years old"), or None."""
    numbers = [token for token in tokens if token not in _AGE_WORDS]
    age = _whole(numbers[0], 3) if len(numbers) == 1 else None
    return age if age is not None and 0 < age <= _OLDEST else None


def _span_asked(check: Check, answer: tuple[str, ...]) -> bool:
    """The question asks an age, or how long in years."""
    if check.q.asks_age:
        return True
    question = check.question
    if _LENGTH_ASKED.search(question) is None:
        return False
    return not _YEARS.isdisjoint(answer) or "year" in question.lower()


def _first(check: Check, keep: Callable[[Item], str | None]) -> tuple[list[str], str] | None:
    """The first trusted related sentence (id) with a year that `keep` derives the answer
    from, and how it does."""
    for item, _ in related_numbers(check, lambda token: _year(token) is not None):
        derived = keep(item)
        if derived is not None:
            return [item.id], derived
    return None


def _spans(tokens: tuple[str, ...]) -> Iterator[tuple[int, int]]:
    """The ranges of years a sentence writes: "(1900–1975)", "from 1509 to 1547", "(4 May
    1900 – 6 June 1975)" (folded "may 4 1900 june 6 1975")."""
    years = [(index, _year(token)) for index, token in enumerate(tokens)]
    held = [(index, year) for index, year in years if year is not None]
    for (start, first), (end, last) in pairwise(held):
        between = tokens[start + 1 : end]
        if len(between) <= _SPAN_GAP and all(word in _SPAN_WORDS for word in between):
            yield first, last


def _life_spans(raw: str) -> Iterator[tuple[int, int]]:
    """The ranges of years a sentence's parentheses write with a dash between places or
    other words ("(11 March 1851 in Greifswald – 28 October 1923 in Marburg)"): the last
    year before the dash and the first after it."""
    for inside in _PARENTHESIS.findall(raw):
        parts = _DASH.split(inside, maxsplit=1)
        if len(parts) != 2:
            continue
        before, after = parts
        firsts, lasts = _YEAR_WRITTEN.findall(before), _YEAR_WRITTEN.findall(after)
        if firsts and lasts and is_year(firsts[-1]) and is_year(lasts[0]):
            yield int(firsts[-1]), int(lasts[0])


def _nationality(check: Check) -> tuple[list[str], str] | None:
    """A country for its people's adjective ("United States" where a sentence says
    "American"), or for a state a sentence names ("born in Texas"); or the adjective of a
    country or state a sentence names ("American" where it says "born in Texas"), to a
    question asking a nationality or a country."""
    name = " ".join(check.folded.tokens)
    demonym = demonym_of(name)
    if demonym is None and not is_demonym(name):
        return None
    if _NATIONALITY_ASKED.search(check.question) is None:
        return None
    for item in check.items:  # what a sentence states first: most state neither
        people = demonym if demonym is not None and demonym in item.text.tokens else None
        if people is None and (demonym or name) not in nationalities_named(item.raw):
            continue
        if not item.trusted or not check.directly_related(item.page):
            continue
        if people is not None:
            return [item.id], f"the country of the {people.capitalize()} it states"
        return [item.id], f"the {'country' if demonym else 'nationality'} of a place it names"
    return None


def nationality_for_country(check: Check) -> bool:
    """The answer is a people's adjective ("French") where the question asks for a country:
    it names the country by its people, so it is grounded, never rejected as a wrong class."""
    name = " ".join(check.folded.tokens)
    return is_demonym(name) and _NATIONALITY_ASKED.search(check.question) is not None


def derived_from(check: Check) -> tuple[list[str], str] | None:
    """The stored sentence (id) the answer is read off, and how (a decade of "1962"); None
    when the answer is no decade, century, asked span or nationality, or no sentence
    gives it."""
    tokens = check.folded.tokens
    if len(tokens) <= _LONGEST_COUNTRY and not any(map(is_number, tokens)):
        return _nationality(check)
    period = _period(tokens)
    if period is not None:
        if not (check.q.asks_year or check.q.asks_date or _TIME_ASKED.search(check.question)):
            return None
        first, last, named = period

        def within(item: Item) -> str | None:
            years = (_year(word) for word in item.text.tokens)
            held = next((year for year in years if year and first <= year <= last), None)
            return None if held is None else f"the {named} of {held}"

        return _first(check, within)
    age = _age(tokens)
    if age is None or not _span_asked(check, tokens):
        return None

    def spanned(item: Item) -> str | None:
        for start, end in (*_spans(item.text.tokens), *_life_spans(item.raw)):
            if end - start in (age, age + 1):
                return f"the years from {start} to {end}"
        return None

    return _first(check, spanned)
