"""One validation of a run's question and settings, shared by the CLI and the server.

The CLI calls `validate_run` before it builds anything; the graph's `reason`
node calls it first thing, so a server run with bad settings (Studio, the
API) fails with the same message. `SettingsError` is a `ValueError` (through
`AgentError`), which langgraph-api passes on to API clients instead of
masking it as "An internal error occurred".

Every setting of every `Context` has a rule here (a test checks it); a bad
value gets one line naming it and the accepted forms, e.g.
`--now: 'yesterday' is not a date-time; use YYYY-MM-DDTHH:MM (e.g. 2026-09-26T14:00)`.
The CLI names settings by their flags (`--now`), the server by their names (`now`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import fields
from datetime import datetime, time
from functools import cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

from graph.context import Context
from graph.errors import AgentError

MAX_QUESTION_CHARS = 4000
# The recursion limit follows the budgets (graph.agent.recursion_limit), so these caps
# only keep a typo from asking for an endless episode.
MAX_MODEL_TURNS = 10_000
MAX_TOOL_CALLS = 10_000
Naming = Literal["flag", "setting"]
Rule = Callable[[Any], str | None]

QUESTION_EMPTY = 'the question is empty; ask something, e.g. "Who directed The Prestige?"'
QUESTION_TOO_LONG = (
    "the question is longer than {limit:,} characters, the limit; ask about one thing at a time"
)
NOT_A_DATETIME = "{value!r} is not a date-time; use YYYY-MM-DDTHH:MM (e.g. 2026-09-26T14:00)"
NOT_A_DEADLINE = (
    "{value!r} is not a time; use HH:MM on the clock's date (e.g. 16:00), "
    "YYYY-MM-DDTHH:MM, or leave it empty to read the deadline from the question"
)
NO_TIME_ZONE = "{value!r} has a time zone; give the library's local time, without one"
UNKNOWN_PLACE = "{value!r} is not a known place; use one of: {places}"
UNKNOWN_PATRON = "{value!r} is not a patron of the demo library; use one of: {patrons}"
FOREIGN = "{flags}: not a setting of the {env} environment"


_reachable_servers: set[str] = set()
_checked_files: dict[Path, tuple[int, int, int]] = {}


class SettingsError(AgentError):
    """A run setting or the question is not acceptable; the message names it."""


def label(name: str, naming: Naming) -> str:
    """How a message names a setting: `--max-tokens` (CLI) or `max_tokens` (API)."""
    return "--" + name.replace("_", "-") if naming == "flag" else name


def _whole(low: int, high: int) -> Rule:
    def check(value: Any) -> str | None:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return None
        return f"{value!r} is not allowed; use a whole number from {low} to {high}"

    return check


def _number(low: float, high: float, *, above_low: bool = False) -> Rule:
    def check(value: Any) -> str | None:
        numeric = isinstance(value, int | float) and not isinstance(value, bool)
        if numeric and (value > low if above_low else value >= low) and value <= high:
            return None
        floor = f"more than {low:g}" if above_low else f"from {low:g}"
        return f"{value!r} is not allowed; use a number {floor} to {high:g}"

    return check


def _choice(*allowed: str) -> Rule:
    def check(value: Any) -> str | None:
        return None if value in allowed else f"{value!r} is not one of: {', '.join(allowed)}"

    return check


def _text(most: int, *, empty: bool = True, pattern: str = "", form: str = "") -> Rule:
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


def _local_datetime(value: Any) -> str | None:
    text = value.strip() if isinstance(value, str) else ""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return NOT_A_DATETIME.format(value=value)
    if len(text) < len("2026-09-26T14:00"):
        return NOT_A_DATETIME.format(value=value)
    return NO_TIME_ZONE.format(value=value) if moment.tzinfo else None


def _deadline(value: Any) -> str | None:
    text = value.strip() if isinstance(value, str) else None
    if text == "":
        return None
    moment: datetime | time
    try:
        if text is None:
            raise ValueError(value)
        moment = (
            datetime.fromisoformat(text) if "T" in text or " " in text else time.fromisoformat(text)
        )
    except ValueError:
        return NOT_A_DEADLINE.format(value=value)
    return NO_TIME_ZONE.format(value=value) if moment.tzinfo else None


@cache
def _seed() -> dict[str, Any]:
    from tools.library.db import SEED_FILE

    data: dict[str, Any] = json.loads(SEED_FILE.read_text(encoding="utf-8"))
    return data


@cache
def _known_places() -> frozenset[str]:
    """Every folded name and alias of the seed's places and branches."""
    from tools.library.text import fold

    seed = _seed()
    return frozenset(
        fold(name)
        for place in [*seed["places"], *seed["branches"]]
        for name in [place["id"], place["name"], place["name_zh"], *place["aliases"]]
    )


def _origin(value: Any) -> str | None:
    from tools.library.text import fold

    problem = _text(60, empty=False)(value)
    if problem:
        return problem
    if fold(value) in _known_places():
        return None
    places = ", ".join(place["name"] for place in _seed()["places"]) + ", or a branch"
    return UNKNOWN_PLACE.format(value=value, places=places)


