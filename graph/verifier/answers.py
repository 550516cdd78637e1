"""Verdicts on an answer that a stored sentence should state: where it is stated, or
the most useful reason why no trusted related sentence states it."""

from __future__ import annotations

import re

from graph.verifier.check import Check, Found
from graph.verifier.matching import contains, negated, probe_of
from graph.verifier.normalise import is_number
from graph.verifier.verdicts import GROUNDING_PARAPHRASE, citation, reject, unique, verdict
from tools.base import Verdict

REASON_CONTAINED = "{answer!r} is stated in stored {cite}."
REASON_TITLE = (
    "Stored {cite} from page {title!r} answers the question, and {answer!r} is that page's subject."
)
REASON_PARAPHRASE = (
    "Every part of {answer!r} is stated in stored {cite}, though not as one verbatim span."
)
REASON_NOT_STATED = "No stored sentence states {missing}."
REASON_UNRELATED = "{answer!r} appears only in stored {cite}, unrelated to the question."
REASON_INJECTED = (
    "{answer!r} appears only inside instruction-like text in an observation ({cite}),"
    " which is never evidence."
)
REASON_CONTRADICTED = "{answer!r} is denied by stored {cite}."
REASON_OTHER_VALUE = "No stored sentence states {answer!r}; related stored sentences give {values}."

_PADDED_NUMBER = re.compile(r"(?<= )\d[\d.]*(?= )")


def supported(check: Check, found: Found) -> Verdict:
    cite = citation(found.ids)
    if found.title:
        reason = REASON_TITLE.format(cite=cite, title=found.title, answer=check.answer)
    elif found.grounding == GROUNDING_PARAPHRASE:
        reason = REASON_PARAPHRASE.format(cite=cite, answer=check.answer)
    else:
        reason = REASON_CONTAINED.format(cite=cite, answer=check.answer)
    return verdict(True, found.ids, reason, [], found.grounding)


def explain_missing(check: Check, missing: list[str]) -> Verdict:
    """The most useful reason for an answer that no trusted related sentence states."""
    answer, folded = check.answer, check.folded
    probe = probe_of(folded)
    stating = [
        item for item in check.items if item.may_contain(probe) and contains(item.text, folded)
    ]
    untrusted = [item.id for item in stating if not item.trusted]
    if untrusted:
        return reject(REASON_INJECTED.format(answer=answer, cite=citation(untrusted)), missing)
    denied = [item.id for item in stating if negated(item.text, folded)]
    if denied:
        return reject(REASON_CONTRADICTED.format(answer=answer, cite=citation(denied)), missing)
    if stating:
        unrelated = citation(item.id for item in stating)
        return reject(REASON_UNRELATED.format(answer=answer, cite=unrelated), missing)
    digits = {len(token) for token in folded.tokens if is_number(token)}
    values = unique(
        token
        for item in check.items
        if digits and item.trusted and check.directly_related(item.page)
        for token in _PADDED_NUMBER.findall(item.text.padded)
        if len(token) in digits
    )
    if values:
        return reject(
            REASON_OTHER_VALUE.format(answer=answer, values=", ".join(values[:5])), missing
        )
    return reject(
        REASON_NOT_STATED.format(missing=" or ".join(repr(part) for part in missing)), missing
    )
