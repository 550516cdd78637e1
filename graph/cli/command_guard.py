"""The CLI's hold on a thread for a whole `ask` or `resume`.

The command takes the thread's lease before it reads the state it acts on
and keeps it (with a heartbeat) until it ends. Ctrl-C leaves the thread
resumable and marked `interrupted` in the registry, and says how to resume
it; a checkpoint database deleted or replaced while the command ran is
reported instead of a success, and one locked by another writer for longer than the
wait for it is named in one line. Before a new thread is created, what the
episode needs (the snapshot index, the library database) is opened, so a
file of the wrong kind or an unwritable directory stops the command with one
line and no half-made thread.

The agent, checkpointer, PostgreSQL and library-database modules are imported inside the
functions that use them: at the top they would add about 0.9 s (LangGraph, psycopg,
SQLAlchemy) to every command's start-up (`react-agent --help` takes 0.2 s; python -X
importtime).
"""

from __future__ import annotations

import argparse
import functools
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from graph.errors import AgentError, DatabaseError
from graph.settings.context import Context
from graph.store.heartbeats import holding
from graph.store.leases import lease_of, new_owner
from graph.store.locations import checkpoint_location, db_command, parse_location
from graph.store.registry import registry_of
from tools.dbfiles import CHECKPOINTS, DatabaseFileError, DiskFullError, disk_full, is_disk_full

Command = Callable[[argparse.Namespace], int]
INTERRUPTED_EXIT = 130
IO_ERROR = "disk I/O error"  # not damage: e.g. an open file's -wal deleted beside it
DAMAGED = "the database {path} is damaged ({problem}); restore it from a copy or start a new one"
UNREADABLE = (
    "the database {path} could not be read (disk I/O error): was its write-ahead log"
    " ({path}-wal) deleted while it was open? The command stopped. What was committed only"
    " to that log is lost, and the file may be damaged: once no process has it open,"
    " `{command}` says whether it still reads (else the disk is failing)"
)
LOCKED = (
    "the database {path} is locked by another process, which kept it longer than this "
    "command waits for it; the command stopped at its last checkpoint: try again once "
    "that process is done"
)
INTERRUPTED = (
    "react-agent: interrupted; thread {thread_id} stopped at its last checkpoint and is "
    "marked interrupted. Resume it with: {command}"
)


@dataclass
class Hold:
    """One command's hold on a thread: its owner token, and whether Ctrl-C ended it."""

    thread_id: str
    owner: str
    interrupted: bool = False


def resume_command(thread_id: str, db: str | None) -> str:
    """The exact command that resumes `thread_id`, from any directory (`db_words`),
    shell-quoted and terminal-safe."""
    return db_command("react-agent", "resume", thread_id, db=db)


@contextmanager
def holding_thread(saver: Any, thread_id: str, db: str | None) -> Iterator[Hold]:
    """Hold `thread_id`'s lease for the block; on Ctrl-C mark the thread `interrupted`, say
    how to resume it and set `Hold.interrupted` (the caller exits with 130). A full disk
    under a database is `DiskFullError`, carrying the command that resumes the thread."""
    lease = lease_of(saver)
    hold = Hold(thread_id, new_owner())
    try:
        with holding(lease, thread_id, hold.owner):
            yield hold
    except DiskFullError as error:
        error.resume_command = _resume_if_stored(saver, thread_id, db)
        raise
    except sqlite3.OperationalError as error:
        path = getattr(lease, "path", None)
        if path is None or not is_disk_full(error):
            raise
        full = disk_full(path, CHECKPOINTS.label)
        full.resume_command = _resume_if_stored(saver, thread_id, db)
        raise full from None
    except KeyboardInterrupt:
        hold.interrupted = True
        registry = registry_of(saver)
        if registry is not None:
            with suppress(sqlite3.Error, DatabaseError):
                registry.set_status(thread_id, "interrupted")
        command = resume_command(thread_id, db)
        print(INTERRUPTED.format(thread_id=thread_id, command=command), file=sys.stderr)
        return
    if lease is not None:
        lease.check_file(thread_id)


def _resume_if_stored(saver: Any, thread_id: str, db: str | None) -> str:
    """The command that resumes `thread_id`, or '' when none of it was stored (the disk
    filled before its first checkpoint: the question is asked again)."""
    from graph.store.savers import thread_config

    try:
        stored = saver.get_tuple(thread_config(thread_id)) is not None
    except sqlite3.Error:
        stored = False
    return resume_command(thread_id, db) if stored else ""