def _patron(value: Any) -> str | None:
    ids = [patron["id"] for patron in _seed()["patrons"]]
    if isinstance(value, str) and value.strip() in ids:
        return None
    return UNKNOWN_PATRON.format(value=value, patrons=", ".join(ids))


def _faults(value: Any) -> str | None:
    from tools.library.faults import parse_faults

    if not isinstance(value, str):
        return f"{value!r} is not text"
    try:
        parse_faults(value)
    except ValueError as error:
        return str(error)
    return None


def _file_signature(path: Path) -> tuple[int, int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_ino, info.st_mtime_ns, info.st_size)


def _check_library_server(url: str) -> str | None:
    """What is wrong with a library database URL (its scheme, or the server: it is
    connected to, and set up, once per process), or None."""
    from tools.dbfiles import DatabaseFileError
    from tools.library.db import check_location, ensure_database

    if url in _reachable_servers:
        return None
    try:
        check_location(url)
        ensure_database(url)
    except DatabaseFileError as error:
        return str(error)
    _reachable_servers.add(url)
    return None


def check_library_db(value: Any) -> str | None:
    """What is wrong with a library database setting (empty: the default file), or None.

    A file found good is not opened again while its inode, size and mtime stay the
    same (the reason node checks the settings on every turn).
    """
    from tools.dbfiles import LIBRARY, DatabaseFileError, check_file
    from tools.library.db import default_db_path

    problem = _text(4096)(value)
    if problem:
        return problem
    if "://" in value:
        return _check_library_server(value)
    path = Path(value).expanduser() if value.strip() else default_db_path()
    signature = _file_signature(path)
    if signature is not None and _checked_files.get(path) == signature:
        return None
    try:
        check_file(path, LIBRARY, create=True)
    except DatabaseFileError as error:
        return str(error)
    if signature is not None:
        _checked_files[path] = signature
    return None


def _api_url(value: Any) -> str | None:
    problem = _text(2048)(value)
    if problem or not value.strip():
        return problem
    parsed = urlparse(value.strip())
    if parsed.scheme in ("http", "https") and parsed.netloc:
        return None
    return f"{value!r} is not an http(s) URL (e.g. https://en.wikipedia.org/w/api.php)"


RULES: dict[str, Rule] = {
    "model": _text(500, empty=False),
    "judge": _text(500),
    "temperature": _number(0, 2),
    "max_tokens": _whole(1, 131_072),
    "max_model_turns": _whole(1, MAX_MODEL_TURNS),
    "max_tool_calls": _whole(1, MAX_TOOL_CALLS),
    "max_seconds": _number(0, 86_400, above_low=True),
    "max_verifier_rejections": _whole(0, 20),
    "max_repeats": _whole(0, 20),
    "prompt_style": _choice("react", "act"),
    "verify_mode": _choice("enforce", "record"),
    "approvals": _choice("ask", "deny", "auto"),
    "source": _choice("snapshot", "live"),
    "lang": _text(
        20,
        empty=False,
        pattern=r"[a-z]{2,12}(-[a-z0-9]{1,12})*",
        form="a Wikipedia language code (e.g. en, zh, simple)",
    ),
    "wiki_api_url": _api_url,
    "user_agent": _text(300),
    "observation_chars": _whole(200, 100_000),
    "library_db": check_library_db,
    "patron": _patron,
    "now": _local_datetime,
    "origin": _origin,
    "deadline": _deadline,
    "faults": _faults,
    "tool_timeout_s": _number(0, 600, above_low=True),
}


def validate_question(question: Any) -> str:
    """The question, stripped; raises `SettingsError` if it is empty or too long."""
    text = question.strip() if isinstance(question, str) else ""
    if not text:
        raise SettingsError(QUESTION_EMPTY)
    if len(text) > MAX_QUESTION_CHARS:
        raise SettingsError(QUESTION_TOO_LONG.format(limit=MAX_QUESTION_CHARS))
    return text


def validate_settings(ctx: Context, naming: Naming = "flag") -> None:
    """Check every setting of `ctx`; raise `SettingsError` naming the first bad one."""
    for item in fields(ctx):
        rule = RULES[item.name]
        problem = rule(getattr(ctx, item.name))
        if problem:
            raise SettingsError(f"{label(item.name, naming)}: {problem}")


def validate_run(question: Any, ctx: Context, naming: Naming = "flag") -> str:
    """Check the question and every setting; returns the stripped question."""
    text = validate_question(question)
    validate_settings(ctx, naming)
    return text


def refuse_foreign(env_name: str, context_type: type[Context], names: Iterable[str]) -> None:
    """Refuse settings that belong to another environment (e.g. `--faults` for Wikipedia)."""
    known = {item.name for item in fields(context_type)}
    foreign = sorted(name for name in names if name not in known)
    if foreign:
        flags = ", ".join(label(name, "flag") for name in foreign)
        raise SettingsError(FOREIGN.format(flags=flags, env=env_name))
