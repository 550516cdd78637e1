"""Comparison questions (yes/no, or pick one of two): grounded by evidence about each
compared entity, since no sentence states the comparison itself."""

from __future__ import annotations

from graph.verifier.answers import explain_missing
from graph.verifier.check import Check
from graph.verifier.matching import STOPWORDS
from graph.verifier.normalise import Text
from graph.verifier.verdicts import GROUNDING_COMPARISON, citation, reject, verdict
from tools.base import Verdict

REASON_COMPARISON = (
    "Grounded, not entailed: there is stored evidence about each compared entity ({entities};"
    " {cite}), but no sentence states the comparison behind {answer!r}."
)
REASON_COMPARISON_STATED = (
    "{answer!r} is stated in stored {cite}, and there is stored evidence about each compared"
    " entity ({entities})."
)
REASON_ENTITY_MISSING = (
    "A comparison needs stored evidence about each compared entity; none is stored about {missing}."
)


def names_same(answer: Text, name: Text) -> bool:
    """One name's words include the other's (`Irwin Shaw` ~ `Irwin Gilbert Shaw`)."""
    return set(answer.tokens) <= set(name.tokens) or set(name.tokens) <= set(answer.tokens)


def alternative(answer: Text, pair: tuple[Text, ...]) -> int | None:
    """Which of the two alternatives the answer names, if exactly one."""
    scores = [len(set(answer.tokens).intersection(name.tokens) - STOPWORDS) for name in pair]
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return None
    return scores.index(best)


def compare(check: Check, *, stated: bool) -> Verdict:
    """A comparison: evidence about each compared entity, plus the answer when it is a value."""
    ids, uncovered = check.coverage(mentions=stated)
    names = ", ".join(" ".join(entity.tokens) for entity in check.entities)
    if not check.entities:
        pages = {item.page for item in check.items if item.trusted and check.related(item)}
        if len(pages) < 2:
            return reject(
                REASON_ENTITY_MISSING.format(missing="a second entity"),
                ["a second compared entity"],
            )
        ids = [item.id for item in check.items if item.trusted and check.related(item)]
    elif uncovered and (check.q.pair or len(check.entities) - len(uncovered) < 2):
        return reject(
            REASON_ENTITY_MISSING.format(missing=" and ".join(repr(m) for m in uncovered)),
            uncovered,
        )
    if not stated:
        reason = REASON_COMPARISON.format(cite=citation(ids), entities=names, answer=check.answer)
        return verdict(True, ids, reason, [], GROUNDING_COMPARISON)
    found, missing = check.locate()
    if found is None:
        return explain_missing(check, missing)
    reason = REASON_COMPARISON_STATED.format(
        cite=citation(found.ids), answer=check.answer, entities=names
    )
    return verdict(True, [*found.ids, *ids], reason, [], found.grounding)