SHARED_FILE = (
    "the checkpoint database (--db) and the library database (--library-db) are the same "
    "file, {path}: give each a file of its own; nothing was created"
)


def separate_databases(db: str | None, ctx: Context) -> None:
    """Refuse a checkpoint database and a library database that are one file, before
    either is created (opened one after the other, the second found the first's tables)."""
    from tools.library.db import default_db_path

    if not hasattr(ctx, "library_db"):
        return
    checkpoints = checkpoint_location(db).path
    library = parse_location(ctx.library_db or default_db_path(), "--library-db").path
    if checkpoints is None or library is None:
        return
    if os.path.realpath(checkpoints) == os.path.realpath(library):
        raise DatabaseError(SHARED_FILE.format(path=os.path.realpath(library)))


def prepare_environment(env_name: str, ctx: Context) -> None:
    """Open what an episode of `env_name` needs before its thread is created.

    Raises `DatabaseError` (one line naming the file) when a database it needs
    is of the wrong kind, damaged, or cannot be created.
    """
    from graph.agent import ENVIRONMENTS

    try:
        env = ENVIRONMENTS[env_name][1](ctx)
        backend = getattr(env, "backend", None)
        if callable(backend):
            backend(ctx)
        prepare = getattr(env, "prepare", None)
        if callable(prepare):
            prepare(ctx)
    except DatabaseFileError as error:
        raise DatabaseError(str(error)) from None
    except OSError as error:
        where = f" ({error.filename})" if error.filename else ""
        raise DatabaseError(
            f"cannot open what a {env_name} episode needs{where}: {error.strerror or error}"
        ) from None


def damaged(path: Path) -> str:
    """What `PRAGMA quick_check` finds wrong with an SQLite file ('' when nothing)."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            rows = conn.execute("PRAGMA quick_check").fetchall()
        finally:
            conn.close()
    except sqlite3.Error as error:
        return str(error)
    found = [" ".join(str(row[0]).split()) for row in rows if row[0] != "ok"]
    return found[0] if found else ""


def locked(path: Path) -> bool:
    """Whether another connection holds a write lock on the SQLite file `path` now."""
    try:
        conn = sqlite3.connect(path, timeout=0, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.rollback()
        finally:
            conn.close()
    except sqlite3.OperationalError as error:
        return "locked" in str(error)
    except sqlite3.Error:
        return False
    return False


@contextmanager
def reporting_damage(*paths: Path | Callable[[], Path | None] | None) -> Iterator[None]:
    """Turn a failure caused by a damaged database among `paths` into one line naming it.

    A damaged page can surface as an SQLite error or as a record that does not
    decode; either way, the files are checked, and only when one of them is
    damaged is the failure reported as that file's (anything else is re-raised).
    A callable path is only asked for then.
    """
    try:
        yield
    except (sqlite3.DatabaseError, ValueError, UnicodeError) as error:
        if isinstance(error, (AgentError, DiskFullError)):
            raise
        for found in paths:
            path = found() if callable(found) else found
            if path is None:
                continue
            if str(error) == "database is locked" and path.exists() and locked(path):
                raise DatabaseError(LOCKED.format(path=path)) from None
            problem = damaged(path) if path.exists() else ""
            if problem == IO_ERROR:
                command = db_command("react-agent", "threads", db=str(path))
                raise DatabaseError(UNREADABLE.format(path=path, command=command)) from None
            if problem:
                raise DatabaseError(DAMAGED.format(path=path, problem=problem)) from None
        raise


def damage_reported(command: Command) -> Command:
    """`command` (a CLI subcommand) with `reporting_damage` on the checkpoint database it
    names and the library database of its `--library-db` flag (or the default one); on a
    PostgreSQL checkpoint database, a server lost mid-command is one line too."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        location = checkpoint_location(getattr(args, "db", None))
        with ExitStack() as stack:
            if location.path is None:
                from graph.store.pg_connection import server_failures_reported

                stack.enter_context(server_failures_reported(location.url))
            stack.enter_context(
                reporting_damage(location.path, functools.partial(library_path, args))
            )
            return command(args)

    return run


def library_path(args: argparse.Namespace) -> Path | None:
    """The library database file of a command's `--library-db` flag, or the default one
    (None for a server URL)."""
    from tools.library.db import default_db_path

    value = getattr(args, "library_db", None) or default_db_path()
    return parse_location(value, "--library-db").path
