"""The kinds of rule a setting follows: a whole number or a number in a range, one of
some choices, text (bounded, printable, maybe of a pattern), an http(s) URL. A rule
returns what is wrong with a value, or None."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlparse

Rule = Callable[[Any], str | None]


def whole(low: int, high: int) -> Rule:
    def check(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return None
        return f"{value!r} is not allowed; use a whole number from {low} to {high}"

    return check


def number(low: float, high: float, *, above_low: bool = False) -> Rule:
    def check(value: Any) -> str | None:
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if numeric and (value > low if above_low else value >= low) and value <= high:
            return None
        floor = f"more than {low:g}" if above_low else f"from {low:g}"
        return f"{value!r} is not allowed; use a number {floor} to {high:g}"

    return check


def choice(*allowed: str) -> Rule:
    def check(value: Any) -> str | None:
        return None if value in allowed else f"{value!r} is not one of: {', '.join(allowed)}"

    return check


def text(most: int, *, empty: bool = True, pattern: str = "", form: str = "") -> Rule:
    def check(value: Any) -> str | None:
        if not isinstance(value, str):
            return f"{value!r} is not text"
        if not value.strip():
            return None if empty else "it is empty"
        if len(value) > most:
            return f"it is {len(value):,} characters long; the most is {most:,}"
        if not value.isprintable():
            return f"{value!r} holds control characters"
        if pattern and not re.fullmatch(pattern, value.strip()):
            return f"{value!r} is not {form}"
        return None

    return check


def api_url(value: Any) -> str | None:
    problem = text(2048)(value)
    if problem or not value.strip():
        return problem
    try:
        parsed = urlparse(value.strip())
        port_ok = parsed.port is None or parsed.port > 0
    except ValueError:
        parsed, port_ok = None, False
    if (
        parsed
        and port_ok
        and parsed.scheme in ("http", "https")
        and parsed.hostname
        and not any(char.isspace() for char in parsed.netloc)
    ):
        return None
    return f"{value!r} is not an http(s) URL (e.g. https://en.wikipedia.org/w/api.php)"
