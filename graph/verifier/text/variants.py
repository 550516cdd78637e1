"""Other writings of the same name: a word and its abbreviation ("Corporation" and
"Corp.", "Saint" and "St."), names that are one another's ("World War II", "WWII",
"Second World War"), and a date written in figures ("12/05/1954").

A reply may write a right answer otherwise than the evidence does. These writings name
one and the same thing, so the answer is checked as the evidence writes it
(`graph.verifier.answer_asked.as_written`); a writing that may name something else is
not listed: "America" (a continent), "New York" (a state), "LA" (Louisiana), "Britain" and
"Great Britain" (an island, and a kingdom before the United Kingdom).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from graph.verifier.text.number_folds import MONTHS

# A word of a name and its abbreviation: either may be written for the other ("St."
# stands for "Saint" and for "Street": only a writing a sentence states is read).
ABBREVIATED_WORDS = (
    ("Saint", "St."),
    ("Mount", "Mt."),
    ("Fort", "Ft."),
    ("Corporation", "Corp."),
    ("Incorporated", "Inc."),
    ("Company", "Co."),
    ("Limited", "Ltd."),
    ("University", "Univ."),
    ("Brothers", "Bros."),
    ("Association", "Assn."),
    ("Department", "Dept."),
    ("International", "Intl."),
    ("Junior", "Jr."),
    ("Senior", "Sr."),
    ("Street", "St."),
    ("Avenue", "Ave."),
    ("Road", "Rd."),
)
# The ordinals that `analyse` keeps as words ("second" is a unit of time too; the others
# it folds to figures, "third" and "3rd" alike).
ORDINALS = (("first", "1st"), ("First", "1st"), ("second", "2nd"), ("Second", "2nd"))
# Names of one thing. The longer are tried first, so that a name is checked as the
# longest writing a sentence states ("United States of America", not "United States").
SAME_NAMES = (
    (
        "World War II",
        *("WWII", "WW II", "WW2", "World War 2", "World War Two", "Second World War"),
    ),
    (
        "World War I",
        *("WWI", "WW I", "WW1", "World War 1", "World War One", "First World War", "Great War"),
    ),
    ("United States", "United States of America", "US", "U.S.", "USA", "U.S.A."),
    ("United Kingdom", "UK", "U.K."),
    ("Soviet Union", "USSR", "U.S.S.R.", "Union of Soviet Socialist Republics"),
    ("European Union", "EU"),
    ("United Nations", "UN"),
    ("United Arab Emirates", "UAE"),
    ("Democratic Republic of the Congo", "DR Congo", "DRC"),
    ("New York City", "NYC"),
    ("Washington, D.C.", "Washington D.C.", "Washington, DC", "Washington DC"),
)


def _pattern(writing: str, article: str = "", stop: str = "") -> str:
    """A writing as a whole name: not inside a word, a number or an amount ("US$"), nor
    followed by a character of `stop`; with `article`, the article before it too
    (dropped: "the Second World War" is "World War II")."""
    if writing.endswith("."):  # its last full stop may be left out ("U.S.A")
        return rf"(?<![\w$.]){article}{re.escape(writing[:-1])}\.?(?![\w$]|\.\w)"
    return rf"(?<![\w$.]){article}{re.escape(writing)}(?![\w${stop}])"


def _words(pairs: tuple[tuple[str, str], ...]) -> list[tuple[str, str, str, str]]:
    """(writing, other writing, what may not follow it, which kind of rewriting) for each
    word, both ways (`_SPELLED` when it spells out an abbreviation); an abbreviation also
    without its full stop (then not before one: "Co." is read so)."""
    ways: list[tuple[str, str, str, str]] = []
    for long, short in pairs:
        ways += [(long, short, "", _ABBREVIATED), (short, long, "", _SPELLED)]
        ways.append((short.rstrip("."), long, ".", _SPELLED))
    return ways


_WORD = re.compile(r"\w+")
# The kinds of rewriting: a word abbreviated or spelled out, an ordinal in figures or in
# words, another name of the same thing.
_ABBREVIATED, _SPELLED, _ORDINAL, _SAME_NAME = "abbreviated", "spelled", "ordinal", "same name"
# (the first word of a writing, its pattern, the other writing, the kind of rewriting): a
# name is looked for only where its first word is one of the answer's words.
_REWRITES = [
    *(
        (_WORD.findall(said)[0], re.compile(_pattern(said, stop=stop)), written, kind)
        for said, written, stop, kind in _words(ABBREVIATED_WORDS)
    ),
    *(
        (_WORD.findall(said)[0], re.compile(_pattern(said)), written, _ORDINAL)
        for long, short in ORDINALS
        for said, written in ((long, short), (short, long))
    ),
    *(
        (_WORD.findall(said)[0], re.compile(_pattern(said, r"(?:[Tt]he )?")), written, _SAME_NAME)
        for names in SAME_NAMES
        for said in sorted(names, key=len, reverse=True)
        for written in sorted(names, key=len, reverse=True)
        if written != said
    ),
]
_FIRST_WORDS = frozenset(first for first, _, _, _ in _REWRITES)
# The longest answer given other writings: a name, not a text that holds one.
_LONGEST_NAME = 200
_FIGURES = re.compile(r"^(\d{1,2})[/.](\d{1,2})[/.](\d{4})$")


def _dates(answer: str) -> Iterator[str]:
    """A date in figures read day first, then month first ("12/05/1954": 12 May 1954,
    then December 5, 1954); each reading once, and only a real month."""
    match = _FIGURES.match(answer)
    if match is None:
        return
    first, second, year = int(match[1]), int(match[2]), match[3]
    readings = dict.fromkeys(((first, second), (second, first)))
    for day, month in readings:
        if 1 <= month <= 12 and 1 <= day <= 31:
            yield f"{day} {MONTHS[month - 1].capitalize()} {year}"


def variants(answer: str, *, spell_out: bool = True, ordinals: bool = True) -> Iterator[str]:
    """Other writings of the answer, in this order: a date in figures in words, then one
    change each in the order of the tables (a word abbreviated or not, a name of the same
    thing). Without `spell_out`, no abbreviation is spelled out: "St." may be "Saint" or
    "Street", so only what a sentence states can say which. Without `ordinals`, "first"
    and "second" are never written in figures, nor the reverse."""
    if len(answer) > _LONGEST_NAME:
        return
    yield from _dates(answer.strip())
    words = _FIRST_WORDS.intersection(_WORD.findall(answer))
    if not words:
        return
    seen = {answer.rstrip(".")}
    for first, pattern, written, kind in _REWRITES:
        if (kind == _SPELLED and not spell_out) or (kind == _ORDINAL and not ordinals):
            continue
        if first in words and pattern.search(answer) is not None:
            other = pattern.sub(written, answer)
            if other.rstrip(".") not in seen:  # "Inc." read as "Inc" and as "Inc."
                seen.add(other.rstrip("."))
                yield other
