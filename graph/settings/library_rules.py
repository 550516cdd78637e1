"""The library assistant's settings rules: its clock and deadline, a known place and
patron of the seed, fault specs, and its database (a file, or a PostgreSQL server
connected to once per process).

The library's modules and `graph.settings.policy` are imported inside the rules that use
them: every CLI command imports this module, and at the top they would add about 0.35 s
(SQLAlchemy) and 6 ms to `react-agent --help`, which takes 0.2 s (python -X importtime).
"""

from __future__ import annotations

import json
from datetime import datetime, time
from functools import cache
from pathlib import Path
from typing import Any

from graph.settings.setting_rules import text as text_rule
from tools.dbfiles import LIBRARY, DatabaseFileError, check_file, expand

NOT_A_DATETIME = "{value!r} is not a date-time; use YYYY-MM-DDTHH:MM (e.g. 2026-09-26T14:00)"
NOT_A_DEADLINE = (
    "{value!r} is not a time; use HH:MM on the clock's date (e.g. 16:00), "
    "YYYY-MM-DDTHH:MM, or leave it empty to read the deadline from the question"
)
NO_TIME_ZONE = "{value!r} has a time zone; give the library's local time, without one"
UNKNOWN_PLACE = "{value!r} is not a known place; use one of: {places}"
UNKNOWN_PATRON = "{value!r} is not a patron of the demo library; use one of: {patrons}"

_reachable_servers: set[str] = set()
_checked_files: dict[Path, tuple[int, int, int]] = {}


def local_datetime(value: Any) -> str | None:
    text = value.strip() if isinstance(value, str) else ""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return NOT_A_DATETIME.format(value=value)
    if len(text) < len("2026-09-26T14:00"):
        return NOT_A_DATETIME.format(value=value)
    return NO_TIME_ZONE.format(value=value) if moment.tzinfo else None


def deadline(value: Any) -> str | None:
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


def origin(value: Any) -> str | None:
    from tools.library.text import fold

    problem = text_rule(60, empty=False)(value)
    if problem:
        return problem
    if fold(value) in _known_places():
        return None
    places = ", ".join(place["name"] for place in _seed()["places"]) + ", or a branch"
    return UNKNOWN_PLACE.format(value=value, places=places)


def patron(value: Any) -> str | None:
    ids = [patron["id"] for patron in _seed()["patrons"]]
    if isinstance(value, str) and value.strip() in ids:
        return None
    return UNKNOWN_PATRON.format(value=value, patrons=", ".join(ids))


def faults(value: Any) -> str | None:
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
    from tools.library.db import default_db_path

    problem = text_rule(4096)(value)
    if problem:
        return problem
    if "://" in value:
        return _check_library_server(value)
    try:
        path = expand(value) if value.strip() else default_db_path()
    except DatabaseFileError as error:
        return str(error)
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


def check_policy(value: Any) -> str | None:
    """The approval policy file (`graph.settings.policy`): '' for none, else a file that reads
    as a policy (which actions it may name is the environment's: `check_policy_actions`)."""
    if not isinstance(value, str):
        return f"{value!r} is not a file name"
    if not value.strip():
        return None
    from graph.settings.policy import PolicyError, load_policy

    try:
        load_policy(value, None)
    except PolicyError as error:
        return str(error)
    return None


def check_policy_actions(value: str) -> str | None:
    """A library run's policy file names only the library's write actions."""
    if not value.strip():
        return None
    from graph.settings.policy import PolicyError, load_policy, write_actions
    from tools.library.tools import SPECS

    try:
        load_policy(value, write_actions(SPECS))
    except PolicyError as error:
        return str(error)
    return None
