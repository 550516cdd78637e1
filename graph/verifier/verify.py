"""The verdict, as one pipeline: normalise the answer, check its form against the
question, locate it in the stored evidence, read how the evidence ties it to the
question, score the tie, and give the outcome.

Only a definite failure rejects (see `graph.verifier` for the list). An answer the
evidence states, that nothing contradicts, but whose tie to the question cannot be
confirmed is *grounded*; a confirmed tie (computed, or scored above the combiner's
threshold) is *verified*.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from graph.verifier.answer_aside import without_aside
from graph.verifier.answer_asked import as_said
from graph.verifier.answer_forms import core_answer, without_disambiguation
from graph.verifier.answer_yes_no import yes_or_no_said
from graph.verifier.answers import explain_missing, refused, supported
from graph.verifier.evidence.matching import contains
from graph.verifier.evidence.stored import as_read, stored_items
from graph.verifier.kinds.answer_types import NameLexicon
from graph.verifier.kinds.described import is_described_bridge
from graph.verifier.kinds.kind_asked import REASON_NAMED_FOR_KIND, kind_asked, named_for_kind
from graph.verifier.kinds.lexicon import name_key
from graph.verifier.kinds.lexicon_store import shared_lexicon
from graph.verifier.kinds.other_kinds import (
    PLACE,
    REASON_OTHER_KIND,
    WORK,
    OtherKind,
    other_kind,
)
from graph.verifier.kinds.places import demonym_of
from graph.verifier.kinds.question import analyse_question
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.read.ties import (
    class_problem,
    kind_problem,
    rule_problem,
    unit_problem,
    wanted,
    with_article,
)
from graph.verifier.rules.choices import (
    REASON_PARTIAL_CHOICE,
    alternative,
    joined_choice,
    partial_choice,
)
from graph.verifier.rules.comparison import computed, stated_comparison
from graph.verifier.rules.derived import nationality_for_country
from graph.verifier.rules.events import event_problem
from graph.verifier.rules.forms import choice_question, form_problem
from graph.verifier.rules.name_parts import part_of_longer_name
from graph.verifier.rules.named_otherwise import (
    qualified,
    spelled_initials,
    without_middle_names,
)
from graph.verifier.rules.ranges import range_problem
from graph.verifier.rules.ranks import rank_problem
from graph.verifier.rules.respectively import respectively_problem
from graph.verifier.rules.titles import title_problem
from graph.verifier.rules.unasked import gives_asked_nationality, unasked, unnamed_nationality
from graph.verifier.score.combiner import Decider, load_combiner
from graph.verifier.text.casing import cased_as_written, may_be_recased, recased
from graph.verifier.text.categories import ACTS_FOR
from graph.verifier.text.clean import without_breaks
from graph.verifier.text.normalise import analyse, is_number, singular
from graph.verifier.text.question_text import as_asked
from graph.verifier.text.wordstems import SHORTEST_MISSPELT, STOPWORDS, misspelt
from graph.verifier.verdicts import (
    GROUNDING_COMPUTED,
    GROUNDING_STATED,
    citation,
    demote,
    ground,
    reject,
)
from tools.base import Evidence, Verdict

REASON_EMPTY = "The answer is empty, so there is nothing to check."
REASON_NO_EVIDENCE = "No evidence is stored yet, so no sentence can support {answer!r}."
REASON_NAMED_IN_QUESTION = (
    "{answer!r} is stated in stored {cite}, but the question itself names it, so it is"
    " more likely what the question starts from than what it asks for."
)

REASON_DESCRIBED = (
    "{answer!r} is stated in stored {cite}, but its article calls it {described}: the {noun}"
    " the question describes, not what it asks for."
)
REASON_NOT_GIVEN = "{answer!r} is stated in stored {cite}, but the question asks {asked}."
REASON_WRONG_CLASS = "{answer!r} is stated in stored {cite}, but {clause}."
REASON_NATIONALITY = (
    "{answer!r} is stated in stored {cite}, but it is a nationality where the question asks"
    " for {wanted}: it names that country by its people."
)
# Readings of a stated answer that say its sentence gives it another role (ranked
# otherwise, one end of a range, inside a quoted title, paired with another key): each
# grounds it, never rejects it.
MISREADINGS: tuple[Callable[[Check], Verdict | None], ...] = (
    rank_problem,
    range_problem,
    title_problem,
    respectively_problem,
)


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

    Called with no options, this is exactly the agent's verifier (without a judge).
    `question_type` is HotpotQA's `bridge` or `comparison` when known; without it, a
    yes/no answer, or a choice between two named alternatives ("X or Y?"), is checked
    as a comparison. `lexicon` says what names are (default: the snapshot's leads, see
    `NameLexicon`); `decider` scores a stated year, number or name against the question
    (default: the learned combiner, see `graph.verifier.score.combiner`). A stored text
    whose `source` gives no `sentence_index` may be a passage: it is read sentence by
    sentence under its id. Raises TypeError or ValueError on a question, answer or
    evidence of the wrong kind.
    """
    if not isinstance(question, str) or not isinstance(answer, str):
        kinds = f"{type(question).__name__} and {type(answer).__name__}"
        raise TypeError(f"the question and the answer must be strings, not {kinds}")
    question, answer = without_breaks(question), core_answer(as_read(answer))
    if not analyse(answer).tokens:
        return reject(REASON_EMPTY, [])
    if not evidence:
        return reject(REASON_NO_EVIDENCE.format(answer=answer), [answer.strip()])
    lexicon = shared_lexicon() if lexicon is None else lexicon
    items = stored_items(evidence)
    asked = analyse_question(question)
    answer = without_aside(answer, asked.asks_year or asked.asks_date or asked.asks_number)
    answer = as_said(question, answer, items)
    question = recased(as_asked(question), ((i.raw, i.title) for i in items if i.trusted))
    answer = yes_or_no_said(question, answer)
    answer = without_disambiguation(answer, (item.title for item in items))
    if may_be_recased(answer):
        answer = cased_as_written(answer, [i.raw for i in items], [i.title for i in items])
    check = Check(question, answer, items, lexicon)
    misformed = form_problem(check)
    if misformed is not None:
        return misformed
    comparison = question_type == "comparison"
    yes_no = check.folded.tokens in (("yes",), ("no",))
    chosen, choice = _choice(check, comparison, yes_no)
    if yes_no or choice:
        result = computed(check, yes_no=yes_no, chosen=chosen)
        if chosen is None or not check.q.pair:
            return result
        joined = joined_choice(check, chosen)
        if joined is not None:
            return joined
        name = " ".join(check.q.pair[chosen].tokens)
        if result["supported"] and partial_choice(check, chosen):
            reason = REASON_PARTIAL_CHOICE.format(answer=check.answer, name=name)
            return ground(
                result["evidence_ids"], f"{result['reason']} {reason}", [name], GROUNDING_COMPUTED
            )
        return result
    if comparison:
        return stated_comparison(check)
    found, missing = check.locate()
    if found is None:
        return (
            qualified(check, missing)
            or spelled_initials(check)
            or without_middle_names(check)
            or explain_missing(check, missing)
        )
    return _stated(check, found, decider or load_combiner().full)


