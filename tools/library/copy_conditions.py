"""Per-copy conditions of the library completion check: for one paper copy with a
stored status, whether that status is live and gives a shelf, the branch building
and desk are open at arrival on the clock's date, a walk estimate from the
patron's origin is stored, arrival is before the deadline, and the answer names
the branch and shelf; and the reason shown when every condition holds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

from tools.base import Evidence
from tools.library.clock import show_time
from tools.library.text import fold

MISSING_LIVE = (
    "a live status of copy {copy_id}: only a cached value from {as_of} is stored; call "
    "get_copy_status[{copy_id}] again"
)
MISSING_SHELF = "the shelf of copy {copy_id}: its status observation gave none"
MISSING_HOURS = "the opening hours of {label} on {date}: call get_open_hours[{branch}, {date}]"
MISSING_OPEN_DAY = "{branch} open on {date}: it is closed all day ({reason})"
MISSING_DESK_DAY = "{branch}'s circulation desk open on {date}: the desk is closed all day"
MISSING_OPEN_AT_ARRIVAL = "{branch} open at arrival: arriving about {arrival}, but {problem}"
MISSING_WALK = "a walking estimate from {origin} to {label}: call estimate_walk[{origin}, {branch}]"
MISSING_DEADLINE = (
    "arrival before the deadline {deadline}: walking {minutes} minutes from {now} arrives "
    "about {arrival}"
)
MISSING_MENTION = "an answer naming the branch ({branch}) and shelf {shelf} of copy {copy_id}"
REASON_SUPPORTED = (
    "Copy {copy_id} of 《{title}》 (paper) is {state} at {branch}, shelf {shelf}, as of {as_of}; "
    "on {date} the building is open {building} and the desk {desk}; walking {minutes} minutes "
    "from {origin} arrives about {arrival}{deadline}."
)


@dataclass
class Candidate:
    """One paper copy of the requested title and what the evidence says about it."""

    copy_id: str
    status: Evidence
    missing: list[str] = field(default_factory=list)
    support: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def facts(self) -> Mapping[str, Any]:
        return self.status["facts"]

    @property
    def obtainable(self) -> bool:
        status = self.facts["status"]
        return status == "available" or (
            status == "on_hold" and bool(self.facts["held_for_patron"])
        )


def of_kind(evidence: Sequence[Evidence], kind: str) -> list[Evidence]:
    """The evidence items whose facts are of `kind`, in order."""
    return [item for item in evidence if item["facts"].get("kind") == kind]


def latest_status(statuses: Sequence[Evidence]) -> Evidence:
    """The status observed last by its `as_of` time (the later-stored one on a tie)."""
    ordered = sorted(
        enumerate(statuses),
        key=lambda pair: (datetime.fromisoformat(pair[1]["facts"]["as_of"]), pair[0]),
    )
    return ordered[-1][1]


def _last(items: Sequence[Evidence], **wanted: Any) -> Evidence | None:
    found = [
        item
        for item in items
        if all(item["facts"].get(key) == value for key, value in wanted.items())
    ]
    return found[-1] if found else None


def clock_text(moment: datetime, clock: datetime) -> str:
    """`moment` as shown to the patron, relative to the clock's date."""
    return show_time(moment, clock.date())


