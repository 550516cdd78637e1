"""What a question asks for by its form that a stated answer does not give: a date
("when", "the birth date of"), a quantity asked by its noun ("at what age", "the seating
capacity of"), a nationality. Each grounds the answer and never rejects it: "Christmas"
answers "when?", and no list of number words or demonyms is complete."""

from __future__ import annotations

from graph.verifier.read.check import Check
from graph.verifier.text.categories import DEMONYMS, PLACE
from graph.verifier.text.normalise import MONTH_NAMES, is_number, split_words

# Words that make an answer a date without a digit: "May", "the early twentieth century".
_DATE_WORDS = frozenset([*MONTH_NAMES, "century", "centuries", "decade", "millennium"])
# Words that make an answer a number without a digit ("a dozen", "hundreds").
_NUMBER_WORDS = frozenset(
    split_words("dozen dozens hundred hundreds thousand thousands million millions billion half")
)


def unasked(check: Check) -> str | None:
    """The date or quantity the question asks that the answer does not give, as the
    clause that says so, or None: a date needs a digit, a month or a period word; a
    quantity a number or a number word."""
    q, tokens = check.q, check.folded.tokens
    digit = any(c.isdigit() for c in check.answer) or any(map(is_number, tokens))
    if q.asks_date and not digit and _DATE_WORDS.isdisjoint(tokens):
        return "when, and it gives no date"
    if q.asks_quantity and not digit and _NUMBER_WORDS.isdisjoint(tokens):
        return "how much or how many, and it gives no number"
    return None


def gives_asked_nationality(check: Check) -> bool:
    """The question asks for a nationality and the answer ends in a people's adjective
    ("South Korean")."""
    tokens = check.folded.tokens
    return check.expected.noun == "nationality" and bool(tokens) and tokens[-1] in DEMONYMS


def unnamed_nationality(check: Check, known: frozenset[str]) -> str | None:
    """The clause saying the question asks for a nationality (not yes or no) and the
    answer, of the classes `known`, holds no demonym nor names a place; or None."""
    if check.expected.noun != "nationality" or check.q.asks_yes_no or PLACE in known:
        return None
    if not DEMONYMS.isdisjoint(check.folded.tokens):
        return None
    return "a nationality, and it names none"
