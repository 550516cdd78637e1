"""Where a database is: `--db` / `REACT_AGENT_DB` (and `--library-db`) parsed once.

A value is either a path to an SQLite file or a PostgreSQL URL
(`postgresql://user@host:port/db`, see `graph.store.postgres`). Any other
URL (anything with `://`) is refused with one line instead of being taken for
a relative path (which once made a directory named `postgresql:` and an
SQLite file inside it).
"""

from __future__ import annotations

import importlib.util
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from platformdirs import user_state_dir

from graph import terminal
from graph.errors import DatabaseError
from tools.dbfiles import DatabaseFileError, expand

DB_ENV_VAR = "REACT_AGENT_DB"
DB_HELP = (
    "checkpoint database: an SQLite file or a postgresql://user@host:port/db URL "
    f"(default: ${DB_ENV_VAR}, else a file under the user's state directory)"
)
URL_MARKER = "://"
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
UNSUPPORTED_URL = (
    "{what} {value!r}: give an SQLite file path (e.g. episodes.sqlite3) or a "
    "postgresql://user@host:port/db URL"
)
POSTGRES_MODULES = ("psycopg", "psycopg_pool", "langgraph.checkpoint.postgres")
NO_POSTGRES_EXTRA = (
    "{what} {value!r}: PostgreSQL needs the [postgres] extra "
    '(pip install -e ".[postgres]"), which is not installed here'
)
_PASSWORD = re.compile(r"(://[^:/@]*:)[^@/]*@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&\s]*?(?=[&\s]|:\s|$)", re.IGNORECASE)
_QUERY_KEY = re.compile(r"password=", re.IGNORECASE)


@dataclass(frozen=True)
class Location:
    """A parsed database location: `path` for an SQLite file, else `url`."""

    path: Path | None = None
    url: str = ""

    @property
    def label(self) -> str:
        """How messages name it (a URL with its password hidden)."""
        return str(self.path) if self.path is not None else hidden_password(self.url)


def parse_location(value: str | os.PathLike[str], what: str = "--db") -> Location:
    """Parse one value; an empty one is an error naming `what`."""
    text = os.fspath(value).strip()
    if not text:
        raise DatabaseError(f"{what} is empty: give a database file path")
    if URL_MARKER in text:
        scheme = text.split(URL_MARKER, 1)[0].lower()
        if scheme not in POSTGRES_SCHEMES:
            raise DatabaseError(UNSUPPORTED_URL.format(what=what, value=hidden_password(text)))
        if not postgres_installed():
            raise DatabaseError(NO_POSTGRES_EXTRA.format(what=what, value=hidden_password(text)))
        return Location(url=text)
    try:
        return Location(path=expand(text))
    except DatabaseFileError as error:
        raise DatabaseError(f"{what}: {error}") from None


def postgres_installed() -> bool:
    """Whether the `[postgres]` extra's modules can be imported (found, not imported)."""
    try:
        return all(importlib.util.find_spec(name) is not None for name in POSTGRES_MODULES)
    except ModuleNotFoundError:  # a parent package is missing
        return False


def default_checkpoint_location() -> Location:
    """`$REACT_AGENT_DB` if set, else `episodes.sqlite3` under the user's state directory."""
    configured = os.environ.get(DB_ENV_VAR, "").strip()
    if configured:
        return parse_location(configured, DB_ENV_VAR)
    return Location(path=Path(user_state_dir("react-evidence-agent")) / "episodes.sqlite3")


def checkpoint_location(value: str | None = None) -> Location:
    """The checkpoint database a command uses: `--db` if given, else the default."""
    return parse_location(value) if value else default_checkpoint_location()


def anywhere(value: str) -> str:
    """A `--db` value that names the same database from any working directory: a file
    path made absolute (`~` expanded), a URL as given."""
    if URL_MARKER in value:
        return value
    return os.path.abspath(os.path.expanduser(value))


