"""The verdict: reject answers of the wrong kind for the question, then judge a
comparison by its entities and any other answer by the sentences that state it."""

from __future__ import annotations

from collections.abc import Sequence

from graph.verifier.answer_types import NameLexicon
from graph.verifier.answers import explain_missing, refused, supported
from graph.verifier.check import Check
from graph.verifier.combiner import RULES, Decider
from graph.verifier.comparison import alternative, computed, names_same, stated_comparison
from graph.verifier.events import event_problem
from graph.verifier.matching import stored_items
from graph.verifier.normalise import MONTH_NAMES, analyse, is_number
from graph.verifier.ranges import range_problem
from graph.verifier.ranks import rank_problem
from graph.verifier.respectively import respectively_problem
from graph.verifier.ties import kind_problem, rule_problem, unit_problem
from graph.verifier.titles import title_problem
from graph.verifier.verdicts import reject
from tools.base import Evidence, Verdict

REASON_EMPTY = "The answer is empty, so there is nothing to check."
REASON_NO_EVIDENCE = "No evidence is stored yet, so no sentence can support {answer!r}."
REASON_YES_NO_EXPECTED = "The question asks yes or no, but {answer!r} is neither."
REASON_YES_NO_UNEXPECTED = "{answer!r} does not answer a question that asks what, which or who."
REASON_PERSON_EXPECTED = "The question asks who, but {answer!r} is a number or a date."
REASON_NUMBER_EXPECTED = "The question asks for a number, but {answer!r} contains none."
REASON_YEAR_EXPECTED = "The question asks for a year, but {answer!r} contains none."
REASON_NOT_ALTERNATIVE = "The question asks to choose {alternatives}; {answer!r} is neither."


def verify_answer(
    question: str,
    answer: str,
    evidence: Sequence[Evidence],
    *,
    question_type: str | None = None,
    lexicon: NameLexicon | None = None,
    decider: Decider | None = None,
) -> Verdict:
    """Judge `answer` to `question` against the stored `evidence`.

    `question_type` is HotpotQA's `bridge` or `comparison` when known; without
    it, a yes/no answer, or a choice between two named alternatives ("X or
    Y?"), is checked as a comparison. `lexicon` says what names are (see
    `NameLexicon`); without it only the stored evidence does. `decider` decides
    whether a stated year, number or name answers the question (default: the
    hand rules, each a veto; the agent passes the learned combiner, see
    `graph.verifier.combiner`).
    """
    if not analyse(answer).tokens:
        return reject(REASON_EMPTY, [])
    if not evidence:
        return reject(REASON_NO_EVIDENCE.format(answer=answer), [answer.strip()])
    check = Check(question, answer, stored_items(evidence), lexicon)
    q, folded = check.q, check.folded
    yes_no = folded.tokens in (("yes",), ("no",))
    if q.strict_yes_no and not yes_no and q.pair_kind != "or":
        return reject(REASON_YES_NO_EXPECTED.format(answer=answer), [])
    if yes_no and not q.asks_yes_no:
        return reject(REASON_YES_NO_UNEXPECTED.format(answer=answer), [])
    if q.asks_year and not any(len(t) in (3, 4) and t.isdigit() for t in folded.tokens):
        return reject(REASON_YEAR_EXPECTED.format(answer=answer), [])
    if q.asks_person and all(is_number(t) or t in MONTH_NAMES for t in folded.tokens):
        return reject(REASON_PERSON_EXPECTED.format(answer=answer), [])
    if q.asks_number and not any(is_number(t) for t in folded.tokens):
        return reject(REASON_NUMBER_EXPECTED.format(answer=answer), [])
    comparison = question_type == "comparison"
    chosen = None if yes_no or not q.pair else alternative(folded, q.pair)
    choice_question = q.pair_kind == "or" and q.pair_named
    if (
        q.pair_kind == "and"
        and q.pair_named
        and q.asks_which
        and chosen is not None
        and names_same(folded, q.pair[chosen])
    ):
        choice_question = True
    if choice_question and chosen is None and not yes_no:
        alternatives = " or ".join(repr(" ".join(name.tokens)) for name in q.pair)
        return reject(REASON_NOT_ALTERNATIVE.format(alternatives=alternatives, answer=answer), [])
    choice = chosen is not None and (choice_question or comparison)
    if yes_no or choice:
        return computed(check, yes_no=yes_no, chosen=chosen)
    if comparison:
        return stated_comparison(check)
    found, missing = check.locate()
    if found is None:
        return explain_missing(check, missing)
    misread = (
        rank_problem(check)
        or range_problem(check)
        or title_problem(check)
        or respectively_problem(check)
    )
    if misread is not None:
        return misread
    reading = check.read()
    if reading.kind is None:
        return supported(check, found, reading)
    wrong_kind = kind_problem(check, found, reading) or unit_problem(check, found, reading)
    if wrong_kind is not None:
        return wrong_kind
    decision = (decider or RULES).decide(check, found, reading)
    objection = rule_problem(check, reading)
    if not decision.accepted:
        return refused(check, found, reading, objection, decision.said)
    return event_problem(check) or supported(check, found, reading, objection, decision.said)
