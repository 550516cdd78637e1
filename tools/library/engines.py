"""Where the library database is, and one pooled SQLAlchemy engine per location and process.

A location is an SQLite file path or a `postgresql://user@host:port/db` URL
(psycopg 3 underneath). Write transactions take their locks up front: on
SQLite `BEGIN IMMEDIATE` (one writer at a time, others wait up to
`BUSY_TIMEOUT_S`); on PostgreSQL the queries lock the rows they decide on
(`SELECT ... FOR UPDATE`, see `tools.library.holds`).

Failing to reach a PostgreSQL server, a login it refuses or a database it
lacks is a `DatabaseServerError` (a `ValueError`) of one line naming the URL
with its password hidden. Engines are forgotten in a forked child, which
opens its own connections.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine, Row, Table, create_engine, event
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url

from tools.dbfiles import (
    LIBRARY,
    DatabaseFileError,
    DatabaseServerError,
    disk_full,
    expand,
    is_disk_full,
)

Location = Path | URL
"""An SQLite file, or a PostgreSQL database."""

URL_MARKER = "://"
POSTGRES_SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
BUSY_TIMEOUT_S = 5.0
CONNECT_TIMEOUT_S = 5
POOL_SIZE = 5
POOL_OVERFLOW = 10
CACHED_ENGINES = 16
WRITE_OPTION = "library_write"
TRANSIENT_SQLSTATES = ("40001", "40P01")
"""PostgreSQL serialization failure and deadlock: the transaction may simply be run again."""

NOT_A_URL = "{value} is not a database URL; give a file path or postgresql://user@host:port/db"
UNSUPPORTED_SCHEME = (
    "{value}: the library database must be an SQLite file path or a "
    "postgresql://user@host:port/db URL"
)
NO_DRIVER = (
    '{value}: PostgreSQL needs the [postgres] extra (pip install -e ".[postgres]"), '
    "which is not installed here"
)
CANNOT_CONNECT = "cannot open the library database {location}: {reason}{hint}"
NO_PASSWORD = (
    " (a thread stores the URL without its password: give the URL with it again where "
    "the run starts, in --library-db or a server run's context, or set PGPASSWORD or a "
    "~/.pgpass line where it runs: with --server, on the server)"
)
PASSWORD_REFUSED = ("no password supplied", "password authentication failed")
TRANSIENT_FAILURES = (sqlite3.OperationalError, sa_exc.OperationalError, DatabaseServerError)
"""Errors of a call that may succeed when tried again: a locked or unreachable database."""

_PASSWORD = re.compile(r"(://[^:/@]*:)[^@/]*@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&]*", re.IGNORECASE)
_SERVER_PREFIX = re.compile(r"^(connection failed: )?(connection to server at .*? failed: )?")
_engines: OrderedDict[str, Engine] = OrderedDict()
_engines_lock = threading.Lock()


def parse_location(value: Path | str | URL) -> Location:
    """A path (`~` expanded) or a PostgreSQL URL; another kind of URL is refused in one line."""
    if isinstance(value, URL):
        return value
    text = os.fspath(value).strip()
    if URL_MARKER not in text:
        return expand(text)
    shown = _PASSWORD.sub(r"\1***@", text)
    try:
        url = make_url(text)
    except sa_exc.ArgumentError:
        raise DatabaseFileError(NOT_A_URL.format(value=shown)) from None
    if url.drivername not in POSTGRES_SCHEMES:
        raise DatabaseFileError(UNSUPPORTED_SCHEME.format(value=shown))
    if importlib.util.find_spec("psycopg") is None:
        raise DatabaseFileError(NO_DRIVER.format(value=shown))
    return url


def describe(location: Location) -> str:
    """How messages name a location: the path, or the URL with its password hidden."""
    if isinstance(location, Path):
        return str(location)
    return _QUERY_PASSWORD.sub(r"\1***", location.render_as_string(hide_password=True))


def location_key(location: Location) -> str:
    """One text per database (the password included), for caches keyed by location."""
    if isinstance(location, Path):
        return os.path.abspath(location)
    return location.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def engine_for(location: Location) -> Engine:
    """The engine of `location` in this process (created on first use, with a pool).

    The most recently used `CACHED_ENGINES` are kept; an older one is disposed.
    """
    key = location_key(location)
    with _engines_lock:
        engine = _engines.get(key)
        if engine is None:
            engine = _engines[key] = (
                _sqlite_engine(location) if isinstance(location, Path) else _postgres_engine(key)
            )
            while len(_engines) > CACHED_ENGINES:
                _engines.popitem(last=False)[1].dispose()
        _engines.move_to_end(key)
        return engine


def _forget_engines() -> None:
    """In a forked child: drop the parent's engines without closing its connections."""
    for engine in _engines.values():
        engine.dispose(close=False)
    _engines.clear()