def _choice(check: Check, comparison: bool, yes_no: bool) -> tuple[int | None, bool]:
    """Which alternative the answer names, and whether it is checked as a choice."""
    chosen = None if yes_no or not check.q.pair else alternative(check.folded, check.q.pair)
    return chosen, chosen is not None and (choice_question(check) or comparison)


def _stated(check: Check, found: Found, decider: Decider) -> Verdict:
    """The outcome for an answer the evidence states: definite failures of its name
    reject; a misread or loose tie grounds; a tie the decider confirms verifies."""
    partial = part_of_longer_name(check)
    if partial is not None:
        return partial
    for misreading in MISREADINGS:
        misread = misreading(check)
        if misread is not None:
            return demote(misread, found.ids)
    reading = check.read()
    if reading.kind is not None:
        wrong_kind = kind_problem(check, found, reading) or _wrong_class(check, found, reading)
        if wrong_kind is not None:
            return wrong_kind
    if _named_in_question(check):
        return _grounded(check, found, REASON_NAMED_IN_QUESTION)
    bridge = is_described_bridge(
        check.answer, check.question.casefold(), check.expected.noun, check.lexicon
    )
    if bridge is not None:
        described = with_article(bridge)
        return _grounded(check, found, REASON_DESCRIBED, described=described, noun=bridge)
    place = other_kind(check.answer, check.expected.noun, check.lexicon, PLACE)
    if place is not None:
        return _other_kind(check, found, place)
    missing_form = unasked(check)
    if missing_form is not None:
        return _grounded(check, found, REASON_NOT_GIVEN, asked=missing_form)
    if reading.kind is None:
        return supported(check, found, reading)
    missing_form = unnamed_nationality(check, reading.classified.known)
    if missing_form is not None:
        return _grounded(check, found, REASON_NOT_GIVEN, asked=missing_form)
    named = named_for_kind(check.question, check.expected, reading.classified)
    if named is not None:
        kind = kind_asked(check.question)
        return _grounded(check, found, REASON_NAMED_FOR_KIND, named=with_article(named), kind=kind)
    unmeasured = unit_problem(check, found, reading)
    if unmeasured is not None:
        return demote(unmeasured, found.ids)
    decision = decider.decide(check, found, reading)
    objection = rule_problem(check, reading)
    if not decision.accepted:
        return demote(refused(check, found, reading, objection, decision.said), found.ids)
    other_event = event_problem(check)
    if other_event is not None:
        return demote(other_event, found.ids)
    work = other_kind(check.answer, check.expected.noun, check.lexicon, WORK)
    if work is not None:
        return _other_kind(check, found, work)
    return supported(check, found, reading, objection, decision.said)


