"""Comparison questions: a yes/no or an either/or answer is accepted only when the
comparison computed from the stored evidence (`graph.verifier.rules.compute`) agrees with
it; a value answer ("what profession do they share?") must be stated."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise

from graph.verifier.answers import explain_missing
from graph.verifier.evidence.candidates import YEAR, find_all
from graph.verifier.evidence.matching import Item
from graph.verifier.read.attributes import (
    GENRE_WORDS,
    OCCUPATION_WORDS,
    attribute_of,
    conflict,
    covered,
    demonyms_of,
    genres_of,
    occupations_of,
    shared_occupation,
)
from graph.verifier.read.check import Check
from graph.verifier.read.relation import question_cues
from graph.verifier.rules.compared_facts import entity_name, entity_stems, facts_of, untitled_ids
from graph.verifier.rules.compute import (
    NATIONALITY_WORDS,
    Measured,
    counted_words,
    date_of,
    direction,
    named_next_to,
    number_of,
)
from graph.verifier.rules.shared_values import DATE_NOUNS, KIND_OF, SAME, taxa
from graph.verifier.rules.superlatives import unmeasured_winner
from graph.verifier.text.normalise import Text
from graph.verifier.verdicts import (
    GROUNDING_COMPUTED,
    GROUNDING_STATED,
    GROUNDING_UNDECIDED,
    citation,
    ground,
    reject,
    unique,
    verdict,
)
from tools.base import Verdict

REASON_COMPUTED = "Computed from the stored evidence: {facts}; so {conclusion}."
REASON_DISAGREES = (
    "Computed from the stored evidence: {facts}; so {conclusion}, which {answer!r} contradicts."
)
REASON_UNDECIDED = "The comparison cannot be computed from the stored evidence: {why}."
REASON_UNTITLED = (
    "{computed} Read without a stored page title ({cite}), a sentence is tied to an"
    " entity only by the names in it, so this does not settle it."
)
REASON_COMPARISON_STATED = (
    "{answer!r} is stated in stored {cite}, and there is stored evidence about each compared"
    " entity ({entities})."
)
REASON_ENTITY_MISSING = (
    "A comparison needs stored evidence about each compared entity; none is stored about {missing}."
)
NO_VALUE = "no {what} is stored for {entity!r}"
UNTIED = "which compared entity stored {cite} is about"
OTHER_UNITS = "{first!r} and {second!r} do not measure the same quantity"
SAME_VALUE = "{first!r} and {second!r} have the same {what} ({value})"
NO_ATTRIBUTE = "the question names no attribute to compare"
UNDECIDED_ATTRIBUTE = "the stored evidence does not show which of them is {attribute!r}"
UNDECIDED_BOTH = "the stored evidence does not state {attribute!r} of both"
_SHOWN_GAP = 2


@dataclass(frozen=True, slots=True)
class Outcome:
    """A computed comparison: the winning entity (or yes/no), and the facts behind it."""

    winner: int | None = None
    holds: bool | None = None
    facts: str = ""
    ids: tuple[str, ...] = ()
    why_undecided: str = ""
    grounding: str = GROUNDING_COMPUTED


def _measured(entities: tuple[Text, ...], values: list[Measured]) -> str:
    return "; ".join(
        f"{entity_name(entity)}: {value.shown} ({value.item.id})"
        for entity, value in zip(entities, values, strict=True)
    )


def _by_value(
    check: Check, facts: list[list[Item]], compared: tuple[str, int], inside: frozenset[int]
) -> Outcome:
    what, sign = compared
    cues = question_cues(check.question)
    entities = check.entities[:2]
    words = check.q.text.tokens
    if what == "date":
        values = [date_of(items, cues.relation_for(YEAR)) for items in facts]
    else:
        counted, units = counted_words(words, cues, inside)
        values = [number_of(items, counted, units) for items in facts]
    for entity, value in zip(entities, values, strict=True):
        if value is None:
            unmeasured = NO_VALUE.format(what=what, entity=entity_name(entity))
            return (
                _by_rank(check, facts, inside, unmeasured)
                if sign != SAME
                else Outcome(why_undecided=unmeasured)
            )
    found = [value for value in values if value is not None]
    shown, ids = _measured(entities, found), tuple(value.item.id for value in found)
    if sign == SAME:
        return Outcome(holds=found[0].value[0] == found[1].value[0], facts=shown, ids=ids)
    if found[0].dimension != found[1].dimension:
        return Outcome(
            why_undecided=OTHER_UNITS.format(first=found[0].shown, second=found[1].shown)
        )
    if found[0].value == found[1].value:
        why = SAME_VALUE.format(
            first=entity_name(entities[0]),
            second=entity_name(entities[1]),
            what=what,
            value=found[0].shown,
        )
        return Outcome(why_undecided=why)
    first_wins = (found[0].value > found[1].value) == (sign > 0)
    return Outcome(winner=0 if first_wins else 1, holds=first_wins, facts=shown, ids=ids)


def _by_rank(
    check: Check, facts: list[list[Item]], inside: frozenset[int], unmeasured: str
) -> Outcome:
    """A comparison no value decides: by ranks or a stated superlative, else undecided."""
    names = [entity_name(entity) for entity in check.entities[:2]]
    found = unmeasured_winner(check.q.text.tokens, inside, facts, names)
    if found is None:
        return Outcome(why_undecided=unmeasured)
    winner, shown, ids, computed_from_ranks = found
    grounding = GROUNDING_COMPUTED if computed_from_ranks else GROUNDING_STATED
    return Outcome(winner, winner == 0, shown, ids, grounding=grounding)


def _same_kind(check: Check, facts: list[list[Item]], what: str) -> Outcome:
    """ "Same profession?" from the categories of person each lead describes (yes on one
    shared, no when none is); "same genre?" from the words before them (yes on one shared,
    else undecided: genres have too many names to tell different ones apart)."""
    occupations = what in OCCUPATION_WORDS
    values = [(occupations_of if occupations else genres_of)(items) for items in facts]
    holds = (
        shared_occupation(values[0], values[1])
        if occupations
        else (bool(values[0] & values[1]) or None)
    )
    shown = "; ".join(
        f"{entity_name(entity)}: {', '.join(sorted(value)) or 'none'}"
        for entity, value in zip(check.entities[:2], values, strict=True)
    )
    if holds is None:
        return Outcome(why_undecided=f"no {what} of both is stored ({shown})")
    return Outcome(holds=holds, facts=shown, ids=tuple(i.id for it in facts for i in it))


def _same_values(check: Check, facts: list[list[Item]]) -> Outcome:
    words = check.q.text.tokens
    entities = check.entities[:2]
    after = words.index("same") + 1
    if words[after : after + 2] in KIND_OF:
        after += 2
        if words[after : after + 1] == ("work",):
            return _same_kind(check, facts, "profession")
    if after < len(words) and words[after] in OCCUPATION_WORDS | GENRE_WORDS:
        return _same_kind(check, facts, words[after])
    if set(words) & NATIONALITY_WORDS:
        values = [demonyms_of(items) for items in facts]
        what = "nationality"
    else:
        what = words[after] if after < len(words) else "value"
        if what in DATE_NOUNS:
            return _by_value(check, facts, ("date", SAME), frozenset())
        own = {token for entity in entities for token in entity.tokens}
        values = [
            frozenset(
                name
                for name in named_next_to(items, what) | taxa(items, what)
                if own.isdisjoint(name.split())
            )
            for items in facts
        ]
    shown = "; ".join(
        f"{entity_name(entity)}: {', '.join(sorted(value)) or 'none'}"
        for entity, value in zip(entities, values, strict=True)
    )
    ids = tuple(item.id for items in facts for item in items)
    if values[0] & values[1]:
        return Outcome(holds=True, facts=shown, ids=ids)
    if values[0] and values[1]:
        return Outcome(holds=False, facts=shown, ids=ids)
    return Outcome(why_undecided=f"no {what} of both is stored ({shown})")


def _by_attribute(check: Check, facts: list[list[Item]], yes_no: bool) -> Outcome:
    cues = question_cues(check.question)
    core, rest = attribute_of(check.q.text.tokens, cues, entity_stems(check, facts))
    attribute = core | rest
    if not attribute:
        return Outcome(why_undecided=NO_ATTRIBUTE)
    entities = check.entities[:2]
    found = [covered(items, attribute) for items in facts]
    shown = "; ".join(
        f"{entity_name(entity)} states {', '.join(sorted(words)) or 'none'}"
        f" of {', '.join(sorted(attribute))}"
        for entity, words in zip(entities, found, strict=True)
    )
    ids = tuple(item.id for items in facts for item in items)
    if yes_no:
        if all(words == attribute for words in found):
            return Outcome(holds=True, facts=shown, ids=ids)
        conflicts = [conflict(items, core, rest) for items in facts]
        if any(conflicts):
            facts_shown = f"{shown}; {'; '.join(c for c in conflicts if c)}"
            return Outcome(holds=False, facts=facts_shown, ids=ids)
    elif len(found[0]) != len(found[1]):
        winner = 0 if len(found[0]) > len(found[1]) else 1
        return Outcome(winner=winner, facts=shown, ids=ids)
    undecided = UNDECIDED_BOTH if yes_no else UNDECIDED_ATTRIBUTE
    return Outcome(
        why_undecided=undecided.format(attribute=_phrase(check.q.text.tokens, attribute))
    )


def _phrase(words: tuple[str, ...], attribute: frozenset[str]) -> str:
    """The attribute's words in the question's order with up to two words between them
    ("projects in new york"); a longer gap (the compared names, say) is an ellipsis."""
    at = [index for index, word in enumerate(words) if word in attribute]
    if not at:
        return " ".join(sorted(attribute))
    shown = [words[at[0]]]
    for before, index in pairwise(at):
        gap = words[before + 1 : index]
        shown.extend([*gap, words[index]] if len(gap) <= _SHOWN_GAP else ["…", words[index]])
    return " ".join(shown)


def _outcome(check: Check, facts: list[list[Item]], yes_no: bool) -> Outcome:
    words = check.q.text.tokens
    inside = frozenset(
        index
        for entity in check.entities[:2]
        for start, end in find_all(words, entity.tokens)
        for index in range(start, end)
    )
    compared = direction(words, inside)
    if compared is not None:
        return _by_value(check, facts, compared, inside)
    if yes_no and "same" in words:
        return _same_values(check, facts)
    return _by_attribute(check, facts, yes_no)


def computed(check: Check, *, yes_no: bool, chosen: int | None) -> Verdict:
    """Accept a yes/no or either/or answer only if the computed comparison agrees."""
    if len(check.entities) < 2:
        return undecided(
            REASON_ENTITY_MISSING.format(missing="a second entity"), ["a second entity"]
        )
    facts, missing = facts_of(check)
    if missing:
        return undecided(
            REASON_ENTITY_MISSING.format(missing=" and ".join(repr(m) for m in missing)), missing
        )
    outcome = _outcome(check, facts, yes_no)
    if outcome.why_undecided:
        reason = REASON_UNDECIDED.format(why=outcome.why_undecided)
        return undecided(reason, [outcome.why_undecided], outcome.ids)
    if yes_no:
        expected = "yes" if outcome.holds else "no"
        agrees = check.folded.tokens == (expected,)
        conclusion = f"the answer is {expected!r}"
    else:
        winner = entity_name(check.entities[outcome.winner or 0])
        agrees = chosen == outcome.winner
        conclusion = f"the answer is {winner!r}"
    if not agrees:
        reason = REASON_DISAGREES.format(
            facts=outcome.facts, conclusion=conclusion, answer=check.answer
        )
        untitled = untitled_ids(facts, outcome.ids)
        if untitled:
            cited = citation(untitled)
            reason = REASON_UNTITLED.format(computed=reason, cite=cited)
            untied = UNTIED.format(cite=cited)
            return ground(unique(outcome.ids), reason, [untied], GROUNDING_UNDECIDED)
        return reject(reason, [conclusion])
    reason = REASON_COMPUTED.format(facts=outcome.facts, conclusion=conclusion)
    return verdict(True, unique(outcome.ids), reason, [], outcome.grounding)


def stated_comparison(check: Check) -> Verdict:
    """A value answer to a comparison question: stated, with evidence about each entity."""
    ids, uncovered = check.coverage(mentions=True)
    names = ", ".join(entity_name(entity) for entity in check.entities)
    found, missing = check.locate()
    if found is None:
        return explain_missing(check, missing)
    if uncovered and (check.q.pair or len(check.entities) - len(uncovered) < 2):
        reason = REASON_ENTITY_MISSING.format(missing=" and ".join(repr(m) for m in uncovered))
        return ground([*found.ids, *ids], reason, uncovered, GROUNDING_STATED)
    reason = REASON_COMPARISON_STATED.format(
        cite=citation(found.ids), answer=check.answer, entities=names
    )
    return verdict(True, [*found.ids, *ids], reason, [], GROUNDING_STATED)


def undecided(reason: str, missing: list[str], ids: Iterable[str] = ()) -> Verdict:
    """A comparison the stored evidence cannot decide: grounded, never rejected."""
    return ground(ids, reason, missing, GROUNDING_UNDECIDED)
