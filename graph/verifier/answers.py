"""Verdicts on an answer that a stored sentence should state: where it is stated, or
the most useful reason why no trusted related sentence states it."""

from __future__ import annotations

from graph.verifier.evidence.matching import contains, probe_of
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.read.ties import SUBJECT_CUES, Problem, loose, wanted
from graph.verifier.rules.aliases import spelled_out
from graph.verifier.rules.converted import converted_from
from graph.verifier.rules.derived import derived_from
from graph.verifier.rules.rounding import related_numbers, rounded_from
from graph.verifier.text.normalise import is_number
from graph.verifier.trust.denials import negated
from graph.verifier.verdicts import (
    GROUNDING_STATED,
    MATCH_PARAPHRASE,
    citation,
    ground,
    reject,
    unique,
    verdict,
)
from tools.base import Verdict

REASON_CONTAINED = "{answer!r} is stated in stored {cite}"
REASON_TITLE = "{answer!r} is the subject of page {title!r} (stored {cite})"
REASON_PARAPHRASE = "Every part of {answer!r} is stated in stored {cite}, though not as one span"
TIED_BY_RELATION = "; it is the {kind} nearest {word!r} there, what the question asks about"
TIED_BY_DESCRIPTION = (
    "; it is the year of what the sentence describes ({described!r}), the date the question"
    " asks for"
)
TIED_BY_SUBJECT = "; it is the subject of a stored page that shares {count} of the question's words"
TIED_BY_NOUN = "; the question's {noun!r} stands next to it"
TIED_BY_SENTENCE = "; its sentence shares {count} of the question's words"
OF_CLASS = "; it is {what}, as the question asks for {wanted}"
REASON_REJECTED = "{answer!r} is stated in stored {cite}, but {clause}"
ACCEPTED_THOUGH = "; {said}, though {clause}"
REASON_NOT_STATED = "No stored sentence states {missing}."
REASON_UNRELATED = "{answer!r} appears only in stored {cite}, unrelated to the question."
REASON_INJECTED = (
    "{answer!r} appears only inside instruction-like text in an observation ({cite}),"
    " which is never evidence."
)
REASON_NAMESAKE = (
    "{answer!r} appears only in stored {cite}, on {pages}: another work of the name the"
    " question asks about, as its kind or year shows."
)
REASON_CONTRADICTED = "{answer!r} is denied by stored {cite}."
REASON_OTHER_VALUE = "No stored sentence states {answer!r}; related stored sentences give {values}."
REASON_ACRONYM = (
    "{answer!r} is written nowhere, but it is the initials of {name!r}, which stored"
    " {cite} states; how it answers the question is not read from initials."
)
REASON_CONVERTED = (
    "{answer!r} is a measure in another unit: stored {cite} gives {value}, which converts to"
    " it; how it answers the question is not read from a converted value."
)
REASON_DERIVED = (
    "{answer!r} is read off stored {cite}: it is {how}; how it answers the question is not"
    " read from a derived value."
)
REASON_ROUNDED = (
    "{answer!r} is a round number: stored {cite} gives {value}, which rounds to it; how it"
    " answers the question is not read from a rounded value."
)

# How many of the other values a reason names.
SHOWN_VALUES = 5


def _tie(check: Check, reading: Reading) -> str:
    """Why the answer answers this question: what ties it, and its class."""
    said = ""
    nearest = min(reading.placements, key=lambda p: p.relation_distance, default=None)
    if reading.slot and nearest is not None and nearest.described:
        said = TIED_BY_DESCRIPTION.format(described=nearest.described)
    elif reading.slot and nearest is not None and nearest.relation_word:
        said = TIED_BY_RELATION.format(kind=reading.kind, word=nearest.relation_word)
    elif reading.subject_cues >= SUBJECT_CUES:
        said = TIED_BY_SUBJECT.format(count=reading.subject_cues)
    elif reading.head_adjacent:
        said = TIED_BY_NOUN.format(noun=check.expected.noun)
    elif reading.sentence_cues:
        said = TIED_BY_SENTENCE.format(count=reading.sentence_cues)
    if reading.classified.fits(check.expected):
        said += OF_CLASS.format(what=reading.classified.why(), wanted=wanted(check))
    return said