PASSWORD_NOTE = (
    " (the password is shown as ***: give the real URL, or set {var} to it and leave out --db)"
)


SERVER_PASSWORD_NOTE = " (the password is shown as ***: give the real URL)"


def server_words(url: str) -> tuple[list[str], str]:
    """The `--server` words of a printed command (a password hidden) and the note it needs."""
    shown = hidden_password(url)
    return ["--server", shown], SERVER_PASSWORD_NOTE if shown != url else ""


def _named(value: str | None) -> str:
    return (value or os.environ.get(DB_ENV_VAR, "")).strip()


def db_words(value: str | None) -> list[str]:
    """The `--db` words a printed command needs to open the same checkpoint database from
    any directory: the `--db` `value`, else `$REACT_AGENT_DB` (which the copying shell may
    not have, or have relative to another directory); none for the default file. A path
    is made absolute, a URL's password hidden (see `password_note`)."""
    named = _named(value)
    return ["--db", hidden_password(anywhere(named))] if named else []


def password_note(value: str | None) -> str:
    """What a printed command whose `db_words` hid a password must add ('' if none)."""
    named = _named(value)
    return PASSWORD_NOTE.format(var=DB_ENV_VAR) if hidden_password(named) != named else ""


def db_command(*words: str, db: str | None, tail: str = "") -> str:
    """`words`, the `db_words` of `db` and the literal `tail` (alternatives, placeholders)
    as one shell-quoted, terminal-safe command, with the `password_note` it needs."""
    command = terminal.command(*words, *db_words(db))
    return command + (f" {tail}" if tail else "") + password_note(db)


THREAD_EXISTS = (
    "thread {thread_id} already exists in {label}: continue it with `{resume}`, or fork it "
    "with `{fork}` (see `{history}`){note}"
)


def thread_exists_message(thread_id: str, label: str, url: object = None) -> str:
    """Why a new thread cannot take `thread_id`, with the commands that continue, fork and
    list it on the same database (the file `label` names, or the server's `url`)."""
    render = getattr(url, "render_as_string", None)  # a saver's SQLAlchemy URL
    plain = render(hide_password=False) if callable(render) else url
    value: str | None = plain if isinstance(plain, str) and plain else label
    default = default_checkpoint_location()
    if value == "this database" or (
        not _named(None) and default.path is not None and value == str(default.path)
    ):
        value = None  # a checkpointer that names no file, or the default file
    where = db_words(value)
    return THREAD_EXISTS.format(
        thread_id=terminal.line(thread_id),
        label=label,
        resume=terminal.command("react-agent", "resume", thread_id, *where),
        fork=terminal.command("react-agent", "resume", thread_id, *where) + " --from CHECKPOINT_ID",
        history=terminal.command("react-agent", "history", thread_id, *where),
        note=password_note(value),
    )


def hidden_password(text: str) -> str:
    """`text` with the password of a URL in it (`user:PASSWORD@`, `?password=`) replaced
    by `***`."""
    return _QUERY_PASSWORD.sub(r"\1***", _PASSWORD.sub(r"\1***@", text))


_WHOLE_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S*")


def metadata_without_passwords(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """Checkpoint metadata with the password of each URL value left out: the LangGraph
    server copies a run's context (a `library_db` URL, say) into every checkpoint's."""
    return {
        key: without_password(value)
        if isinstance(value, str) and _WHOLE_URL.fullmatch(value)
        else value
        for key, value in metadata.items()
    }


def without_password(text: str) -> str:
    """A URL with its password (`user:PASSWORD@`, `?password=`) left out, as a thread
    stores it: libpq then takes it from PGPASSWORD or ~/.pgpass, unless a run gives it."""
    if URL_MARKER not in text:
        return text
    parts = urlsplit(text)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        netloc = userinfo.split(":", 1)[0] + "@" + host
    kept = [item for item in parts.query.split("&") if item and not _QUERY_KEY.match(item)]
    return urlunsplit(parts._replace(netloc=netloc, query="&".join(kept)))
