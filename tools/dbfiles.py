"""Every SQLite file the project writes says what it is.

SQLite's header holds a 32-bit `application_id`; each kind of database this
project keeps (checkpoints, the library, the snapshot index) sets its own, so
a file given in the wrong place is refused with one line instead of having
another kind's tables merged into it. Files written before the ids existed
carry 0 and are recognised by their tables, then claimed.

`check_file` runs before a file is opened for real: it refuses a missing file
for a read-only use, an unwritable directory, something that is not SQLite,
a corrupt file, and a database of another kind; each message names the file.
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

WAL_WAIT_S = 5.0
_WAL_FIRST_PAUSE_S = 0.005
_WAL_LONGEST_PAUSE_S = 0.1


@dataclass(frozen=True)
class DatabaseKind:
    """One kind of database: its `application_id`, a name for messages, and the
    tables that identify a file written before the id was set."""

    app_id: int
    label: str
    legacy_tables: frozenset[str]


CHECKPOINTS = DatabaseKind(0x5278436B, "checkpoint database", frozenset({"checkpoints", "writes"}))
LIBRARY = DatabaseKind(0x52784C62, "library database", frozenset({"reservations", "audit_log"}))
SNAPSHOT_INDEX = DatabaseKind(0x5278576B, "Wikipedia snapshot index", frozenset({"pages_fts"}))
NAME_LEXICON = DatabaseKind(0x52784E6C, "name lexicon", frozenset({"names", "given_names"}))
KINDS = (CHECKPOINTS, LIBRARY, SNAPSHOT_INDEX, NAME_LEXICON)


class DatabaseFileError(ValueError):
    """A database file is missing, of the wrong kind, damaged or cannot be created.

    A `ValueError`, so the LangGraph server passes its message on to API clients.
    """


class DiskFullError(DatabaseFileError):
    """A database's disk is full (SQLITE_FULL): nothing more was written to it; what was
    written before is kept. `resume_command`, once known, continues the thread."""

    resume_command: str = ""


DISK_FULL = (
    "the disk holding the {label} {path} is full ({free} free on {mount}): free space on"
    " {mount} (delete or move files there); nothing stored before was lost"
)


def is_disk_full(error: BaseException) -> bool:
    """Whether an SQLite error (or a SQLAlchemy error wrapping one) is SQLITE_FULL."""
    cause = getattr(error, "orig", None) or error
    if not isinstance(cause, sqlite3.OperationalError):
        return False
    code = getattr(cause, "sqlite_errorcode", None)
    return code == sqlite3.SQLITE_FULL or "database or disk is full" in str(cause)


def disk_full(path: str | Path, label: str) -> DiskFullError:
    """The one line for a full disk under the database file `path`: its filesystem's mount
    point and how much is free there."""
    where = Path(path).expanduser().resolve()
    mount = where if where.is_dir() else where.parent
    while not os.path.ismount(mount) and mount != mount.parent:
        mount = mount.parent
    try:
        free = shutil.disk_usage(mount).free
    except OSError:
        free = 0
    size = f"{free / 2**20:.1f} MiB" if free >= 2**20 else f"{free / 2**10:.0f} KiB"
    return DiskFullError(DISK_FULL.format(label=label, path=where, free=size, mount=mount))


class DatabaseServerError(DatabaseFileError):
    """A database server cannot be reached, refuses the login, or lacks the database.

    `reason` is the server's own words, without the location (for observations).
    """

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    return {str(name) for (name,) in rows}


def _kind_of(app_id: int) -> DatabaseKind | None:
    return next((kind for kind in KINDS if kind.app_id == app_id), None)


def _check_creatable(path: Path, kind: DatabaseKind) -> None:
    parent = path.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        raise DatabaseFileError(f"cannot create the {kind.label} {path}: {reason}") from None
    if not os.access(parent, os.W_OK | os.X_OK):
        raise DatabaseFileError(
            f"cannot create the {kind.label} {path}: its directory is not writable"
        )


def read_app_id(path: Path) -> tuple[int, set[str]]:
    """The file's `application_id` and table names, read without changing it.

    Read through SQLite only: closing a descriptor the process opened on a
    database file by other means would drop the locks SQLite holds on it for
    the process's open connections (POSIX advisory locks belong to the process),
    and another process could then checkpoint and remove the WAL under them.
    """
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        (app_id,) = conn.execute("PRAGMA application_id").fetchone()
        return int(app_id), _tables(conn)
    finally:
        conn.close()


def expand(path: str | Path) -> Path:
    """`path` with a leading `~` or `~user` expanded; `DatabaseFileError` when there is
    no such user (or no home directory) to expand it for."""
    try:
        return Path(path).expanduser()
    except RuntimeError:
        raise DatabaseFileError(f"{path}: '~' names no user's home directory here") from None


def _probe(target: Path, kind: DatabaseKind) -> None:
    """Refuse a path the system will not look up (a symlink loop, a name too long, a file
    where a directory should be) or SQLite cannot name (a byte that is not UTF-8, e.g.
    from `$XDG_STATE_HOME`); a missing file is not refused here."""
    try:
        str(target).encode("utf-8")
    except UnicodeEncodeError:
        raise DatabaseFileError(
            f"{target} cannot be used as a {kind.label}: its path is not UTF-8 text"
        ) from None
    try:
        target.stat()
    except FileNotFoundError:
        return
    except OSError as error:
        raise DatabaseFileError(
            f"{target} cannot be used as a {kind.label}: {error.strerror or error}"
        ) from None


READ_ONLY = "the {label} {path} is read-only: make it writable (chmod u+w) or give another file"


def _read_only(path: Path) -> bool:
    """Whether the file may not be written: no write permission for this process, or no
    write bit at all (a file its owner made read-only, which root too should leave be)."""
    return not os.access(path, os.W_OK) or not path.stat().st_mode & 0o222


def check_file(path: str | Path, kind: DatabaseKind, *, create: bool) -> Path:
    """Make sure `path` is (or, with `create`, can become) a database of `kind`.

    Raises `DatabaseFileError` with one line naming the file otherwise.
    Returns the path, expanded.
    """
    target = expand(path)
    _probe(target, kind)
    if target.is_dir():
        raise DatabaseFileError(f"{target} is a directory, not a {kind.label}")
    if target.exists() and not target.is_file():
        raise DatabaseFileError(
            f"{target} is not a regular file (a device, pipe or socket), not a {kind.label}"
        )
    if not target.exists():
        if not create:
            raise DatabaseFileError(f"no {kind.label} at {target}")
        _check_creatable(target, kind)
        return target
    if create and _read_only(target):
        raise DatabaseFileError(READ_ONLY.format(path=target, label=kind.label))
    if target.stat().st_size == 0:
        if create:
            _check_creatable(target, kind)
        return target
    try:
        app_id, tables = read_app_id(target)
    except sqlite3.DatabaseError as error:
        if getattr(error, "sqlite_errorname", "") == "SQLITE_NOTADB":
            raise DatabaseFileError(
                f"{target} is not an SQLite database (expected a {kind.label})"
            ) from None
        raise DatabaseFileError(f"{target} cannot be read as a {kind.label}: {error}") from None
    if app_id == kind.app_id:
        return target
    other = _kind_of(app_id)
    if other is not None:
        raise DatabaseFileError(f"{target} is a {other.label}, not a {kind.label}")
    if app_id != 0:
        raise DatabaseFileError(f"{target} belongs to another application, not a {kind.label}")
    refuse_other_tables(str(target), kind, tables)
    return target


def refuse_other_tables(name: str, kind: DatabaseKind, tables: set[str]) -> None:
    """Refuse, naming the database, one that does not say what it is but holds the tables
    of another kind, or tables of no kind (a database of `kind` written before it said
    so, or an empty one, passes)."""
    for candidate in KINDS:
        if candidate is not kind and candidate.legacy_tables <= tables:
            raise DatabaseFileError(f"{name} is a {candidate.label}, not a {kind.label}")
    foreign = sorted(t for t in tables if not t.startswith("sqlite_"))
    if foreign and not kind.legacy_tables <= tables:
        shown = ", ".join(foreign[:4]) + (", ..." if len(foreign) > 4 else "")
        raise DatabaseFileError(f"{name} holds other tables ({shown}), not a {kind.label}")


def kind_of_file(path: str | Path) -> DatabaseKind | None:
    """The kind of database at `path` by its id or legacy tables; None when there is no
    file, it is not a readable SQLite database, or it is of no known kind."""
    try:
        target = expand(path)
        if not target.is_file():
            return None
    except (DatabaseFileError, OSError):
        return None
    try:
        app_id, tables = read_app_id(target)
    except sqlite3.DatabaseError:
        return None
    found = _kind_of(app_id)
    if found is not None or app_id != 0:
        return found
    return next((kind for kind in KINDS if kind.legacy_tables <= tables), None)


def claim(conn: sqlite3.Connection, kind: DatabaseKind) -> None:
    """Mark an open database as `kind` (idempotent)."""
    (current,) = conn.execute("PRAGMA application_id").fetchone()
    if int(current) != kind.app_id:
        conn.execute(f"PRAGMA application_id = {int(kind.app_id)}")


def describe_error(path: str | Path, kind: DatabaseKind, error: sqlite3.Error) -> DatabaseFileError:
    """One line for an SQLite error met while using a database file."""
    return DatabaseFileError(f"the {kind.label} {Path(path).expanduser()} failed: {error}")


def use_wal(conn: sqlite3.Connection, wait_s: float = WAL_WAIT_S) -> None:
    """Put the file in WAL mode, waiting up to `wait_s` for processes doing the same.

    Switching a new file to WAL escalates a shared lock to an exclusive one. When
    several processes open a new file at once, SQLite answers one of them "database is
    locked" at once instead of calling its busy handler (two readers escalating would
    deadlock), so the switch is tried again after a short random pause, until the file
    is in WAL mode (another process may have switched it) or `wait_s` has passed.
    """
    deadline = time.monotonic() + wait_s
    pause = _WAL_FIRST_PAUSE_S
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchall()
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) and "busy" not in str(error):
                raise
            if time.monotonic() + pause > deadline:
                raise
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, _WAL_LONGEST_PAUSE_S)
