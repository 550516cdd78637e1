"""The program's completion check for the library assistant: a pure function of
(question, answer, stored evidence facts, clock, deadline, origin).

A request for a reservation (with no deadline) is met by a stored reservation
of a paper copy of the requested title, on hold for this patron, that the
answer names. Otherwise an answer is accepted only when the stored
observations establish each condition for one copy: a paper copy of the
requested title, its latest status available (or on hold for this patron) and
live, its shelf from that same status, the branch building and desk open at
arrival on the clock's date, a walk estimate from the patron's origin, arrival
before the deadline, and an answer that names that branch and shelf. Those
per-copy conditions are checked in `copy_conditions`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from tools.base import Evidence, Verdict
from tools.library.copy_conditions import (
    Candidate,
    clock_text,
    evaluate_candidate,
    latest_status,
    of_kind,
    supported_reason,
)
from tools.library.text import fold, has_cjk, quoted_titles

GROUNDING = "facts"

MISSING_TITLE = (
    "the requested title: no stored catalogue entry or copy status matches a title named in "
    "the question; search the catalogue for it (search_catalog[title])"
)
MISSING_NAMED_TITLE = (
    "the requested title 《{title}》: no stored catalogue entry or copy status matches it; "
    "call search_catalog[{title}]"
)
MISSING_PAPER = (
    "a paper copy of 《{title}》: the catalogue lists it only as an e-book, so there is no "
    "paper copy to borrow"
)
MISSING_STATUS = "the live status of a paper copy of 《{title}》: {hint}"
STATUS_HINT_COPIES = "call get_copy_status on one of its copies ({copies})"
STATUS_HINT_NONE = "the catalogue lists no paper copy; search the catalogue again"
MISSING_AVAILABLE = (
    "an available paper copy of 《{title}》: the latest status of each copy checked is not "
    "available ({checked}){others}"
)
OTHER_COPIES = "; copies not checked yet: {copies}"
NO_OTHER_COPIES = "; no other paper copy is listed"
MISSING_RESERVATION_MENTION = "an answer naming the reserved copy {copy_id}"
REASON_RESERVED = (
    "Copy {copy_id} of 《{title}》 (paper) is on hold for you at {branch}, shelf {shelf} "
    "(reservation #{number}, made {made})."
)
RESERVATION_WORDS = ("预约", "预留", "reserve", "reservation", "hold it", "put a hold")
REASON_UNSUPPORTED = "Not established: {missing}."
CAVEAT_EN = (
    "Stock changes: copy {copy_id} was {state} as of {as_of}; this is a snapshot{hold}, so "
    "check again before you set out."
)
CAVEAT_ZH = (
    "库存会变：副本 {copy_id} 在 {as_of} 的查询中{state}；这只是查询时点的快照{hold}，"
    "出发前请再刷新确认。"
)
CAVEAT_NONE_EN = "Stock changes, and no copy status was checked."
CAVEAT_NONE_ZH = "库存会变，而且尚未查询任何副本的状态。"
STATE_ZH = {
    "available": "可借",
    "on_hold": "已为你预留",
    "checked_out": "已借出",
    "in_transit": "在途",
    "missing": "缺失",
}


def _titles(facts: Mapping[str, Any]) -> set[str]:
    return {fold(facts["title"]), fold(facts["title_en"])}


def requested_title(question: str, evidence: Sequence[Evidence]) -> tuple[str, set[str]] | None:
    """The title the question asks for and its folded names, from the stored records.

    A title in 《》 or quotes wins; otherwise the longest stored title the
    question contains. Both language names of a matching record count.
    """
    records = [
        item["facts"]
        for item in evidence
        if item["facts"].get("kind") in ("catalogue_entry", "copy_status")
    ]
    named = quoted_titles(question)
    if named:
        keys = {fold(title) for title in named}
        display = named[0]
    else:
        folded_question = fold(question)
        inside = [
            (len(name), facts["title"], name)
            for facts in records
            for name in _titles(facts)
            if name and name in folded_question
        ]
        if not inside:
            return None
        _, display, longest = max(inside)
        keys = {longest}
    matching = [facts for facts in records if _titles(facts) & keys]
    if not matching:
        return (display, keys) if named else None
    return display, set().union(*(_titles(facts) for facts in matching))


def _verdict(
    supported: bool, evidence_ids: Sequence[str], reason: str, missing: Sequence[str]
) -> Verdict:
    return Verdict(
        supported=supported,
        outcome="verified" if supported else "rejected",
        evidence_ids=list(dict.fromkeys(evidence_ids)),
        reason=reason,
        missing=list(missing),
        grounding=GROUNDING,
    )


def _unsupported(missing: Sequence[str], evidence_ids: Sequence[str] = ()) -> Verdict:
    return _verdict(
        False, evidence_ids, REASON_UNSUPPORTED.format(missing="; ".join(missing)), missing
    )


def wants_reservation(question: str) -> bool:
    """Whether the patron asks for a hold rather than only whether they can borrow."""
    folded = question.casefold()
    return any(word in folded for word in RESERVATION_WORDS)


def _reservation_verdict(
    answer: str, evidence: Sequence[Evidence], keys: set[str], clock: datetime
) -> Verdict | None:
    """A reservation goal is met by a stored reservation of a paper copy of the title,
    confirmed on hold for this patron, that the answer names; None if none is stored."""
    holds = {
        item["facts"]["copy_id"]: item
        for item in of_kind(evidence, "copy_status")
        if _titles(item["facts"]) & keys
        and item["facts"]["medium"] == "paper"
        and item["facts"]["status"] == "on_hold"
        and item["facts"]["held_for_patron"]
    }
    for made in reversed(of_kind(evidence, "reservation")):
        hold = holds.get(made["facts"]["copy_id"])
        if hold is None:
            continue
        facts = hold["facts"]
        if fold(facts["copy_id"]) not in fold(answer):
            return _unsupported(
                [MISSING_RESERVATION_MENTION.format(copy_id=facts["copy_id"])],
                [made["id"], hold["id"]],
            )
        reason = REASON_RESERVED.format(
            copy_id=facts["copy_id"],
            title=facts["title"],
            branch=facts["branch_name"],
            shelf=facts["shelf"],
            number=made["facts"]["reservation_id"],
            made=clock_text(datetime.fromisoformat(made["facts"]["created_at"]), clock),
        )
        return _verdict(True, [made["id"], hold["id"]], reason, [])
    return None


def check_completion(
    question: str,
    answer: str,
    evidence: Sequence[Evidence],
    *,
    clock: datetime,
    deadline: datetime | None,
    origin: str,
    origin_name: str = "",
) -> Verdict:
    """Decide from the stored facts whether `answer` is established (see the module doc).

    `clock` is the episode's current time, `deadline` the latest arrival (or
    None), `origin` the place id the patron walks from (`origin_name` shows it).
    """
    origin_name = origin_name or origin
    title = requested_title(question, evidence)
    if title is None:
        return _unsupported([MISSING_TITLE])
    display, keys = title
    if deadline is None and wants_reservation(question):
        reserved = _reservation_verdict(answer, evidence, keys, clock)
        if reserved is not None:
            return reserved
    entries = [
        item for item in of_kind(evidence, "catalogue_entry") if _titles(item["facts"]) & keys
    ]
    statuses = [
        item
        for item in of_kind(evidence, "copy_status")
        if _titles(item["facts"]) & keys and item["facts"]["medium"] == "paper"
    ]
    paper = [item for item in entries if item["facts"]["medium"] == "paper"]
    if not entries and not statuses:
        return _unsupported([MISSING_NAMED_TITLE.format(title=display)])
    if not paper and not statuses:
        return _unsupported([MISSING_PAPER.format(title=display)], [e["id"] for e in entries])
    listed = list(
        dict.fromkeys(copy["copy_id"] for item in paper for copy in item["facts"]["copies"])
    )
    by_copy: dict[str, list[Evidence]] = {}
    for item in statuses:
        by_copy.setdefault(item["facts"]["copy_id"], []).append(item)
    if not by_copy:
        hint = STATUS_HINT_COPIES.format(copies=", ".join(listed)) if listed else STATUS_HINT_NONE
        return _unsupported(
            [MISSING_STATUS.format(title=display, hint=hint)], [e["id"] for e in paper]
        )
    candidates = [Candidate(copy_id, latest_status(items)) for copy_id, items in by_copy.items()]
    obtainable = [candidate for candidate in candidates if candidate.obtainable]
    if not obtainable:
        checked = ", ".join(
            f"{c.copy_id}: {c.facts['status'].replace('_', ' ')} as of "
            f"{clock_text(datetime.fromisoformat(c.facts['as_of']), clock)}"
            for c in candidates
        )
        unchecked = [copy_id for copy_id in listed if copy_id not in by_copy]
        others = OTHER_COPIES.format(copies=", ".join(unchecked)) if unchecked else NO_OTHER_COPIES
        return _unsupported(
            [MISSING_AVAILABLE.format(title=display, checked=checked, others=others)],
            [c.status["id"] for c in candidates],
        )
    for candidate in obtainable:
        evaluate_candidate(
            candidate,
            evidence,
            answer,
            clock=clock,
            deadline=deadline,
            origin=origin,
            origin_name=origin_name,
        )
    best = min(obtainable, key=lambda c: (len(c.missing), -obtainable.index(c)))
    record_ids = [e["id"] for e in paper if e["facts"]["record_id"] == best.facts["record_id"]]
    if best.missing:
        return _unsupported(best.missing, record_ids[-1:] + best.support)
    return _verdict(
        True,
        record_ids[-1:] + best.support,
        supported_reason(best, clock, deadline, origin_name),
        [],
    )


def answer_caveat(evidence: Sequence[Evidence], question: str = "") -> str:
    """The caveat the graph appends to an accepted answer: stock changes, with the snapshot time.

    It names the latest live status of an obtainable copy (pass the verdict's
    supporting evidence to name exactly the copy the answer relied on), in
    Chinese when the question is in Chinese.
    """
    lang = "zh" if has_cjk(question) else "en"
    statuses = [item for item in of_kind(evidence, "copy_status") if item["facts"]["live"]]
    if not statuses:
        return CAVEAT_NONE_ZH if lang == "zh" else CAVEAT_NONE_EN
    good = [
        item
        for item in statuses
        if item["facts"]["status"] == "available" or item["facts"]["held_for_patron"]
    ]
    facts = latest_status(good or statuses)["facts"]
    as_of = datetime.fromisoformat(facts["as_of"]).strftime("%Y-%m-%d %H:%M")
    held = facts["status"] == "on_hold" and bool(facts["held_for_patron"])
    if lang == "zh":
        return CAVEAT_ZH.format(
            copy_id=facts["copy_id"],
            as_of=as_of,
            state=STATE_ZH.get(facts["status"], facts["status"]),
            hold="" if held else "，不是预留",
        )
    state = "on hold for you" if held else facts["status"].replace("_", " ")
    return CAVEAT_EN.format(
        copy_id=facts["copy_id"], as_of=as_of, state=state, hold="" if held else ", not a hold"
    )
