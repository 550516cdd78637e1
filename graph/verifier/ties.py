"""Whether a stated answer answers this question: the right class of thing, tied to
what the question asks.

A year or a number must be the one of its kind nearest the question's relation
word in its sentence ("born 1970", not the 1989 of "games in 1989"); with no
relation word in its own sentence, it loses to another one stated next to it.
A name must be tied by one of: the relation word next to it, being the subject
of a stored page that shares the question's words, the question's category
noun next to it ("the film Lolita"), or a sentence sharing two or more of the
question's words.
"""

from __future__ import annotations

from typing import Protocol

from graph.verifier.candidates import NAME, NUMBER, YEAR
from graph.verifier.categories import EVENT
from graph.verifier.check import Check, Found
from graph.verifier.reading import Reading
from graph.verifier.relation import FAR, cue_stem
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

SLOT_DISTANCE = 6
RIVAL_DISTANCE = 4
NAME_SENTENCE_CUES = 2
SUBJECT_CUES = 2

REASON_WRONG_CLASS = (
    "{answer!r} is stated in stored {cite}, but the question asks for {wanted},"
    " and {answer!r} is {what}."
)
MISSING_CLASS = "that {answer!r} is {wanted}"
REASON_NOT_NEAREST = (
    "{answer!r} is stated in stored {cite}, but another {kind} there sits nearer to"
    " {word!r}, what the question asks about."
)
REASON_RIVAL_TIED = (
    "{answer!r} is stated in stored {cite}, which does not say {relation}; another stored"
    " {kind} is stated next to it."
)
REASON_NOT_MEASURE = (
    "{answer!r} is stated in stored {cite}, but not as the quantity the question asks for"
    " ({relation}): no unit of it stands next to {answer!r}."
)
REASON_NOT_COUNTED = (
    "{answer!r} is stated in stored {cite}, which does not say what the question counts"
    " ({relation})."
)
REASON_NOT_DATED = (
    "{answer!r} is stated in stored {cite}, which does not say the event the question asks"
    " the date of ({relation})."
)
REASON_SCORED = (
    "{answer!r} is stated in stored {cite}, but the evidence does not tie it closely enough"
    " to what the question asks ({relation}; the learned scorer {score})."
)
REASON_UNTIED = (
    "{answer!r} is stated in stored {cite}, but nothing there ties it to what the question"
    " asks ({relation})."
)
MISSING_TIE = "{answer!r} as what the question asks about ({relation})"
_ASKED_BY = {"who": "someone", "where": "somewhere"}


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


def class_problem(check: Check, found: Found, reading: Reading) -> Verdict | None:
    """An answer of a class the question does not ask for: an actor for "released by what
    label?", a year for "what sports event?" (though a named event may go by its year:
    "which World Cup?" -> 1982, a year answers a question that also asks "what year",
    and a number names what the sentence numbers: "District 53" for "which district")."""
    expected = check.expected
    if not expected.classes:
        return None
    event_year = reading.kind == YEAR and EVENT in expected.classes and expected.proper
    if (reading.kind == YEAR and check.q.asks_year) or (
        reading.kind == NUMBER and reading.numbered
    ):
        return None
    if reading.kind == NUMBER or (reading.kind == YEAR and not event_year):
        what = f"{with_article(reading.kind)}, not a name"
    elif reading.kind == NAME and reading.classified.fits(expected) is False:
        what = reading.classified.why()
    else:
        return None
    asked = wanted(check)
    reason = REASON_WRONG_CLASS.format(
        answer=check.answer, cite=citation(found.ids), wanted=asked, what=what
    )
    return reject(reason, [MISSING_CLASS.format(answer=check.answer, wanted=asked)])


class NameScorer(Protocol):
    """Decides whether a stated, right-class name is tied to the question (the learned
    scorer, `graph.verifier.scorer`), in place of the name rules."""

    def judge_name(self, check: Check, reading: Reading) -> tuple[bool, str]:
        """(accepted, why in a few words)."""
        ...


def name_tied(reading: Reading) -> bool:
    """The name rules: the relation word next to it, its own page sharing the question's
    words, the question's category noun next to it, or a sentence sharing its words."""
    return (
        reading.sentence_cues >= NAME_SENTENCE_CUES
        or bool(reading.head_adjacent)
        or reading.subject_cues >= SUBJECT_CUES
        or (reading.relation_distance <= SLOT_DISTANCE and reading.slot)
    )


def _untied(
    check: Check, reading: Reading, scorer: NameScorer | None
) -> tuple[str, dict[str, str]] | None:
    """Why a stated answer is not tied to what the question asks (a reason template and
    its particular fields), or None when it is; names go to the `scorer` when given."""
    kind = reading.kind
    if kind == NUMBER and not reading.has_unit:
        return REASON_NOT_MEASURE, {}
    if kind in (YEAR, NUMBER):
        if reading.relation_distance < FAR:
            counted = kind == NUMBER and bool(reading.cues.measures)
            if (counted or reading.relation_distance <= SLOT_DISTANCE) and reading.slot:
                return None
            nearest = min(reading.placements, key=lambda p: p.relation_distance)
            return REASON_NOT_NEAREST, {"word": nearest.relation_word or nearest.described}
        if kind == NUMBER and reading.cues.measures:
            return REASON_NOT_COUNTED, {}
        if kind == YEAR and reading.cues.dates:
            return REASON_NOT_DATED, {}
        if reading.sentence_cues >= 1 and reading.rival_distance > RIVAL_DISTANCE:
            return None
        return REASON_RIVAL_TIED, {}
    if scorer is not None:
        accepted, score = scorer.judge_name(check, reading)
        return None if accepted else (REASON_SCORED, {"score": score})
    return None if name_tied(reading) else (REASON_UNTIED, {})


def tie_problem(
    check: Check, found: Found, reading: Reading, scorer: NameScorer | None = None
) -> Verdict | None:
    """A stated answer that nothing ties to what the question asks, or that another span of
    its kind fills better; names go to the `scorer` when one is given."""
    kind, answer = reading.kind, check.answer
    if kind is None or not reading.placements:
        return None
    untied = _untied(check, reading, scorer)
    if untied is None:
        return None
    template, fields = untied
    relation = relation_words(check, kind)
    reason = template.format(
        answer=answer, cite=citation(found.ids), relation=relation, kind=kind, **fields
    )
    return reject(reason, [MISSING_TIE.format(answer=answer, relation=relation)])
