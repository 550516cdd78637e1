"""What the model sees of branches and places, and the evidence stored with it: a
branch's opening hours on a date, a walking estimate between two places, and a
branch or place name that resolves to nothing; and the `get_open_hours` and
`estimate_walk` answers built from the backend with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import TYPE_CHECKING

from tools.library.observations import Rendered, evidence_draft
from tools.library.records import Hours, Place
from tools.library.tools import TODAY

if TYPE_CHECKING:
    from tools.library.backend import LibraryBackend

HOURS_OPEN = "{branch} on {date} ({weekday}): building {building}; circulation desk {desk}.{note}"
HOURS_CLOSED = "{branch} on {date} ({weekday}): CLOSED all day ({reason})."
HOURS_DESK_CLOSED = "CLOSED all day (no borrowing)"
HOURS_NOTE = " Note: {note}."
HOURS_NONE = "No opening hours are published for {branch} on {date}."
UNKNOWN_BRANCH = 'Unknown branch "{name}". The branches are: {branches}.'
UNKNOWN_PLACE = 'Unknown place "{name}". Known places: {places}.'
WALK_LINE = "Walking from {origin} to {destination}: about {minutes} minutes (an estimate)."
WALK_NONE = "No walking estimate between {origin} and {destination}."


def render_hours(hours: Hours) -> Rendered:
    """A branch's hours on a date (open, desk closed, or closed all day)."""
    day = date.fromisoformat(hours.date)
    common = {"branch": hours.branch.label, "date": hours.date, "weekday": day.strftime("%A")}
    if hours.closed_reason or hours.building is None:
        text = HOURS_CLOSED.format(reason=hours.closed_reason or hours.note or "closed", **common)
    else:
        text = HOURS_OPEN.format(
            building="–".join(hours.building),
            desk="–".join(hours.desk) if hours.desk else HOURS_DESK_CLOSED,
            note=HOURS_NOTE.format(note=hours.note) if hours.note else "",
            **common,
        )
    building, desk = hours.building or (None, None), hours.desk or (None, None)
    return Rendered(
        text,
        [
            evidence_draft(
                text,
                "get_open_hours",
                {"branch": hours.branch.place_id, "date": hours.date},
                {
                    "kind": "hours",
                    "branch": hours.branch.place_id,
                    "branch_name": hours.branch.label,
                    "date": hours.date,
                    "closed": hours.building is None,
                    "closed_reason": hours.closed_reason,
                    "building_open": building[0],
                    "building_close": building[1],
                    "desk_open": desk[0],
                    "desk_close": desk[1],
                    "note": hours.note,
                },
            )
        ],
    )


def render_hours_missing(branch: Place, day: str) -> Rendered:
    """No hours are published for that date."""
    return Rendered(HOURS_NONE.format(branch=branch.label, date=day))


def render_unknown_place(name: str, places: Sequence[Place], *, branches: bool) -> Rendered:
    """A branch or place name that resolves to nothing, with the names that do."""
    if branches:
        listed = ", ".join(f"{place.place_id} ({place.label})" for place in places)
        return Rendered(UNKNOWN_BRANCH.format(name=name, branches=listed))
    return Rendered(UNKNOWN_PLACE.format(name=name, places=", ".join(p.label for p in places)))


def render_walk(origin: Place, destination: Place, minutes: int | None) -> Rendered:
    """A walking estimate between two places, or that there is none."""
    names = {"origin": origin.label, "destination": destination.label}
    if minutes is None:
        return Rendered(WALK_NONE.format(**names))
    text = WALK_LINE.format(minutes=minutes, **names)
    return Rendered(
        text,
        [
            evidence_draft(
                text,
                "estimate_walk",
                {"origin": origin.place_id, "destination": destination.place_id},
                {
                    "kind": "walk",
                    "origin": origin.place_id,
                    "origin_name": origin.label,
                    "destination": destination.place_id,
                    "destination_name": destination.label,
                    "minutes": minutes,
                },
            )
        ],
    )


def open_hours_observation(backend: LibraryBackend, name: str, day: str, today: date) -> Rendered:
    """`get_open_hours`: the named branch's hours on `day` (`today` for TODAY), or why not."""
    branch = backend.resolve_place(name)
    if branch is None or not branch.is_branch:
        return render_unknown_place(name, backend.places(branches_only=True), branches=True)
    resolved = today.isoformat() if day == TODAY else day
    hours = backend.open_hours(branch.place_id, resolved)
    return render_hours(hours) if hours else render_hours_missing(branch, resolved)


def walk_observation(backend: LibraryBackend, origin_name: str, destination_name: str) -> Rendered:
    """`estimate_walk`: the walking estimate between two named places, or why not."""
    origin, destination = (
        backend.resolve_place(origin_name),
        backend.resolve_place(destination_name),
    )
    if origin is None or destination is None:
        unknown = origin_name if origin is None else destination_name
        return render_unknown_place(unknown, backend.places(), branches=False)
    return render_walk(
        origin, destination, backend.walk_minutes(origin.place_id, destination.place_id)
    )
