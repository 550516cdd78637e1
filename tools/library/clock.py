"""The scenario clock and deadlines.

The clock is a pure function of the run's `now` setting and the step:
step n (counted from 1, as the graph does) starts at `now + (n - 1) * STEP_COST`
and each backend attempt inside it answers `STEP_COST` later. With 30 s a
step, the seed's trajectory starting at 14:00 reads W22 at 14:01 and, at the
answer (step 6, 14:02:30), arrives about 14:27 after the 25-minute walk.
Keeping the clock out of `env_state` lets the graph's repeat detection see an
unchanged state when nothing in the world changed.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time, timedelta
from typing import Any

STEP_COST = timedelta(seconds=30)

_BEFORE_EN = re.compile(
    r"\b(?:before|by|until|till|no later than)\s+"
    r"(\d{1,2})(?:[:.](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?",
    re.IGNORECASE,
)
_BEFORE_ZH = re.compile(r"(\d{1,2})\s*(?:[:：](\d{2})|点(?:(\d{1,2})分?|半)?)\s*(?:之前|以前|前)")


def parse_clock(value: str) -> datetime:
    """Read a local ISO date-time ('2026-09-26T14:00'); raise ValueError naming the form."""
    try:
        return datetime.fromisoformat(value.strip())
    except ValueError as exc:
        raise ValueError(
            f"clock must be a local ISO date-time like 2026-09-26T14:00, got {value!r}"
        ) from exc


def step_clock(settings: Any, step_index: int) -> datetime:
    """The clock at the start of a step: `settings.now` plus `STEP_COST` per earlier step."""
    return parse_clock(settings.now) + STEP_COST * max(step_index - 1, 0)


def iso(moment: datetime) -> str:
    """Store a clock value: ISO to the second."""
    return moment.isoformat(timespec="seconds")


def show_time(value: str | datetime, today: date) -> str:
    """'14:01' on the clock's date, '2026-09-25 18:00' on another."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(value)
    return moment.strftime("%H:%M") if moment.date() == today else moment.strftime("%Y-%m-%d %H:%M")


def _hour_minute(hour: int, minute: int) -> time | None:
    return time(hour, minute) if 0 <= hour <= 23 and 0 <= minute <= 59 else None


def deadline_in_question(question: str) -> time | None:
    """The time of day a question sets as its deadline ('before 16:00', '16:00 前', '4点前')."""
    english = _BEFORE_EN.search(question)
    if english and (english.group(2) or english.group(3)):
        hour, minute = int(english.group(1)), int(english.group(2) or 0)
        suffix = (english.group(3) or "").replace(".", "").lower()
        if suffix == "pm" and hour < 12:
            hour += 12
        elif suffix == "am" and hour == 12:
            hour = 0
        return _hour_minute(hour, minute)
    chinese = _BEFORE_ZH.search(question)
    if chinese:
        hour = int(chinese.group(1))
        minute_text = chinese.group(2) or chinese.group(3)
        minute = int(minute_text) if minute_text else (30 if "半" in chinese.group(0) else 0)
        if hour < 8 and ("下午" in question or "晚上" in question):
            hour += 12
        return _hour_minute(hour, minute)
    return None


def resolve_deadline(setting: str, question: str, clock: datetime) -> datetime | None:
    """The deadline: the setting ('HH:MM' on the clock's date, or ISO), else the question's."""
    if setting.strip():
        text = setting.strip()
        if "T" in text or " " in text:
            return parse_clock(text)
        try:
            return datetime.combine(clock.date(), time.fromisoformat(text))
        except ValueError as exc:
            raise ValueError(
                f"deadline must be 'HH:MM' or an ISO date-time, got {setting!r}"
            ) from exc
    found = deadline_in_question(question)
    return datetime.combine(clock.date(), found) if found else None