def _check_hours(
    candidate: Candidate, hours: Evidence | None, arrival: datetime | None, clock: datetime
) -> None:
    branch, label = candidate.facts["branch"], candidate.facts["branch_name"]
    day = clock.date().isoformat()
    if hours is None:
        candidate.missing.append(MISSING_HOURS.format(label=label, branch=branch, date=day))
        return
    facts = hours["facts"]
    if facts["closed"]:
        candidate.missing.append(
            MISSING_OPEN_DAY.format(
                branch=label, date=day, reason=facts["closed_reason"] or facts["note"] or "closed"
            )
        )
        return
    if facts["desk_open"] is None:
        candidate.missing.append(MISSING_DESK_DAY.format(branch=label, date=day))
        return
    candidate.details["hours"] = facts
    if arrival is None:
        candidate.support.append(hours["id"])
        return
    at = arrival.time()
    problems = []
    if (
        not time.fromisoformat(facts["building_open"])
        <= at
        < time.fromisoformat(facts["building_close"])
    ):
        problems.append(f"the building is open {facts['building_open']}–{facts['building_close']}")
    if not time.fromisoformat(facts["desk_open"]) <= at < time.fromisoformat(facts["desk_close"]):
        problems.append(f"the circulation desk is open {facts['desk_open']}–{facts['desk_close']}")
    if arrival.date() != clock.date():
        problems.append("that is on another day")
    if problems:
        candidate.missing.append(
            MISSING_OPEN_AT_ARRIVAL.format(
                branch=label, arrival=clock_text(arrival, clock), problem=" and ".join(problems)
            )
        )
    else:
        candidate.support.append(hours["id"])


def evaluate_candidate(
    candidate: Candidate,
    evidence: Sequence[Evidence],
    answer: str,
    *,
    clock: datetime,
    deadline: datetime | None,
    origin: str,
    origin_name: str,
) -> None:
    """Fill the candidate's missing conditions and supporting evidence ids."""
    facts = candidate.facts
    if not facts["live"]:
        candidate.missing.append(
            MISSING_LIVE.format(
                copy_id=candidate.copy_id,
                as_of=clock_text(datetime.fromisoformat(facts["as_of"]), clock),
            )
        )
    if not facts.get("shelf"):
        candidate.missing.append(MISSING_SHELF.format(copy_id=candidate.copy_id))
    candidate.support.append(candidate.status["id"])
    branch = facts["branch"]
    walks = of_kind(evidence, "walk")
    walk = _last(walks, origin=origin, destination=branch) or _last(
        walks, origin=branch, destination=origin
    )
    arrival = clock + timedelta(minutes=walk["facts"]["minutes"]) if walk else None
    hours = _last(of_kind(evidence, "hours"), branch=branch, date=clock.date().isoformat())
    _check_hours(candidate, hours, arrival, clock)
    if walk is None or arrival is None:
        candidate.missing.append(
            MISSING_WALK.format(origin=origin_name, label=facts["branch_name"], branch=branch)
        )
        return
    candidate.support.append(walk["id"])
    candidate.details.update(walk=walk["facts"], arrival=arrival)
    if deadline is not None and arrival >= deadline:
        candidate.missing.append(
            MISSING_DEADLINE.format(
                deadline=clock_text(deadline, clock),
                minutes=walk["facts"]["minutes"],
                now=clock_text(clock, clock),
                arrival=clock_text(arrival, clock),
            )
        )
    if not candidate.missing:
        folded_answer = fold(answer)
        names_branch = any(fold(name) in folded_answer for name in facts["branch_names"])
        if not (names_branch and fold(facts["shelf"]) in folded_answer):
            candidate.missing.append(
                MISSING_MENTION.format(
                    branch=facts["branch_name"], shelf=facts["shelf"], copy_id=candidate.copy_id
                )
            )


def supported_reason(
    candidate: Candidate, clock: datetime, deadline: datetime | None, origin_name: str
) -> str:
    """The verdict's reason for a candidate that meets every condition."""
    facts, hours, walk = candidate.facts, candidate.details["hours"], candidate.details["walk"]
    state = "available" if facts["status"] == "available" else "on hold for you"
    return REASON_SUPPORTED.format(
        copy_id=candidate.copy_id,
        title=facts["title"],
        state=state,
        branch=facts["branch_name"],
        shelf=facts["shelf"],
        as_of=clock_text(datetime.fromisoformat(facts["as_of"]), clock),
        date=clock.date().isoformat(),
        building=f"{hours['building_open']}–{hours['building_close']}",
        desk=f"{hours['desk_open']}–{hours['desk_close']}",
        minutes=walk["minutes"],
        origin=origin_name,
        arrival=clock_text(candidate.details["arrival"], clock),
        deadline=f", before {clock_text(deadline, clock)}" if deadline else "",
    )
