"""Dates of other events: a date its sentence writes right after the word of another event
than the one the question dates ("Andrew John Partridge (born 11 November 1953) is an
English singer ... who co-founded the rock band XTC") is that event's date, so 1953 is
not the year XTC was co-founded, however near "co-founded" it stands.

The event words and their groups are `graph.verifier.read.slots.EVENT_GROUPS` (a life-span
parenthesis reads as "born ... died ..."); only the event word nearest before the date,
within `EVENT_REACH` words, speaks for it, and only when the question dates an event.
"""

from __future__ import annotations

from graph.verifier.evidence.candidates import is_year
from graph.verifier.read.check import Check
from graph.verifier.read.relation import locate, token_stems
from graph.verifier.read.slots import SAME_EVENT, date_governors
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

EVENT_REACH = 3  # words before a date its event word may stand

REASON_OTHER_EVENT = (
    "{answer!r} is stated in stored {cite}, but there it dates {event!r}, not the event"
    " the question asks the date of."
)


def other_event(raw: str, needle: tuple[str, ...], governors: frozenset[str]) -> str | None:
    """The other event every occurrence of the date `needle` in the sentence dates (its
    nearest event word just before it, of no group the question's `governors` are in),
    else None."""
    stems = token_stems(raw)
    events: list[str] = []
    for start, _ in locate(raw, needle):
        before = stems[max(0, start - EVENT_REACH) : start]
        nearest = next((stem for stem in reversed(before) if stem in SAME_EVENT), None)
        if nearest is None or not SAME_EVENT[nearest].isdisjoint(governors):
            return None
        events.append(nearest)
    return events[0] if events else None


def event_problem(check: Check) -> Verdict | None:
    """A refusal when the question asks the date of an event, the answer is a date, and
    every sentence stating it dates another event by it."""
    if not any(is_year(token) for token in check.folded.tokens):
        return None
    governors = date_governors(check.q.text.tokens)
    if not governors:
        return None
    dated: list[tuple[str, str]] = []
    for item in check.stating_items():
        event = other_event(item.raw, check.folded.tokens, governors)
        if event is None:
            return None
        dated.append((item.id, event))
    if not dated:
        return None
    reason = REASON_OTHER_EVENT.format(
        answer=check.answer, cite=citation(i for i, _ in dated), event=dated[0][1]
    )
    return reject(reason, [check.answer.strip()])