def _other_kind(check: Check, found: Found, other: OtherKind) -> Verdict:
    """Grounded: the answer is a place or a work of another kind than the one asked."""
    noun, kind = with_article(check.expected.noun), with_article(other.kind)
    return _grounded(check, found, REASON_OTHER_KIND, kind=kind, noun=noun, family=other.family)


def _grounded(check: Check, found: Found, reason: str, **said: str) -> Verdict:
    """Grounded on the sentences stating the answer, for the `reason` (a template of the
    answer, its citation and `said`) its tie to the question is not confirmed."""
    cited = reason.format(answer=check.answer, cite=citation(found.ids), **said)
    return ground(found.ids, cited, [], GROUNDING_STATED)


def _wrong_class(check: Check, found: Found, reading: Reading) -> Verdict | None:
    """A rejection when a strong source (the answer's own page or lead, the lexicon, its
    form) says the name is of another class than the question asks for. Some kinds act
    for others (`ACTS_FOR`), and are weighed by the decider there, never rejected."""
    problem = class_problem(check, reading)
    if problem is None or not reading.classified.strong_mismatch(check.expected):
        return None
    asked, given = check.expected.classes, reading.classified.known
    if any(kind in asked and not given.isdisjoint(acting) for kind, acting in ACTS_FOR.items()):
        return None
    if nationality_for_country(check):
        return _grounded(check, found, REASON_NATIONALITY, wanted=wanted(check))
    reason = REASON_WRONG_CLASS.format(
        answer=check.answer, cite=citation(found.ids), clause=problem.clause
    )
    return reject(reason, [problem.missing])


def _named_in_question(check: Check) -> bool:
    """The question itself names the whole answer (a name, not a value, nor an attribute
    things share: `_shared_attribute`): as written, with
    every word of it longer than an initial ("George P. Putnam" where the question says
    "George Palmer Putnam"), or misspelt ("Michael Spilotro" where it says "MIchael
    Silotro")."""
    folded = check.folded
    if any(is_number(t) for t in folded.tokens) or _shared_attribute(check):
        return False
    if contains(check.q.text, folded):
        return True
    asked = set(check.expected.noun.split())
    words = [t for t in folded.tokens if len(t) > 1 and t not in STOPWORDS and t not in asked]
    said = set(map(singular, check.q.text.tokens))
    own = set(map(singular, words))
    if len(own) > 1 and own <= said:
        return True
    unsaid = own - said
    if not unsaid or min(map(len, unsaid)) < SHORTEST_MISSPELT:
        return False
    return all(any(misspelt(word, other) for other in said) for word in unsaid)


def _shared_attribute(check: Check) -> bool:
    """The answer is a nationality or a country, as the question asks: things a question
    ties often share one ("a South Korean series starring an actress of which
    nationality?"), so its naming one says nothing of where it starts; the combiner still
    weighs it (`names_question`)."""
    if gives_asked_nationality(check):
        return True
    return check.expected.noun == "country" and demonym_of(name_key(check.answer)) is not None
