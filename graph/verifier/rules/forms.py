"""Whether the answer has the form the question asks for: a year, a number, a person
rather than a date, yes or no, or one of two named alternatives. A wrong form is a
definite failure and rejects; an answer naming neither alternative, when the question's
pair may be misread, is grounded."""

from __future__ import annotations

import re

from graph.verifier.evidence.matching import contains
from graph.verifier.read.check import Check
from graph.verifier.rules.aliases import alias_choice
from graph.verifier.rules.choices import alternative, named_alternatives, names_same
from graph.verifier.text.normalise import MONTH_NAMES, is_number
from graph.verifier.verdicts import GROUNDING_STATED, ground, reject
from tools.base import Verdict

REASON_YES_NO_EXPECTED = "The question asks yes or no, but {answer!r} is neither."
REASON_YES_NO_UNEXPECTED = "{answer!r} does not answer a question that asks what, which or who."
REASON_PERSON_EXPECTED = "The question asks who, but {answer!r} is a number or a date."
REASON_NUMBER_EXPECTED = "The question asks for a number, but {answer!r} contains none."
REASON_YEAR_EXPECTED = "The question asks for a year, but {answer!r} contains none."
REASON_NOT_ALTERNATIVE = "The question asks to choose {alternatives}; {answer!r} is neither."

_ROMAN = re.compile(r"^[ivxlcdm]+$")


def form_problem(check: Check) -> Verdict | None:
    """A rejection when the answer is not of the form the question asks for (a year, a
    number, yes or no, one of two named alternatives; when no stored page is about one of
    the alternatives, or the question names the answer itself, the question's pair may be
    misread, and a stated answer that names neither is grounded)."""
    q, folded, answer = check.q, check.folded, check.answer
    yes_no = folded.tokens in (("yes",), ("no",))
    if q.strict_yes_no and not yes_no and q.pair_kind != "or":
        return reject(REASON_YES_NO_EXPECTED.format(answer=answer), [])
    if yes_no and not q.asks_yes_no:
        return reject(REASON_YES_NO_UNEXPECTED.format(answer=answer), [])
    if q.asks_year and not any(len(t) in (3, 4) and t.isdigit() for t in folded.tokens):
        return reject(REASON_YEAR_EXPECTED.format(answer=answer), [])
    if q.asks_person and all(is_number(t) or t in MONTH_NAMES for t in folded.tokens):
        return reject(REASON_PERSON_EXPECTED.format(answer=answer), [])
    if q.asks_number and not any(is_number(t) or _ROMAN.match(t) for t in folded.tokens):
        return reject(REASON_NUMBER_EXPECTED.format(answer=answer), [])
    chosen = alternative(folded, q.pair) if q.pair else None
    if choice_question(check) and not yes_no and chosen is None:
        alternatives = named_alternatives(q.pair)
        aliased = alias_choice(check, alternatives)
        if aliased is not None:
            return aliased
        reason = REASON_NOT_ALTERNATIVE.format(alternatives=alternatives, answer=answer)
        _, uncovered = check.coverage(mentions=False)
        misread = bool(uncovered) or _named_beside_pair(check)
        found = check.locate()[0] if misread else None
        if found is not None:
            return ground(found.ids, reason, [], GROUNDING_STATED)
        return reject(reason, [])
    return None


def _named_beside_pair(check: Check) -> bool:
    """The question names the answer, a name, outside both alternatives as read: the pair
    may be misread ("X by A or Y featuring B" read as A or B)."""
    folded = check.folded
    return (
        not check.plain
        and contains(check.q.text, folded)
        and not any(contains(name, folded) for name in check.q.pair)
    )


def choice_question(check: Check) -> bool:
    """The question asks to choose one of two named alternatives."""
    q = check.q
    if q.pair_kind == "or" and q.pair_named:
        return True
    chosen = alternative(check.folded, q.pair) if q.pair else None
    return (
        q.pair_kind == "and"
        and q.pair_named
        and q.asks_which
        and chosen is not None
        and names_same(check.folded, q.pair[chosen])
    )