def supported(
    check: Check,
    found: Found,
    reading: Reading | None = None,
    objection: Problem | None = None,
    said: str = "",
) -> Verdict:
    """The answer is stated (and, with a reading, tied to the question): say where and why,
    and what a rule objects that the combiner outweighed (`said`: its score)."""
    cite = citation(found.ids)
    if found.title:
        reason = REASON_TITLE.format(cite=cite, title=found.title, answer=check.answer)
    elif found.match == MATCH_PARAPHRASE:
        reason = REASON_PARAPHRASE.format(cite=cite, answer=check.answer)
    else:
        reason = REASON_CONTAINED.format(cite=cite, answer=check.answer)
    if reading is not None:
        reason += _tie(check, reading)
    if objection is not None:
        reason += ACCEPTED_THOUGH.format(said=said, clause=objection.clause)
    return verdict(True, found.ids, reason + ".", [], GROUNDING_STATED)


def refused(
    check: Check, found: Found, reading: Reading, objection: Problem | None, said: str = ""
) -> Verdict:
    """A stated answer the combiner (or a rule) refuses: what is wrong, and the score."""
    problem = objection or loose(check, reading)
    reason = REASON_REJECTED.format(
        answer=check.answer, cite=citation(found.ids), clause=problem.clause
    )
    return reject(f"{reason}{'; ' + said if said else ''}.", [problem.missing])


def _other_values(check: Check, digits: set[int]) -> list[str]:
    """The first `SHOWN_VALUES` numbers of as many digits as the answer's that related
    sentences state (a reason names no more; the sentences after are not read)."""
    if not digits:
        return []
    values: dict[str, None] = {}
    for _, found in related_numbers(check, lambda value: len(value) in digits):
        values.update(dict.fromkeys(found))
        if len(values) >= SHOWN_VALUES:
            break
    return list(values)[:SHOWN_VALUES]


def explain_missing(check: Check, missing: list[str]) -> Verdict:
    """The most useful reason for an answer that no trusted related sentence states."""
    answer, folded = check.answer, check.folded
    probe = probe_of(folded)
    stating = [item for item in check.containing(probe) if contains(item.text, folded)]
    untrusted = [item.id for item in stating if not item.trusted]
    if untrusted:
        return reject(REASON_INJECTED.format(answer=answer, cite=citation(untrusted)), missing)
    denied = [item.id for item in stating if negated(item.text, folded, check.denials)]
    if denied:
        return reject(REASON_CONTRADICTED.format(answer=answer, cite=citation(denied)), missing)
    if stating and all(item.page in check.namesakes for item in stating):
        pages = ", ".join(repr(page) for page in unique(item.page for item in stating))
        ids = [item.id for item in stating]
        reason = REASON_NAMESAKE.format(answer=answer, cite=citation(ids), pages=pages)
        return ground(ids, reason, missing, GROUNDING_STATED)
    if stating:
        ids = [item.id for item in stating]
        reason = REASON_UNRELATED.format(answer=answer, cite=citation(ids))
        return ground(ids, reason, missing, GROUNDING_STATED)
    spelled = spelled_out(check)
    if spelled is not None:
        name, ids = spelled
        reason = REASON_ACRONYM.format(answer=answer, name=name, cite=citation(ids))
        return ground(ids, reason, missing, GROUNDING_STATED)
    rounded = rounded_from(check)
    if rounded is not None:
        ids, value = rounded
        reason = REASON_ROUNDED.format(answer=answer, cite=citation(ids), value=value)
        return ground(ids, reason, missing, GROUNDING_STATED)
    converted = converted_from(check)
    if converted is not None:
        ids, value = converted
        reason = REASON_CONVERTED.format(answer=answer, cite=citation(ids), value=value)
        return ground(ids, reason, missing, GROUNDING_STATED)
    derived = derived_from(check)
    if derived is not None:
        ids, how = derived
        reason = REASON_DERIVED.format(answer=answer, cite=citation(ids), how=how)
        return ground(ids, reason, missing, GROUNDING_STATED)
    values = _other_values(check, {len(token) for token in folded.tokens if is_number(token)})
    if values:
        return reject(REASON_OTHER_VALUE.format(answer=answer, values=", ".join(values)), missing)
    return reject(
        REASON_NOT_STATED.format(missing=" or ".join(repr(part) for part in missing)), missing
    )