os.register_at_fork(after_in_child=_forget_engines)


def _sqlite_engine(path: Path) -> Engine:
    engine = create_engine(
        URL.create("sqlite+pysqlite", database=str(path)),
        connect_args={"timeout": BUSY_TIMEOUT_S, "check_same_thread": False},
        pool_size=POOL_SIZE,
        max_overflow=POOL_OVERFLOW,
    )
    event.listen(engine, "connect", _sqlite_connected)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connected(dbapi_connection: Any, _record: Any) -> None:
    """The driver's own transaction handling off, so `_sqlite_begin` decides how to begin."""
    dbapi_connection.isolation_level = None
    dbapi_connection.execute("PRAGMA foreign_keys = ON")
    dbapi_connection.execute("PRAGMA synchronous = NORMAL")


def _sqlite_begin(connection: Connection) -> None:
    """`BEGIN IMMEDIATE` for a write transaction (the write lock up front); a read runs each
    statement on its own, as PostgreSQL's READ COMMITTED does (and saves two round trips)."""
    if connection.get_execution_options().get(WRITE_OPTION, False):
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def _postgres_engine(url: str) -> Engine:
    return create_engine(
        url,
        pool_size=POOL_SIZE,
        max_overflow=POOL_OVERFLOW,
        pool_pre_ping=True,
        connect_args={"connect_timeout": CONNECT_TIMEOUT_S, "application_name": "react-agent"},
    )


def _connect(location: Location) -> Connection:
    try:
        return engine_for(location).connect()
    except sa_exc.OperationalError as error:
        if isinstance(location, Path):
            raise
        reason = failure_text(error)
        hint = NO_PASSWORD if any(words in reason for words in PASSWORD_REFUSED) else ""
        message = CANNOT_CONNECT.format(location=describe(location), reason=reason, hint=hint)
        raise DatabaseServerError(message, reason) from None


@contextmanager
def reading(location: Location) -> Iterator[Connection]:
    """A connection to read with: each statement sees what was committed when it began
    (autocommit, so a read costs no BEGIN and COMMIT round trips)."""
    with _connect(location) as connection:
        if connection.dialect.name == "postgresql":
            connection.execution_options(isolation_level="AUTOCOMMIT")
        with connection.begin():
            yield connection


@contextmanager
def writing(location: Location) -> Iterator[Connection]:
    """A connection in a write transaction, committed when the block ends without error;
    a full disk under an SQLite file is `DiskFullError` (one line naming it)."""
    try:
        with _connect(location) as connection:
            connection.execution_options(**{WRITE_OPTION: True})
            with connection.begin():
                yield connection
    except sa_exc.OperationalError as error:
        if isinstance(location, Path) and is_disk_full(error):
            raise disk_full(location, LIBRARY.label) from None
        raise


def failure_text(error: BaseException) -> str:
    """The database's own words for an error, on one line (no SQL, no links)."""
    if isinstance(error, DatabaseServerError):
        return error.reason
    cause = error.orig if isinstance(error, sa_exc.DBAPIError) else error
    first = (str(cause).strip().splitlines() or [type(cause).__name__])[0]
    return _SERVER_PREFIX.sub("", first).replace("FATAL:  ", "").strip()


def is_transient(error: sa_exc.DBAPIError) -> bool:
    """Whether PostgreSQL ended the transaction for a deadlock or a serialization failure."""
    return getattr(error.orig, "sqlstate", None) in TRANSIENT_SQLSTATES


def insert_unless_taken(
    connection: Connection, table: Table, values: Mapping[str, Any], unique_column: str
) -> Row[Any] | None:
    """Insert a row unless another already holds its `unique_column` value; the new row's
    primary key, or None. A concurrent insert of the same value waits for the other
    transaction, then yields None, without aborting this transaction (`ON CONFLICT DO
    NOTHING`; any other constraint still raises)."""
    dialect_insert = postgresql_insert if connection.dialect.name == "postgresql" else sqlite_insert
    statement = (
        dialect_insert(table)
        .values(dict(values))
        .on_conflict_do_nothing(index_elements=[unique_column])
        .returning(*table.primary_key.columns)
    )
    return connection.execute(statement).first()
