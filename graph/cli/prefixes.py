"""Thread ids by unique prefix, as git takes commit ids: `show 1849` for `1849...`.

An SQLite checkpoint file and a PostgreSQL store are both searched; an id that names
a thread exactly is never expanded, and a prefix shorter than `MIN_PREFIX` characters
is taken as it is. The PostgreSQL modules are imported when a prefix is looked up there,
not when the CLI starts (`python -X importtime`: the driver alone takes a tenth of a
second, and with the connection module about 0.3 s).
"""

from __future__ import annotations

import argparse
import sqlite3

from graph.errors import ThreadNotFoundError
from graph.store.locations import checkpoint_location
from graph.store.tables import checkpointed_threads, connect_existing
from tools.dbfiles import CHECKPOINTS, DatabaseFileError, check_file

MIN_PREFIX = 4
SHOWN_MATCHES = 3
PREFIX_COMMANDS = ("show", "resume", "history", "audit")
AMBIGUOUS = "thread id prefix {prefix!r} names {count} episodes in {db} ({shown}); give more of it"


def thread_ids_in(db: str | None, prefix: str = "") -> list[str] | None:
    """The thread ids starting with `prefix` in the checkpoint store `db` names, or None
    (no readable store there: the command itself reports that)."""
    location = checkpoint_location(db)
    if location.path is None:
        return _postgres_thread_ids(location.url, prefix)
    try:
        path = check_file(location.path, CHECKPOINTS, create=False)
        conn = connect_existing(path)
    except (DatabaseFileError, OSError):
        return None
    try:
        return [t for t in checkpointed_threads(conn) if t.startswith(prefix)]
    except sqlite3.Error:  # a damaged file: the command itself says so
        return None
    finally:
        conn.close()


def _postgres_thread_ids(url: str, prefix: str) -> list[str] | None:
    """The thread ids starting with `prefix` in a PostgreSQL store (None when it cannot be
    read: the command itself says why)."""
    import psycopg

    from graph.store.pg_connection import connect, parse_url

    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    try:
        with connect(parse_url(url)) as conn:
            rows = conn.execute(
                "SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id LIKE %s",
                (pattern,),
            ).fetchall()
    except (DatabaseFileError, psycopg.Error):
        return None
    return sorted(str(row["thread_id"]) for row in rows)


def full_thread_id(prefix: str, db: str | None) -> str:
    """The one thread id in `db` that starts with `prefix` (`prefix` itself when it is a
    whole id, too short, or starts none); `ThreadNotFoundError` when it starts several."""
    if len(prefix) < MIN_PREFIX:
        return prefix
    matches = thread_ids_in(db, prefix)
    if not matches or prefix in matches:
        return prefix
    if len(matches) == 1:
        return matches[0]
    shown = ", ".join(matches[:SHOWN_MATCHES]) + (", ..." if len(matches) > SHOWN_MATCHES else "")
    where = checkpoint_location(db).label
    raise ThreadNotFoundError(
        AMBIGUOUS.format(prefix=prefix, count=len(matches), db=where, shown=shown)
    )


def expand_thread_id(args: argparse.Namespace) -> None:
    """Replace a local command's thread id prefix by the whole id (see `full_thread_id`)."""
    if args.command not in PREFIX_COMMANDS or getattr(args, "server", None):
        return
    args.thread_id = full_thread_id(args.thread_id, getattr(args, "db", None))
