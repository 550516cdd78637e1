"""Connections to PostgreSQL as the checkpoint store makes them (what
langgraph-checkpoint-postgres needs), and its failures said in one line naming the URL
(password hidden).

The library's URL parser (`tools.library.engines`) is imported inside the functions that
use it: at the top it would add about 0.22 s to every process that opens a PostgreSQL
checkpoint store (python -X importtime).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg.rows import dict_row
from sqlalchemy.engine import URL

from tools.dbfiles import CHECKPOINTS, DatabaseFileError, DatabaseServerError

CONNECT_TIMEOUT_S = 5
CANNOT_CONNECT = "cannot open the {label} {location}: {reason}"
FAILED_WHILE_RUNNING = "the {label} {location} failed: {reason}"


def connection_kwargs() -> dict[str, Any]:
    """How every connection of the saver is made (what langgraph-checkpoint-postgres needs)."""
    return {"autocommit": True, "prepare_threshold": 0, "row_factory": dict_row}


def parse_url(value: str) -> URL:
    """The URL of a PostgreSQL database; another scheme or a malformed URL is refused in
    one line (the library's parser: both databases accept the same URLs)."""
    from tools.library.engines import parse_location

    location = parse_location(value)
    if not isinstance(location, URL):
        raise DatabaseFileError(f"{value} is not a database URL")
    return location


def conninfo(url: URL) -> str:
    """The libpq connection string of `url` (password included)."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def label(url: URL) -> str:
    """How messages name the database: its URL with the password hidden."""
    return url.set(drivername="postgresql").render_as_string(hide_password=True)


def reason_of(error: BaseException) -> str:
    """The server's own words for a failure, on one line."""
    from tools.library.engines import failure_text

    return failure_text(error)


def server_error(url: URL, error: BaseException) -> DatabaseServerError:
    """One line for a server that cannot be reached, refuses the login or lacks the database."""
    reason = reason_of(error)
    message = CANNOT_CONNECT.format(label=CHECKPOINTS.label, location=label(url), reason=reason)
    return DatabaseServerError(message, reason)


@contextmanager
def reported(url: URL) -> Iterator[None]:
    """Turn a connection failure (or a privilege the server denies) into one line."""
    try:
        yield
    except (psycopg.OperationalError, psycopg.errors.InsufficientPrivilege) as error:
        raise server_error(url, error) from None


@contextmanager
def server_failures_reported(value: str) -> Iterator[None]:
    """Around a whole command: the server lost mid-command is one line naming the URL."""
    try:
        yield
    except psycopg.OperationalError as error:
        url = parse_url(value)
        reason = reason_of(error)
        message = FAILED_WHILE_RUNNING.format(
            label=CHECKPOINTS.label, location=label(url), reason=reason
        )
        raise DatabaseServerError(message, reason) from None


def connect(url: URL) -> psycopg.Connection[dict[str, Any]]:
    """One connection to `url`, made like the pool's (a `DatabaseServerError` if it fails)."""
    with reported(url):
        return psycopg.connect(
            conninfo(url), connect_timeout=CONNECT_TIMEOUT_S, **connection_kwargs()
        )
