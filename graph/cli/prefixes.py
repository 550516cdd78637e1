"""Thread ids by unique prefix, as git takes commit ids: `show 1849` for `1849...`.

Only an SQLite checkpoint file is searched (a PostgreSQL store needs the whole id);
an id that names a thread exactly is never expanded, and a prefix shorter than
`MIN_PREFIX` characters is taken as it is.
"""

from __future__ import annotations

import argparse
import sqlite3

from graph.errors import ThreadNotFoundError

MIN_PREFIX = 4
SHOWN_MATCHES = 3
PREFIX_COMMANDS = ("show", "resume", "history", "audit")
AMBIGUOUS = "thread id prefix {prefix!r} names {count} episodes in {db} ({shown}); give more of it"


def thread_ids_in(db: str | None) -> list[str] | None:
    """The thread ids of the SQLite checkpoint file `db` names, or None (a database server,
    or no readable checkpoint file there: the command itself reports that)."""
    from graph.store.locations import checkpoint_location
    from graph.store.tables import checkpointed_threads, connect_existing
    from tools.dbfiles import CHECKPOINTS, DatabaseFileError, check_file

    location = checkpoint_location(db)
    if location.path is None:
        return None
    try:
        path = check_file(location.path, CHECKPOINTS, create=False)
        conn = connect_existing(path)
    except (DatabaseFileError, OSError):
        return None
    try:
        return checkpointed_threads(conn)
    except sqlite3.Error:  # a damaged file: the command itself says so
        return None
    finally:
        conn.close()


def full_thread_id(prefix: str, db: str | None) -> str:
    """The one thread id in `db` that starts with `prefix` (`prefix` itself when it is a
    whole id, too short, or starts none); `ThreadNotFoundError` when it starts several."""
    if len(prefix) < MIN_PREFIX:
        return prefix
    ids = thread_ids_in(db)
    if not ids or prefix in ids:
        return prefix
    matches = [thread_id for thread_id in ids if thread_id.startswith(prefix)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        return prefix
    from graph.store.locations import checkpoint_location

    shown = ", ".join(matches[:SHOWN_MATCHES]) + (", ..." if len(matches) > SHOWN_MATCHES else "")
    where = str(checkpoint_location(db).path)
    raise ThreadNotFoundError(
        AMBIGUOUS.format(prefix=prefix, count=len(matches), db=where, shown=shown)
    )


def expand_thread_id(args: argparse.Namespace) -> None:
    """Replace a local command's thread id prefix by the whole id (see `full_thread_id`)."""
    if args.command not in PREFIX_COMMANDS or getattr(args, "server", None):
        return
    args.thread_id = full_thread_id(args.thread_id, getattr(args, "db", None))
