"""The library's SQLite database: schema, seed loading, and the record readers.

Reference tables (places, branches, hours, catalogue, copies, status cache,
patrons) are loaded from `seed.json` on first use and reloaded when the seed
or schema changes. Reservations and the audit log (`tools.library.audit`) are
the database's own history: they are never dropped, and a copy's effective
status is its reference row overlaid with its active reservation. The file
says what it is (`tools.dbfiles.LIBRARY`): a file of another kind, not SQLite
or damaged is refused with one line and never written to.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any, TypeVar

from platformdirs import user_state_dir

from tools.dbfiles import LIBRARY, check_file, claim, describe_error
from tools.library.audit import ensure_audit_table, read_events
from tools.library.text import fold

SEED_FILE = Path(__file__).resolve().parent / "seed.json"
SCHEMA_VERSION = "2"
COPY_STATUSES = ("available", "checked_out", "on_hold", "in_transit", "missing")
WEEKDAY_KEYS = ("mon-fri",) * 5 + ("sat", "sun")
T = TypeVar("T")

REFERENCE_SCHEMA = f"""
CREATE TABLE places (
    place_id TEXT PRIMARY KEY, name TEXT NOT NULL, name_zh TEXT NOT NULL);
CREATE TABLE place_aliases (
    alias TEXT PRIMARY KEY, place_id TEXT NOT NULL REFERENCES places(place_id),
    label TEXT NOT NULL);
CREATE TABLE branches (
    branch_id TEXT PRIMARY KEY REFERENCES places(place_id),
    campus TEXT NOT NULL REFERENCES places(place_id));
CREATE TABLE walk_times (
    origin TEXT NOT NULL REFERENCES places(place_id),
    destination TEXT NOT NULL REFERENCES places(place_id),
    minutes INTEGER NOT NULL CHECK (minutes >= 0), PRIMARY KEY (origin, destination));
CREATE TABLE opening_hours (
    branch_id TEXT NOT NULL REFERENCES branches(branch_id), date TEXT NOT NULL,
    closed_reason TEXT, building_open TEXT, building_close TEXT,
    desk_open TEXT, desk_close TEXT, note TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (branch_id, date));
CREATE TABLE catalogue (
    record_id TEXT PRIMARY KEY, title TEXT NOT NULL, title_en TEXT NOT NULL,
    author TEXT NOT NULL, year INTEGER NOT NULL,
    medium TEXT NOT NULL CHECK (medium IN ('paper', 'e-book')), note TEXT NOT NULL DEFAULT '');
CREATE TABLE copies (
    copy_id TEXT PRIMARY KEY, record_id TEXT NOT NULL REFERENCES catalogue(record_id),
    branch_id TEXT NOT NULL REFERENCES branches(branch_id), shelf TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN {COPY_STATUSES!r}),
    held_for TEXT, due TEXT, status_time TEXT NOT NULL);
CREATE TABLE status_cache (
    copy_id TEXT PRIMARY KEY REFERENCES copies(copy_id),
    status TEXT NOT NULL CHECK (status IN {COPY_STATUSES!r}), shelf TEXT NOT NULL,
    as_of TEXT NOT NULL);
CREATE TABLE patrons (
    patron_id TEXT PRIMARY KEY, name TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'blocked')),
    blocked_reason TEXT NOT NULL DEFAULT '', max_holds INTEGER NOT NULL);
"""
REFERENCE_TABLES = (
    "status_cache",
    "copies",
    "catalogue",
    "opening_hours",
    "walk_times",
    "branches",
    "place_aliases",
    "places",
    "patrons",
)
HISTORY_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reservations (
    reservation_id INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL UNIQUE,
    patron_id TEXT NOT NULL, copy_id TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled')),
    created_at TEXT NOT NULL, recorded_at TEXT NOT NULL,
    thread_id TEXT NOT NULL, step_index INTEGER NOT NULL);
"""


