"""Whether a stated answer answers this question: the right kind and class of thing, tied
to what the question asks.

The kind is a hard rule: a year or a number never names what a "which label?" asks for
(though a named event may go by its year, and a number names what the sentence numbers:
"District 53"). The hand rules for the class and the ties say what is wrong with an
answer, in words; whether it is accepted is decided by the learned combiner
(`graph.verifier.score.combiner`), which weighs them with the other signals, or by the rules
themselves, each a veto (`RULES`). The rules: a year or a number must be the one of its
kind nearest the question's relation word in its sentence ("born 1970", not the 1989 of
"games in 1989"); with no relation word in its own sentence, it loses to another one
stated next to it. A name must be of the class asked for, and tied by one of: the
relation word next to it, being the subject of a stored page that shares the question's
words, the question's category noun next to it ("the film Lolita"), or a sentence
sharing two or more of the question's words.
"""

from __future__ import annotations

from typing import NamedTuple

from graph.verifier.evidence.candidates import NAME, NUMBER, YEAR
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.read.relation import FAR, cue_stem
from graph.verifier.text.categories import EVENT
from graph.verifier.text.normalise import split_words
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

SLOT_DISTANCE = 6
RIVAL_DISTANCE = 4
NAME_SENTENCE_CUES = 2
SUBJECT_CUES = 2

REASON_WRONG_KIND = (
    "{answer!r} is stated in stored {cite}, but the question asks for {wanted},"
    " and {answer!r} is {what}."
)
REASON_UNMEASURED = "{answer!r} is stated in stored {cite}, but {clause}."
WRONG_CLASS = "the question asks for {wanted}, and {answer!r} is {what}"
MISSING_CLASS = "that {answer!r} is {wanted}"
NOT_NEAREST = "another {kind} there sits nearer to {word!r}, what the question asks about"
RIVAL_TIED = "its sentence does not say {relation}, and another stored {kind} is stated next to it"
NOT_MEASURE = (
    "not as the quantity the question asks for ({relation}): no unit of it stands next to"
    " {answer!r}"
)
NOT_COUNTED = "its sentence does not say what the question counts ({relation})"
NOT_DATED = "its sentence does not say the event the question asks the date of ({relation})"
UNTIED = "nothing there ties it to what the question asks ({relation})"
LOOSE = "the evidence does not tie it closely enough to what the question asks ({relation})"
MISSING_TIE = "{answer!r} as what the question asks about ({relation})"
_ASKED_BY = {"who": "someone", "where": "somewhere"}
# Periods that go by their years ("the 1999–2000 television season").
PERIOD_NOUNS = frozenset(split_words("season seasons decade era term session"))


class Problem(NamedTuple):
    """What a rule finds wrong with a stated answer (a clause), and what is missing."""

    clause: str
    missing: str


