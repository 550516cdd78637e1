"""No database password in a thread's settings.

A thread stores its run's settings (and compares them on resume), and `show`,
`history`, Studio and the server's API all read them back, so a
`postgresql://user:PASSWORD@host/db` library database is stored without its
password. A run takes the password again from the settings it was given (the
same database, compared without passwords) or libpq finds it (PGPASSWORD,
~/.pgpass). Threads stored before this hold the URL with its password; they
resume with it, and are compared and shown without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from graph.settings.context import Context
from graph.store.locations import without_password

URL_SETTINGS = ("library_db",)
"""Settings that may name a database by a URL holding a password."""

C = TypeVar("C", bound=Context)


def recorded(settings: Mapping[str, Any]) -> dict[str, Any]:
    """`settings` as a thread stores, compares and shows them: URLs without passwords."""
    return {
        name: without_password(value) if name in URL_SETTINGS and isinstance(value, str) else value
        for name, value in settings.items()
    }


def with_given_password(stored: C, given: object) -> C:
    """`stored` (a thread's settings) with the password of the database URL the run was
    `given`, when both name the same database and `given` holds one; else `stored` as it
    is (a thread stored with its password keeps it)."""
    changes: dict[str, Any] = {}
    for name in URL_SETTINGS:
        mine, theirs = getattr(stored, name, None), getattr(given, name, None)
        if not (isinstance(mine, str) and isinstance(theirs, str)) or mine == theirs:
            continue
        bare = without_password(theirs)
        if bare != theirs and without_password(mine) == bare:
            changes[name] = theirs
    return replace(stored, **changes) if changes else stored