def default_db_path() -> Path:
    """Where the library database lives unless the run names a file."""
    return Path(user_state_dir("react-evidence-agent")) / "library.sqlite3"


def connect(path: Path, *, create: bool = True) -> sqlite3.Connection:
    """Open the database in autocommit mode (callers open their own transactions);
    without `create`, a missing file is an error instead of a new empty database."""
    target: Path | str = path if create else f"{path.resolve().as_uri()}?mode=rw"
    conn = sqlite3.connect(
        target, timeout=5.0, isolation_level=None, check_same_thread=False, uri=not create
    )
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    return conn


@contextmanager
def transaction(path: Path, *, write: bool = False) -> Iterator[sqlite3.Connection]:
    """A connection inside one transaction (`BEGIN IMMEDIATE` when it writes)."""
    conn = connect(path)
    try:
        conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    finally:
        conn.close()


def _run_statements(conn: sqlite3.Connection, script: str) -> None:
    """Run DDL inside the open transaction (`executescript` would commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _seed_fingerprint(seed_bytes: bytes) -> str:
    return f"{SCHEMA_VERSION}:{hashlib.sha256(seed_bytes).hexdigest()}"


def _hours_rows(seed: dict[str, Any]) -> list[tuple[Any, ...]]:
    first = date.fromisoformat(seed["hours_range"]["first"])
    last = date.fromisoformat(seed["hours_range"]["last"])
    exceptions = {(item["branch"], item["date"]): item for item in seed["hours_exceptions"]}
    rows = []
    for branch_id, weekly in seed["weekly_hours"].items():
        day = first
        while day <= last:
            key = day.isoformat()
            entry = exceptions.get((branch_id, key)) or exceptions.get(("*", key))
            entry = entry or weekly[WEEKDAY_KEYS[day.weekday()]]
            building, desk = entry.get("building"), entry.get("desk")
            rows.append(
                (
                    branch_id,
                    key,
                    entry.get("closed"),
                    *(building or (None, None)),
                    *(desk or (None, None)),
                    entry.get("note", ""),
                )
            )
            day += timedelta(days=1)
    return rows


def _load_seed(conn: sqlite3.Connection, seed: dict[str, Any]) -> None:
    for place in [*seed["places"], *seed["branches"]]:
        conn.execute(
            "INSERT INTO places VALUES (?, ?, ?)", (place["id"], place["name"], place["name_zh"])
        )
        labels = [place["name"], place["name_zh"], place["id"], *place["aliases"]]
        for alias, label in {fold(label): label for label in reversed(labels)}.items():
            conn.execute("INSERT INTO place_aliases VALUES (?, ?, ?)", (alias, place["id"], label))
    conn.executemany(
        "INSERT INTO branches VALUES (?, ?)",
        [(branch["id"], branch["campus"]) for branch in seed["branches"]],
    )
    conn.executemany("INSERT INTO walk_times VALUES (?, ?, ?)", seed["walks"])
    conn.executemany("INSERT INTO opening_hours VALUES (?, ?, ?, ?, ?, ?, ?, ?)", _hours_rows(seed))
    conn.executemany(
        "INSERT INTO catalogue VALUES (:id, :title, :title_en, :author, :year, :medium, :note)",
        seed["catalogue"],
    )
    conn.executemany(
        "INSERT INTO copies VALUES (:id, :record, :branch, :shelf, :status, :held_for, :due,"
        " :status_time)",
        [{"held_for": None, "due": None, **copy} for copy in seed["copies"]],
    )
    conn.executemany(
        "INSERT INTO status_cache VALUES (:copy, :status, :shelf, :as_of)", seed["status_cache"]
    )
    conn.executemany(
        "INSERT INTO patrons VALUES (:id, :name, :status, :blocked_reason, :max_holds)",
        [{"blocked_reason": "", **patron} for patron in seed["patrons"]],
    )


def _current_fingerprint(conn: sqlite3.Connection) -> str | None:
    has_meta = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'"
    ).fetchone()
    row = conn.execute("SELECT value FROM meta WHERE key = 'seed'").fetchone() if has_meta else None
    return str(row["value"]) if row else None


def _is_current(conn: sqlite3.Connection, fingerprint: str) -> bool:
    (app_id,) = conn.execute("PRAGMA application_id").fetchone()
    return app_id == LIBRARY.app_id and _current_fingerprint(conn) == fingerprint


def ensure_database(path: Path | str | None = None, seed_file: Path = SEED_FILE) -> Path:
    """Create the database (or reload its reference tables if the seed or schema changed,
    migrating the audit log); return its path.

    A file of another kind, not SQLite or damaged is refused with a one-line
    `DatabaseFileError` before anything is written. Safe across threads and
    processes: the load runs in one `BEGIN IMMEDIATE` transaction that checks
    the fingerprint again once it holds the lock.
    """
    target = check_file(path or default_db_path(), LIBRARY, create=True)
    seed_bytes = seed_file.read_bytes()
    fingerprint = _seed_fingerprint(seed_bytes)
    try:
        _load(target, seed_bytes, fingerprint)
    except sqlite3.DatabaseError as error:
        raise describe_error(target, LIBRARY, error) from None
    return target


def _load(target: Path, seed_bytes: bytes, fingerprint: str) -> None:
    conn = connect(target)
    try:
        if _is_current(conn, fingerprint):
            return
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("BEGIN IMMEDIATE")
        if not _is_current(conn, fingerprint):
            claim(conn, LIBRARY)
            _run_statements(conn, HISTORY_SCHEMA)
            ensure_audit_table(conn)
            for table in REFERENCE_TABLES:
                conn.execute(f"DROP TABLE IF EXISTS {table}")
            _run_statements(conn, REFERENCE_SCHEMA)
            _load_seed(conn, json.loads(seed_bytes))
            conn.execute("INSERT OR REPLACE INTO meta VALUES ('seed', ?)", (fingerprint,))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    finally:
        conn.close()


def reset_database(path: Path | str | None = None) -> Path:
    """Delete the database (reservations and audit log included) and create it afresh;
    a file that is not a library database is refused and kept."""
    target = check_file(path or default_db_path(), LIBRARY, create=True)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{target}{suffix}").unlink(missing_ok=True)
    return ensure_database(target)


def set_copy_status(
    path: Path | str,
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
    with transaction(ensure_database(path), write=True) as conn:
        changed = conn.execute(
            "UPDATE copies SET status = ?, status_time = ?, due = ?, held_for = ?"
            " WHERE copy_id = ?",
            (status, status_time, due, held_for, copy_id),
        ).rowcount
    if changed != 1:
        raise KeyError(f"no copy {copy_id!r} in {path}")


def _read(path: Path | str, query: Callable[[sqlite3.Connection], list[T]]) -> list[T]:
    """Run a read on an existing library database; a missing file reads as empty and is
    not created, a file of another kind is refused (`DatabaseFileError`)."""
    target = Path(path).expanduser()
    if not target.exists():
        return []
    check_file(target, LIBRARY, create=False)
    try:
        conn = connect(target, create=False)
        try:
            return query(conn)
        finally:
            conn.close()
    except sqlite3.DatabaseError as error:
        raise describe_error(target, LIBRARY, error) from None


def audit_log(path: Path | str, thread_id: str | None = None) -> list[dict[str, Any]]:
    """The audit rows (of one thread, or all) in id order, `detail` decoded; empty if the
    file does not exist."""
    return _read(path, lambda conn: read_events(conn, thread_id))


def reservations(path: Path | str) -> list[dict[str, Any]]:
    """Every reservation in order; empty if the file or its table does not exist."""

    def query(conn: sqlite3.Connection) -> list[dict[str, Any]]:
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'reservations'").fetchone():
            return []
        rows = conn.execute("SELECT * FROM reservations ORDER BY reservation_id")
        return [dict(row) for row in rows]

    return _read(path, query)
