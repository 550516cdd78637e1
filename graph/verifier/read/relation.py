"""How closely a span in a stored sentence is tied to what the question asks.

The question's content words (its relation words, "born", "released by", and
the words of the names it mentions) are its cues. A span is tied to the
question by the cues in its sentence, where the page's subject counts as
mentioned (a "He" or an omitted subject refers to it), by the cues in the
neighbouring sentences of the same page, and by how near the nearest cue sits
to it. A life-span parenthesis is read as "born ... died ...".
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import itemgetter

from graph.verifier.evidence.candidates import NUMBER, YEAR, Span, find_dated, find_in, spans_in
from graph.verifier.kinds.answer_types import expected_class
from graph.verifier.kinds.question import analyse_question, named_entities
from graph.verifier.read.slots import MADE, date_governors, measured
from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.normalise import UNITS, Text, analyse, split_words, unglue_dates
from graph.verifier.text.wordstems import cue_stem

FAR = 99
_POSITION = itemgetter(0)

_TITLE_TAIL = re.compile(r"\s*(?:\([^)]*\)|,.*)\s*$")
# Words that say what kind of answer is wanted rather than what it is about (and the
# empty stem of a stopword).
_NOT_CUES = frozenset(["", *split_words("year years name named date number many much type kind")])
# "X is a 2006 film": the year of the subject's own description.
_WORK_YEAR = re.compile(r"\b((?:is|was|are|were)\s+an?)\s+((?:1\d|20)\d\d)\b(?=\s+[^\W\d])")
# A count of times written as one word.
_MULTIPLE = re.compile(r"\b(twice|thrice)\b", re.IGNORECASE)
_HAS_YEAR = re.compile(r"[0-9]{3}")
_DASH = re.compile(r"[-–—]")
_LIFE_SPAN = re.compile(
    r"\(([^()]*?)\b((?:[\w.]+,?\s+){0,2}\d{3,4})\s*[-–—]\s*((?:[\w.]+,?\s+){0,2}\d{3,4})"
    r"(\s*[;,)])"
)


@lru_cache(maxsize=TEXTS)
def reading(raw: str) -> str:
    """A sentence as read for ties: a life-span parenthesis gains "born" and "died", the
    year of the subject's description ("X is a 2006 film") is read as when it was made,
    and "twice" counts times."""
    if _MULTIPLE.search(raw):
        raw = _MULTIPLE.sub(r"\1 times", raw)
    if not _HAS_YEAR.search(raw):
        return raw
    raw = unglue_dates(raw)
    if "(" in raw and _DASH.search(raw):
        raw = _LIFE_SPAN.sub(r"(\1born \2 – died \3\4", raw, count=1)
    return _WORK_YEAR.sub(rf"\1 {MADE} \2", raw)


@lru_cache(maxsize=TEXTS)
def token_stems(raw: str) -> tuple[str, ...]:
    """The cue stem of each token of the sentence as read."""
    return tuple(map(cue_stem, analyse(reading(raw)).tokens))


@dataclass(frozen=True, slots=True)
class Cues:
    """What the question asks about: all its cue stems, those of the names it mentions,
    and its relation words (neither names nor the category noun of the answer);
    `all_names` keeps the names' stems that are not cues (stopwords aside). `dates` are
    the event words a date answer is the date of ("born"), `measures` what a number
        answer counts or measures ("album", "capacity"), `units` the words one of which a
    measure must stand next to ("tall", "ft"); see `graph.verifier.read.slots`."""

    stems: frozenset[str]
    names: frozenset[str]
    relation: frozenset[str]
    all_names: frozenset[str] = frozenset()
    dates: frozenset[str] = frozenset()
    measures: frozenset[str] = frozenset()
    units: frozenset[str] = frozenset()

    def without(self, own: frozenset[str]) -> Cues:
        """The cues less the answer's own words (which can never tie the answer)."""
        if own.isdisjoint(self.stems) and own.isdisjoint(self.dates | self.measures):
            return self
        return Cues(
            self.stems - own,
            self.names - own,
            self.relation - own,
            self.all_names,
            self.dates - own,
            self.measures - own,
            self.units,
        )

    def relation_for(self, kind: str | None) -> frozenset[str]:
        """The relation words a span of `kind` must sit next to: the event of a date, the
        quantity of a number, else all of them."""
        if kind == YEAR and self.dates:
            return self.dates
        if kind == NUMBER and self.measures:
            return self.measures
        return self.relation


