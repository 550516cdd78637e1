"""A name the evidence states, written otherwise by the answer in a way that adds to it
or leaves some of it out: qualified by another name after its last comma or by "in" and
a place ("Besançon, France", "the University of Edinburgh in Scotland"), with an initial
of it spelled out ("John Fitzgerald Kennedy" where a sentence says "John F. Kennedy"),
or without its middle names and nickname ("Michael Spilotro" where a sentence says
'Michael Peter "Micky" Spilotro'). The name is stated and what the answer changes is
neither stated as one with it nor denied: grounded, never rejected as absent."""

from __future__ import annotations

import re

from graph.verifier.kinds.lexicon import name_key
from graph.verifier.kinds.places import is_city, is_region
from graph.verifier.read.check import Check
from graph.verifier.text.initials import written_with_initials
from graph.verifier.text.normalise import analyse
from graph.verifier.verdicts import GROUNDING_STATED, citation, ground
from tools.base import Verdict

# The most words of a qualifier after a comma or "in" ("Besançon, France", "Bath, Somerset").
_QUALIFIER_WORDS = 4
REASON_QUALIFIED = (
    "{head!r} is stated in stored {cite}, but no stored sentence states {missing}, which"
    " {answer!r} adds to it: give the name as the evidence states it, or look up the rest."
)
REASON_INITIALS = (
    "{name!r} is stated in stored {cite}; {answer!r} spells out an initial of it, which no"
    " stored sentence does: give the name as the evidence states it."
)
REASON_SHORTENED = (
    "{name!r} is stated in stored {cite}; {answer!r} is that name without its middle"
    " names, as no stored sentence writes it: give the name as the evidence states it."
)
# What may stand between a first name and a last one: up to three middle names or
# initials, and a nickname in quotes ('Michael Peter "Micky" Spilotro').
_MIDDLE = r"(?:[A-Z][\w'’-]*\.?\s+|[\"“'‘][^\"”'’]{1,40}[\"”'’]\s+){1,3}"
# After a first name: the middle names, then the last name as a word of its own.
_MIDDLE_THEN_LAST = re.compile(rf"\s+{_MIDDLE}([A-Z][\w'’-]*)(?![\w-])")
REASON_QUALIFIED_APART = (
    "{head!r} is stated in stored {cite}, and {missing} apart from it, but no stored"
    " sentence states {answer!r} as one name: give the name as the evidence states it."
)


def _is_name(text: str) -> bool:
    """Capitalised words without a digit or a list's joiner ("New South Wales")."""
    words = text.split()
    return (
        bool(words)
        and text[0].isupper()
        and not any(char.isdigit() for char in text)
        and not {"and", "or", "&"} & set(words)
    )


def qualified(check: Check, missing: list[str]) -> Verdict | None:
    """Grounded: a name the evidence states, qualified after its last comma or an "in"
    by a short name ("Besançon, France" where a sentence gives Besançon, "St. Louis,
    Missouri, USA", "the University of Edinburgh in Scotland"): the name is stated, the
    qualifier is stated apart from it or not at all, and denied nowhere. Numbers, dates
    and lists are no such name."""
    for joint in (",", " in "):
        head, joined, rest = (part.strip() for part in check.answer.rpartition(joint))
        if not joined or not (_is_name(head.removeprefix("the ")) and _is_name(rest)):
            continue
        if len(rest.split()) > _QUALIFIER_WORDS:
            continue
        # After "in", only a known place qualifies: "The Stars in Their Courses" is a title.
        place = is_city(name_key(rest)) or is_region(name_key(rest))
        if missing != ([rest] if joint == "," else [check.answer]) or (joint != "," and not place):
            continue
        found = check.find(analyse(head))
        if found is None:
            continue
        apart = check.find(analyse(rest))
        template = REASON_QUALIFIED_APART if apart is not None else REASON_QUALIFIED
        cite = citation(found.ids)
        reason = template.format(answer=check.answer, head=head, cite=cite, missing=repr(rest))
        return ground(found.ids, reason, [] if apart else [rest], GROUNDING_STATED)
    return None


def spelled_initials(check: Check) -> Verdict | None:
    """Grounded: a name a trusted, related sentence writes with an initial the answer
    spells out ("John Fitzgerald Kennedy" where it says "John F. Kennedy")."""
    last = check.answer.split()[-1:]
    naming = [item for item in check.items if last and last[0] in item.raw]  # few do
    if written_with_initials(check.answer, (item.raw for item in naming)) is None:
        return None  # no sentence writes it so: none need be read for trust or ties
    stating = [item for item in naming if item.trusted and check.related(item)]
    found = written_with_initials(check.answer, (item.raw for item in stating))
    if found is None or not found[1]:
        return None
    name = found[0]
    ids = [item.id for item in stating if name in item.raw]
    reason = REASON_INITIALS.format(answer=check.answer, name=name, cite=citation(ids))
    return ground(ids, reason, [check.answer], GROUNDING_STATED)


def _between(raw: str, first: str, last: str) -> str | None:
    """The name a sentence writes from `first` to `last` with middle names or a nickname
    between them, as written, or None."""
    start = raw.find(first)
    while start >= 0:
        before = raw[start - 1 : start]
        rest = _MIDDLE_THEN_LAST.match(raw, start + len(first))
        if rest is not None and rest.group(1) == last and not (before.isalnum() or before == "-"):
            return raw[start : rest.end()]
        start = raw.find(first, start + 1)
    return None


def without_middle_names(check: Check) -> Verdict | None:
    """Grounded: a person's first and last name where a trusted, related sentence writes
    middle names or a nickname between them ("Michael Spilotro" where it says 'Michael
    Peter "Micky" Spilotro')."""
    words = check.answer.split()
    if len(words) != 2 or not all(_is_name(word) and word.isalpha() for word in words):
        return None
    first, last = words
    for item in check.items:
        if last not in item.raw or first not in item.raw:  # most sentences
            continue
        name = _between(item.raw, first, last)
        if name is not None and item.trusted and check.related(item):
            reason = REASON_SHORTENED.format(
                name=name, cite=citation([item.id]), answer=check.answer
            )
            return ground([item.id], reason, [check.answer], GROUNDING_STATED)
    return None
