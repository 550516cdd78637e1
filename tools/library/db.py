"""The library database on SQLite or PostgreSQL: creation, seed reload, reset, and readers.

A location is an SQLite file path or a `postgresql://user@host:port/db` URL
(`tools.library.engines`); one schema (`tools.library.schema`) and one set of
queries serve both. Reference tables are loaded from `seed.json` on first use
and reloaded when the seed or schema changes. Reservations and the audit log
(`tools.library.audit`) are the database's own history: a reload never drops
them, and a copy's effective status is its reference row overlaid with its
active reservation.

Each database says what it is. An SQLite file carries the library's
`application_id` (`tools.dbfiles`): a file of another kind, not SQLite or
damaged is refused with one line and never written to. A PostgreSQL database
carries `meta.kind = 'library'`: one that holds other tables and no such row
is refused with one line naming the URL (password hidden), never merged into.
Creation, reload and reset run in one write transaction that first takes the
database's setup lock (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: a transaction
advisory lock), then checks again, so processes starting at once load once.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast, overload

from platformdirs import user_state_dir
from sqlalchemy import URL, Connection, delete, func, insert, inspect, select, text, update
from sqlalchemy import exc as sa_exc

from tools.dbfiles import (
    LIBRARY,
    DatabaseFileError,
    DatabaseServerError,
    check_file,
    claim,
    refuse_other_tables,
    use_wal,
)
from tools.library.audit import columns_of, ensure_audit_table, read_events
from tools.library.engines import (
    Location,
    describe,
    engine_for,
    failure_text,
    is_transient,
    parse_location,
    reading,
    writing,
)
from tools.library.schema import (
    COPY_STATUSES,
    HISTORY_INDEXES,
    HISTORY_TABLES,
    KIND,
    REFERENCE_TABLES,
    SCHEMA_VERSION,
    SETUP_LOCK_ORDER,
    copies,
    meta,
    metadata,
)
from tools.library.schema import reservations as reservations_table
from tools.library.seeding import load_seed, seed_fingerprint

SEED_FILE = Path(__file__).resolve().parent / "seed.json"
SETUP_LOCK = LIBRARY.app_id
"""PostgreSQL advisory lock key held while the schema and seed are set up."""
SETUP_ATTEMPTS = 3
INSUFFICIENT_PRIVILEGE = "42501"
NOT_SAYING = "{name} holds tables ({shown}) but does not say it is a library database"
T = TypeVar("T")


@dataclass(frozen=True)
class Found:
    """What an open database holds: its tables, `meta` rows, and (SQLite) whether claimed."""

    tables: frozenset[str]
    meta: dict[str, str]
    claimed: bool

    def is_current(self, fingerprint: str) -> bool:
        """A library database with this seed and schema loaded."""
        kind, seed = self.meta.get("kind"), self.meta.get("seed")
        return self.claimed and kind == KIND and seed == fingerprint


def default_db_path() -> Path:
    """Where the library database lives unless the run names a file or URL."""
    return Path(user_state_dir("react-evidence-agent")) / "library.sqlite3"


def _inspect(conn: Connection) -> Found:
    tables = frozenset(inspect(conn).get_table_names())
    rows: dict[str, str] = {}
    if "meta" in tables and {"key", "value"} <= columns_of(conn, "meta"):
        rows = {str(k): str(v) for k, v in conn.execute(select(meta.c.key, meta.c.value))}
    claimed = True
    if conn.dialect.name == "sqlite":
        claimed = conn.exec_driver_sql("PRAGMA application_id").scalar() == LIBRARY.app_id
    return Found(tables, rows, claimed)


def _refuse_foreign(location: Location, found: Found) -> None:
    """On PostgreSQL, refuse a database that is not (and cannot become) a library database
    (an SQLite file was checked by `check_file` before it was opened)."""
    if isinstance(location, Path) or found.meta.get("kind") == KIND:
        return
    name = describe(location)
    if found.meta.get("kind"):
        raise DatabaseFileError(f"{name} is a {found.meta['kind']} database, not a library one")
    refuse_other_tables(name, LIBRARY, set(found.tables))
    if found.tables:
        shown = ", ".join(sorted(found.tables)[:4]) + (", ..." if len(found.tables) > 4 else "")
        raise DatabaseFileError(NOT_SAYING.format(name=name, shown=shown))


@contextmanager
def _reported(location: Location) -> Iterator[None]:
    """While setting up or reading: an SQLite error, or a PostgreSQL server that fails or
    denies a privilege, becomes one line naming the database."""
    try:
        yield
    except sa_exc.DBAPIError as error:
        if isinstance(location, Path) and isinstance(error, sa_exc.DatabaseError):
            message = f"the {LIBRARY.label} {location} failed: {error.orig}"
            raise DatabaseFileError(message) from None
        sqlstate = getattr(error.orig, "sqlstate", None)
        if isinstance(location, Path) or not (
            isinstance(error, sa_exc.OperationalError) or sqlstate == INSUFFICIENT_PRIVILEGE
        ):
            raise
        reason = failure_text(error)
        raise DatabaseServerError(
            f"the {LIBRARY.label} {describe(location)} failed: {reason}", reason
        ) from None


def check_location(path: Path | str | URL | None, *, create: bool = True) -> Location:
    """The library database a value names (empty: the default file), checked without
    connecting: a file by `check_file`, a URL by its scheme (`DatabaseFileError` if not)."""
    location = parse_location(path or default_db_path())
    if isinstance(location, Path):
        return check_file(location, LIBRARY, create=create)
    return location


@overload
def ensure_database(path: Path, seed_file: Path = ...) -> Path: ...
@overload
def ensure_database(path: Path | str | URL | None = ..., seed_file: Path = ...) -> Location: ...
def ensure_database(path: Path | str | URL | None = None, seed_file: Path = SEED_FILE) -> Location:
    """Create the database (or reload its reference tables if the seed or schema changed,
    migrating the audit log); return its location (a `Path`, or a `URL` that prints with
    its password hidden).

    A file or database of another kind, not SQLite or damaged, or a server that cannot
    be reached is refused with a one-line `DatabaseFileError` before anything is written.
    """
    location = check_location(path)
    _set_up(location, seed_file.read_bytes(), reset=False)
    return location


def reset_database(path: Path | str | URL | None = None) -> Location:
    """Drop this project's tables (reservations and audit log included) and create them
    afresh from the seed; a file or database that is not a library database is refused
    and kept. Other tables of a PostgreSQL database are never touched."""
    location = check_location(path)
    _set_up(location, SEED_FILE.read_bytes(), reset=True)
    return location


def _set_up(location: Location, seed_bytes: bytes, *, reset: bool) -> None:
    fingerprint = seed_fingerprint(seed_bytes)
    with _reported(location):
        if not reset:
            with reading(location) as conn:
                found = _inspect(conn)
            _refuse_foreign(location, found)
            if found.is_current(fingerprint):
                return
        if isinstance(location, Path):
            raw = engine_for(location).raw_connection()
            try:
                use_wal(cast(sqlite3.Connection, raw.driver_connection))
            finally:
                raw.close()
        for attempt in range(1, SETUP_ATTEMPTS + 1):
            try:
                with writing(location) as conn:
                    _build(conn, location, json.loads(seed_bytes), fingerprint, reset=reset)
                return
            except sa_exc.OperationalError as error:
                if attempt == SETUP_ATTEMPTS or not is_transient(error):
                    raise


def _build(
    conn: Connection, location: Location, seed: dict[str, Any], fingerprint: str, *, reset: bool
) -> None:
    """Under the setup lock: check again, then create, reload or reset."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(SETUP_LOCK)))
    found = _inspect(conn)
    _refuse_foreign(location, found)
    if not reset and found.is_current(fingerprint):
        return
    if conn.dialect.name == "sqlite":
        claim(cast(sqlite3.Connection, conn.connection.driver_connection), LIBRARY)
    else:
        _lock_tables(conn, found.tables)
    if reset:
        metadata.drop_all(conn, tables=list(HISTORY_TABLES))
    meta.create(conn, checkfirst=True)
    reservations_table.create(conn, checkfirst=True)
    ensure_audit_table(conn)
    for index in HISTORY_INDEXES:
        index.create(conn, checkfirst=True)
    metadata.drop_all(conn, tables=list(REFERENCE_TABLES))
    metadata.create_all(conn, tables=list(REFERENCE_TABLES))
    load_seed(conn, seed)
    rows = {"kind": KIND, "schema_version": SCHEMA_VERSION, "seed": fingerprint}
    conn.execute(delete(meta).where(meta.c.key.in_(rows)))
    conn.execute(insert(meta), [{"key": key, "value": value} for key, value in rows.items()])