@lru_cache(maxsize=4096)
def question_cues(question: str) -> Cues:
    q = analyse_question(question)
    tokens = q.text.tokens
    stems = frozenset(map(cue_stem, tokens)) - _NOT_CUES
    names = frozenset(
        map(
            cue_stem,
            chain.from_iterable(name.tokens for name in (*q.pair, *named_entities(q.words))),
        )
    )
    head = expected_class(question).noun
    measures, units = measured(tokens)
    return Cues(
        stems,
        names & stems,
        stems - names - {cue_stem(head)},
        names,
        date_governors(tokens) - names,
        measures - {""},
        units,
    )


@lru_cache(maxsize=TEXTS)
def cue_positions(raw: str, wanted: frozenset[str]) -> tuple[tuple[int, str], ...]:
    """(position, stem) of each token of the sentence, as read, whose stem is wanted."""
    stems = token_stems(raw)
    if wanted.isdisjoint(stems):
        return ()
    return tuple([(i, s) for i, s in enumerate(stems) if s in wanted])


def distance(
    positions: tuple[tuple[int, str], ...],
    span: Span,
    skipped: tuple[int, ...] = (),
    following_cost: int = 1,
) -> int:
    """Tokens from the span to the nearest of `positions` (in token order) outside it
    (`FAR` if none), not counting the `skipped` tokens between (in order: the other members of a
    list it belongs to); a word after the span counts `following_cost` times (a date
    follows its relation word: "born 1920 - died 2003"). Skipped tokens never make a
    farther position nearer, so only the last one before the span and the first one
    after it are measured."""
    start, end = span
    before = bisect_left(positions, start, key=_POSITION)
    after = bisect_left(positions, end, before, key=_POSITION)
    best = FAR
    if before:
        last = positions[before - 1][0]
        best = start - last - _skipped_between(skipped, last + 1, start)
    if after < len(positions):
        following = positions[after][0]
        gap = 1 + following - end - _skipped_between(skipped, end, following)
        best = min(best, gap * following_cost)
    return best


def nearest_position(positions: tuple[tuple[int, str], ...], at: int) -> tuple[int, str] | None:
    """The one of `positions` (in token order) nearest token `at`, the earlier on a tie;
    None if there is none."""
    after = bisect_left(positions, at, key=_POSITION)
    if after == len(positions):
        return positions[-1] if positions else None
    if after and at - positions[after - 1][0] <= positions[after][0] - at:
        return positions[after - 1]
    return positions[after]


def _skipped_between(skipped: tuple[int, ...], low: int, high: int) -> int:
    return bisect_left(skipped, high) - bisect_left(skipped, low) if skipped else 0


def placements(raw: str, kind: str) -> tuple[tuple[Span, tuple[str, ...]], ...]:
    """The spans of `kind` in the sentence as read for ties."""
    return spans_in(reading(raw), kind)


def locate(raw: str, needle: tuple[str, ...]) -> list[Span]:
    """Where `needle` (folded tokens) occurs in the sentence as read; a month and year
    where a whole date states them ("July 1970" in "born 30 July 1970")."""
    hay = analyse(reading(raw))
    return find_in(hay, needle) or find_dated(hay, needle)


@lru_cache(maxsize=TEXTS)
def listed(raw: str, kind: str) -> tuple[int, ...]:
    """The tokens of a sentence, as read, that belong to spans of `kind` or join them
    ("and", "or"), in order: a list's members are as near to its head as its first member."""
    tokens = analyse(reading(raw)).tokens
    spans = placements(raw, kind)
    inside = {i for (start, end), _ in spans for i in range(start, end)}
    joins = {i for i, token in enumerate(tokens) if token in ("and", "or", "&")}
    if kind == NUMBER:  # a number's unit is part of its measure ("6650 km 4130 mi long")
        inside |= {end for (_, end), _ in spans if end < len(tokens) and tokens[end] in UNITS}
    return tuple(sorted(inside | joins))


def title_core(title: str) -> Text:
    """A page title without its parenthesis or what follows a comma (`Stull, Kansas`); not
    kept: its one caller keeps its words per title."""
    return analyse(_TITLE_TAIL.sub("", title))