def with_article(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def wanted(check: Check) -> str:
    """What the question asks for: "a label (an organisation)"."""
    noun = check.expected.noun
    classes = " or ".join(with_article(kind) for kind in sorted(check.expected.classes))
    asked = _ASKED_BY.get(noun) or with_article(noun)
    return f"{asked} ({classes})"


def relation_words(check: Check, kind: str | None = None) -> str:
    """The question's relation words for an answer of `kind`, as it writes them: "'born',
    'director'"."""
    own = {cue_stem(t) for t in check.folded.tokens}
    relation = check.reader.cues.relation_for(kind) - own
    words = [token for token in check.q.text.tokens if cue_stem(token) in relation]
    return ", ".join(repr(word) for word in dict.fromkeys(words)) or "its words"


def year_asked(check: Check, reading: Reading) -> bool:
    """A year answers the question: a named event goes by its year ("which World Cup?" ->
    1982), a period by its years ("what television season?"), or it also asks "what year"."""
    expected = check.expected
    if reading.kind != YEAR:
        return False
    return (
        (EVENT in expected.classes and expected.proper)
        or expected.noun in PERIOD_NOUNS
        or check.q.asks_year
    )


def kind_problem(check: Check, found: Found, reading: Reading) -> Verdict | None:
    """A year or a number where the question asks for a name of a class ("what sports
    event?"), unless a year answers it (`year_asked`) or the sentence numbers what is
    asked ("District 53" for "which district")."""
    expected = check.expected
    if not expected.classes or reading.kind not in (YEAR, NUMBER):
        return None
    if year_asked(check, reading) or (reading.kind == NUMBER and reading.numbered):
        return None
    asked = wanted(check)
    reason = REASON_WRONG_KIND.format(
        answer=check.answer,
        cite=citation(found.ids),
        wanted=asked,
        what=f"{with_article(reading.kind)}, not a name",
    )
    return reject(reason, [MISSING_CLASS.format(answer=check.answer, wanted=asked)])


def unit_problem(check: Check, found: Found, reading: Reading) -> Verdict | None:
    """A number for a measure ("how long?") with no unit of it next to it: "Route 309"
    measures nothing, whatever else ties it."""
    if reading.kind != NUMBER or reading.has_unit:
        return None
    relation = relation_words(check, NUMBER)
    clause = NOT_MEASURE.format(relation=relation, answer=check.answer)
    reason = REASON_UNMEASURED.format(answer=check.answer, cite=citation(found.ids), clause=clause)
    return reject(reason, [MISSING_TIE.format(answer=check.answer, relation=relation)])


def class_problem(check: Check, reading: Reading) -> Problem | None:
    """A name of a class the question does not ask for: an actor for "released by what
    label?"."""
    expected = check.expected
    if reading.kind != NAME or reading.classified.fits(expected) is not False:
        return None
    asked = wanted(check)
    what = reading.classified.why()
    return Problem(
        WRONG_CLASS.format(wanted=asked, answer=check.answer, what=what),
        MISSING_CLASS.format(answer=check.answer, wanted=asked),
    )


def name_tied(reading: Reading) -> bool:
    """The name rules: the relation word next to it, its own page sharing the question's
    words, the question's category noun next to it, or a sentence sharing its words."""
    return (
        reading.sentence_cues >= NAME_SENTENCE_CUES
        or bool(reading.head_adjacent)
        or reading.subject_cues >= SUBJECT_CUES
        or (reading.relation_distance <= SLOT_DISTANCE and reading.slot)
    )


def _untied(reading: Reading) -> tuple[str, dict[str, str]] | None:
    """Why the rules find a stated answer not tied to what the question asks (a clause
    template and its particular fields), or None when they find it tied."""
    kind = reading.kind
    if kind == NUMBER and not reading.has_unit:
        return NOT_MEASURE, {}
    if kind == NAME:
        return None if name_tied(reading) else (UNTIED, {})
    if reading.relation_distance < FAR:
        counted = kind == NUMBER and bool(reading.cues.measures)
        if (counted or reading.relation_distance <= SLOT_DISTANCE) and reading.slot:
            return None
        nearest = min(reading.placements, key=lambda p: p.relation_distance)
        return NOT_NEAREST, {"word": nearest.relation_word or nearest.described}
    if kind == NUMBER and reading.cues.measures:
        return NOT_COUNTED, {}
    if kind == YEAR and reading.cues.dates:
        return NOT_DATED, {}
    if reading.sentence_cues >= 1 and reading.rival_distance > RIVAL_DISTANCE:
        return None
    return RIVAL_TIED, {}


def tie_problem(check: Check, reading: Reading) -> Problem | None:
    """A stated answer that nothing ties to what the question asks, or that another span
    of its kind fills better, by the rules."""
    kind = reading.kind
    if kind is None or not reading.placements:
        return None
    untied = _untied(reading)
    if untied is None:
        return None
    template, fields = untied
    relation = relation_words(check, kind)
    clause = template.format(answer=check.answer, relation=relation, kind=kind, **fields)
    return Problem(clause, MISSING_TIE.format(answer=check.answer, relation=relation))


def rule_problem(check: Check, reading: Reading) -> Problem | None:
    """The first thing the class and tie rules find wrong, or None."""
    return class_problem(check, reading) or tie_problem(check, reading)


def loose(check: Check, reading: Reading) -> Problem:
    """What is missing when no rule objects but the combiner finds the ties too weak."""
    relation = relation_words(check, reading.kind)
    return Problem(
        LOOSE.format(relation=relation), MISSING_TIE.format(answer=check.answer, relation=relation)
    )
