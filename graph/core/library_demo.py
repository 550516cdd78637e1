"""The offline library demo model's policy: the next ReAct turn, read from the prompt.

`graph.testing.library_demo_model` wraps `next_turn` in a scripted chat model.
It is stateless (everything it knows comes from the trajectory in the prompt),
so an episode paused for approval in one process resumes in another with the
reply the first would have given. For a title named in 《》 it searches the
catalogue, checks the copies of that exact title one by one, and then:

- when the question asks for a reservation, proposes `reserve_copy` on the
  first available copy and, once a hold is made, answers naming the copy;
- otherwise (or after a human rejected or the policy denied the hold) checks
  the branch's hours and the walk, and answers with the branch and shelf.

A refused reservation moves on to the next copy; with none left it says so. A
request that expired without a decision is proposed again, as a new request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tools.library.completion import wants_reservation

_QUESTION = re.compile(r"^Question: (?P<text>.*)$", re.MULTILINE)
_TURN = re.compile(
    r"^Action \d+: (?P<action>.*)\nObservation \d+:\n(?P<observation>(?:\| .*(?:\n|$))*)",
    re.MULTILINE,
)
_TITLE = re.compile(r"《(?P<title>[^》]+)》")
_RECORD = re.compile(
    r"^\[R\d+\] 《(?P<title>[^》]+)》.* — paper — copies: (?P<copies>.*?)(?: — catalogue note|$)",
    re.MULTILINE,
)
_COPY_ID = re.compile(r"\b([A-Z]{1,3}\d{1,4}) at ")
_STATUS = re.compile(
    r"^Copy (?P<copy>\w+) of 《[^》]+》.*?, paper: (?P<state>.+?) — (?P<branch>.+?) \(.*?\), "
    r"shelf (?P<shelf>[\w-]+)",
    re.MULTILINE,
)
_RESERVED = re.compile(
    r"^(?:Reserved: copy (?P<copy>\w+) is now ON HOLD.*?collect it at the (?P<desk>.+?) "
    r"circulation desk|Already done: this request reserved copy (?P<earlier>\w+))",
)
_HELD_FOR_YOU = re.compile(
    r"^Not reserved: copy (?P<copy>\w+) is already on hold for you.*?collect it at the "
    r"(?P<desk>.+?) circulation desk"
)
"""A hold refused because the copy is already held for this patron (by another request)."""
_DESK = re.compile(r"circulation desk (?P<desk>[^.;]+)")
_WALK = re.compile(r"^Walking from .*?: about (?P<minutes>\d+) minutes")
_COPY_IN_ACTION = re.compile(r"[A-Z]{1,3}\d{1,4}")
_EXPIRED = "without a decision, so it was not run"
_DECLINED = ("A human rejected ", "was not run: write actions are turned off")
OBTAINABLE = ("AVAILABLE", "ON HOLD FOR YOU")


@dataclass
class _Seen:
    """What the trajectory in the prompt has established so far."""

    question: str
    title: str
    copies: list[str] = field(default_factory=list)
    status: dict[str, re.Match[str]] = field(default_factory=dict)
    reserved: str = ""
    collect_at: str = ""
    refused: list[str] = field(default_factory=list)
    held_for_you: str = ""
    declined: bool = False
    hours: str = ""
    walk: str = ""
    searched: bool = False


def _turns(prompt: str) -> list[tuple[str, str]]:
    return [
        (match["action"].strip(), "\n".join(line[2:] for line in match["observation"].splitlines()))
        for match in _TURN.finditer(prompt)
    ]


def _read(prompt: str) -> _Seen:
    questions = _QUESTION.findall(prompt)
    question = questions[-1].strip() if questions else ""
    named = _TITLE.search(question)
    seen = _Seen(question, named["title"] if named else question)
    for action, observation in _turns(prompt):
        if action.startswith("search_catalog"):
            seen.searched = True
            for record in _RECORD.finditer(observation):
                if record["title"] == seen.title:
                    seen.copies += _COPY_ID.findall(record["copies"])
        elif (status := _STATUS.search(observation)) and action.startswith("get_copy_status"):
            seen.status[status["copy"]] = status
        elif action.startswith("reserve_copy"):
            reserved = _RESERVED.search(observation)
            if reserved:
                seen.reserved = reserved["copy"] or reserved["earlier"]
                seen.collect_at = reserved["desk"] or ""
            elif held := _HELD_FOR_YOU.search(observation):
                seen.held_for_you = held["copy"]
            elif _EXPIRED in observation:
                continue  # no decision was made: it may be proposed again
            elif any(marker in observation for marker in _DECLINED):
                seen.declined = True
            else:
                seen.refused += _COPY_IN_ACTION.findall(action)[:1]
        elif action.startswith("get_open_hours"):
            desk = _DESK.search(observation)
            seen.hours = desk["desk"] if desk else observation
        elif action.startswith("estimate_walk"):
            walk = _WALK.search(observation)
            seen.walk = f"about {walk['minutes']} minutes' walk" if walk else observation
    return seen


def _turn(thought: str, action: str) -> str:
    return f"Thought: {thought}\nAction: {action}"


def _visit(seen: _Seen, copy: str) -> str:
    """Hours, walk, then the answer for a copy the patron can collect (one already held for
    them by another of their requests too)."""
    status = seen.status[copy]
    branch, shelf = status["branch"], status["shelf"]
    if not seen.hours:
        return _turn(
            f"Copy {copy} is at {branch}; check its hours today.",
            f"get_open_hours[{branch}, today]",
        )
    if not seen.walk:
        return _turn("The desk is open. How far is the walk?", f"estimate_walk[{branch}]")
    on_hold = copy == seen.held_for_you or status["state"].startswith("ON HOLD")
    held = "on hold for you" if on_hold else "available"
    declined = "I did not reserve it, as you decided. " if seen.declined else ""
    if copy == seen.held_for_you:
        declined = "Another of your requests already holds it for you. "
    return _turn(
        "Every condition is checked.",
        f"Finish[{declined}Copy {copy} of 《{seen.title}》 is {held} at {branch}, shelf {shelf}; "
        f"the circulation desk is open {seen.hours} today, {seen.walk}.]",
    )


def next_turn(prompt: str) -> str:
    """The demo model's reply to a library prompt (see the module docstring)."""
    seen = _read(prompt)
    if not seen.searched:
        return _turn("Find the title in the catalogue.", f"search_catalog[{seen.title}]")
    if seen.reserved:
        where = f"the {seen.collect_at}" if seen.collect_at else "its branch's"
        return _turn(
            f"Copy {seen.reserved} is on hold now.",
            f"Finish[Copy {seen.reserved} of 《{seen.title}》 is on hold for you: collect it at "
            f"{where} circulation desk.]",
        )
    if seen.held_for_you in seen.status:
        return _visit(seen, seen.held_for_you)
    reserve = wants_reservation(seen.question) and not seen.declined
    for copy in seen.copies:
        status = seen.status.get(copy)
        if status is None:
            return _turn(f"Check copy {copy}'s live status.", f"get_copy_status[{copy}]")
        if not status["state"].startswith(OBTAINABLE) or copy in seen.refused:
            continue
        if reserve and status["state"].startswith("AVAILABLE"):
            return _turn(f"Copy {copy} is available; hold it.", f"reserve_copy[{copy}]")
        return _visit(seen, copy)
    if not seen.copies:
        return _turn(
            "The catalogue lists no paper copy.",
            f"Finish[No paper copy of 《{seen.title}》 is listed.]",
        )
    return _turn(
        "No copy can be had now.",
        f"Finish[No paper copy of 《{seen.title}》 is available now: "
        f"{', '.join(seen.copies)} are all out, on hold or could not be reserved.]",
    )
