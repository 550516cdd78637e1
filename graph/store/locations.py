"""Where a database is: `--db` / `REACT_AGENT_DB` (and `--library-db`) parsed once.

A value is either a path to an SQLite file or a URL (`postgresql://...`,
anything with `://`). Until a backend for URLs exists, a URL is refused with
one line instead of being taken for a relative path (which once made a
directory named `postgresql:` and an SQLite file inside it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_state_dir

from graph.errors import DatabaseError

DB_ENV_VAR = "REACT_AGENT_DB"
URL_MARKER = "://"
NO_URL_BACKEND = (
    "{what} {value!r} is a URL; only SQLite files are supported so far "
    "(give a file path, e.g. episodes.sqlite3)"
)


@dataclass(frozen=True)
class Location:
    """A parsed database location: `path` for an SQLite file, else `url`."""

    path: Path | None = None
    url: str = ""

    @property
    def label(self) -> str:
        """How messages name it."""
        return str(self.path) if self.path is not None else self.url


def parse_location(value: str | os.PathLike[str], what: str = "--db") -> Location:
    """Parse one value; an empty one is an error naming `what`."""
    text = os.fspath(value).strip()
    if not text:
        raise DatabaseError(f"{what} is empty: give a database file path")
    if URL_MARKER in text:
        return Location(url=text)
    return Location(path=Path(text).expanduser())


def default_checkpoint_location() -> Location:
    """`$REACT_AGENT_DB` if set, else `episodes.sqlite3` under the user's state directory."""
    configured = os.environ.get(DB_ENV_VAR, "").strip()
    if configured:
        return parse_location(configured, DB_ENV_VAR)
    return Location(path=Path(user_state_dir("react-evidence-agent")) / "episodes.sqlite3")


def checkpoint_location(value: str | None = None) -> Location:
    """The checkpoint database a command uses: `--db` if given, else the default."""
    return parse_location(value) if value else default_checkpoint_location()


def sqlite_path(location: Location, what: str = "--db") -> Path:
    """The SQLite file of `location`; a URL is refused until a backend for it exists."""
    if location.path is None:
        raise DatabaseError(NO_URL_BACKEND.format(what=what, value=location.url))
    return location.path


def checkpoint_path(value: str | None = None) -> Path:
    """`checkpoint_location(value)` as an SQLite path (URLs refused, naming the flag)."""
    what = "--db" if value else DB_ENV_VAR
    return sqlite_path(checkpoint_location(value), what)
