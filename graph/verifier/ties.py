"""Whether a stated answer answers this question: the right class of thing, tied to
what the question asks."""

from __future__ import annotations

from graph.verifier.candidates import NAME, NUMBER, YEAR
from graph.verifier.categories import EVENT
from graph.verifier.check import Check, Found
from graph.verifier.reading import Reading
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

REASON_WRONG_CLASS = (
    "{answer!r} is stated in stored {cite}, but the question asks for {wanted},"
    " and {answer!r} is {what}."
)
MISSING_CLASS = "{wanted} that a stored sentence states"
_ASKED_BY = {"who": "someone", "where": "somewhere"}


def with_article(word: str) -> str:
    return f"{'an' if word[:1] in 'aeiou' else 'a'} {word}"


def _wanted(check: Check) -> str:
    """What the question asks for: "a label (an organisation)"."""
    noun = check.expected.noun
    classes = " or ".join(with_article(kind) for kind in sorted(check.expected.classes))
    asked = _ASKED_BY.get(noun) or with_article(noun)
    return f"{asked} ({classes})"


def class_problem(check: Check, found: Found, reading: Reading) -> Verdict | None:
    """An answer of a class the question does not ask for: an actor for "released by what
    label?", a year for "what sports event?" (though a named event may go by its year:
    "which World Cup?" -> 1982)."""
    if not check.expected.classes:
        return None
    expected = check.expected
    event_year = reading.kind == YEAR and EVENT in expected.classes and expected.proper
    if reading.kind == NUMBER or (reading.kind == YEAR and not event_year):
        what = f"{with_article(reading.kind)}, not a name"
    elif reading.kind == NAME and reading.classified.fits(check.expected) is False:
        what = reading.classified.why()
    else:
        return None
    wanted = _wanted(check)
    reason = REASON_WRONG_CLASS.format(
        answer=check.answer, cite=citation(found.ids), wanted=wanted, what=what
    )
    return reject(reason, [MISSING_CLASS.format(wanted=wanted)])