def _lock_tables(conn: Connection, present: frozenset[str]) -> None:
    """Lock the project's existing tables before changing them, in `SETUP_LOCK_ORDER`
    (queries that started earlier finish first; later ones wait for the commit)."""
    names = [table.name for table in SETUP_LOCK_ORDER if table.name in present]
    if names:
        conn.execute(text(f"LOCK TABLE {', '.join(names)} IN ACCESS EXCLUSIVE MODE"))


def set_copy_status(
    path: Path | str | URL,
    copy_id: str,
    status: str,
    status_time: str,
    *,
    due: str | None = None,
    held_for: str | None = None,
) -> None:
    """Record a circulation event on a copy (check-out, return...), for demos and tests."""
    if status not in COPY_STATUSES:
        raise ValueError(f"status must be one of {COPY_STATUSES}, got {status!r}")
    location = ensure_database(path)
    values = {"status": status, "status_time": status_time, "due": due, "held_for": held_for}
    with writing(location) as conn:
        changed = conn.execute(
            update(copies).where(copies.c.copy_id == copy_id).values(values)
        ).rowcount
    if changed != 1:
        raise KeyError(f"no copy {copy_id!r} in {describe(location)}")


def _read(
    path: Path | str | URL, query: Callable[[Connection, frozenset[str]], list[T]]
) -> list[T]:
    """Run a read on an existing library database without creating or changing anything;
    a missing file or an empty database reads as empty, another kind is refused."""
    location = parse_location(path)
    if isinstance(location, Path):
        if not location.exists():
            return []
        check_file(location, LIBRARY, create=False)
    with _reported(location), reading(location) as conn:
        found = _inspect(conn)
        _refuse_foreign(location, found)
        return query(conn, found.tables)


def audit_log(
    path: Path | str | URL,
    thread_id: str | None = None,
    request_ids: Collection[str] | None = None,
) -> list[dict[str, Any]]:
    """The audit rows (of one thread, or all; of the `request_ids` only, if given) in id
    order, `detail` decoded; empty if the database does not exist yet."""
    return _read(path, lambda conn, _tables: read_events(conn, thread_id, request_ids=request_ids))


def reservations(path: Path | str | URL) -> list[dict[str, Any]]:
    """Every reservation in order; empty if the database or its table does not exist."""

    def query(conn: Connection, tables: frozenset[str]) -> list[dict[str, Any]]:
        if "reservations" not in tables:
            return []
        rows = conn.execute(
            select(reservations_table).order_by(reservations_table.c.reservation_id)
        )
        return [dict(row._mapping) for row in rows]

    return _read(path, query)
