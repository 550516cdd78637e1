"""A small MCP server: a team's notes in SQLite, the worked example of `--env mcp`.

Read tools (`search_notes`, `get_note`) say `readOnlyHint: true`; `add_note` writes
(not idempotent: each call adds a note) and `set_status` writes idempotently (the
same call twice leaves the same status). Run it on stdio (the default) or on
streamable HTTP:

    python examples/notes_server.py [--db FILE]
    python examples/notes_server.py --http 8765 [--db FILE]

The database is `--db`, else `$NOTES_DB`, else `notes.sqlite3` in the user's state
directory, created with a few seed notes on first use. `--write-delay SECONDS` makes
every write wait that long before it commits (for tests that kill a write midway).
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import time
from pathlib import Path

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import ToolAnnotations
from platformdirs import user_state_path

SEED = (
    ("Release 2.4", "Release 2.4 ships on 14 October. Mira Okafor is the release manager.", "open"),
    ("Backups", "Nightly backups run at 02:30 UTC and are kept for 35 days.", "done"),
    ("On-call", "The on-call rotation changes every Monday at 09:00.", "open"),
)
STATUSES = ("open", "done", "blocked")
READ = ToolAnnotations(read_only_hint=True)

server = MCPServer("notes", instructions="A team's notes: search, read, add, set status.")


def database() -> sqlite3.Connection:
    """The notes database, created and seeded on first use."""
    default = user_state_path("react-evidence-agent") / "notes.sqlite3"
    path = Path(os.environ.get("NOTES_DB") or default)
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path, timeout=10)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL, "
        "body TEXT NOT NULL, status TEXT NOT NULL)"
    )
    with conn:
        if conn.execute("SELECT count(*) FROM notes").fetchone()[0] == 0:
            conn.executemany("INSERT INTO notes (title, body, status) VALUES (?, ?, ?)", SEED)
    return conn


def _write_delay() -> None:
    time.sleep(float(os.environ.get("NOTES_WRITE_DELAY_S") or 0))


@server.tool(annotations=READ)
def search_notes(query: str) -> str:
    """Find notes whose title or body contains the query; lists their ids and titles."""
    with database() as conn:
        rows = conn.execute(
            "SELECT id, title FROM notes WHERE title LIKE ?1 OR body LIKE ?1 ORDER BY id",
            (f"%{query}%",),
        ).fetchall()
    if not rows:
        return f"No note mentions {query!r}."
    return "\n".join(f"Note {note_id}: {title}." for note_id, title in rows)


@server.tool(annotations=READ)
def get_note(note_id: int) -> dict[str, object]:
    """A note's title, body and status."""
    with database() as conn:
        row = conn.execute(
            "SELECT id, title, body, status FROM notes WHERE id = ?", (note_id,)
        ).fetchone()
    if row is None:
        raise ToolError(f"there is no note {note_id}")
    return {"id": row[0], "title": row[1], "body": row[2], "status": row[3]}


@server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False))
def add_note(title: str, body: str) -> str:
    """Add a note (status open); returns its id."""
    _write_delay()
    with database() as conn:
        cursor = conn.execute(
            "INSERT INTO notes (title, body, status) VALUES (?, ?, 'open')", (title, body)
        )
    return f"Added the note {title!r} with id {cursor.lastrowid}."


@server.tool(annotations=ToolAnnotations(read_only_hint=False, idempotent_hint=True))
def set_status(note_id: int, status: str) -> str:
    """Set a note's status to open, done or blocked."""
    if status not in STATUSES:
        raise ToolError(f"status must be one of {', '.join(STATUSES)}")
    _write_delay()
    with database() as conn:
        changed = conn.execute("UPDATE notes SET status = ? WHERE id = ?", (status, note_id))
    if changed.rowcount == 0:
        raise ToolError(f"there is no note {note_id}")
    return f"Note {note_id} is now {status}."


def main() -> None:
    """Serve on stdio, or on streamable HTTP at 127.0.0.1 with `--http PORT`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="the notes database (default: $NOTES_DB or the state dir)")
    parser.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP")
    parser.add_argument("--write-delay", type=float, default=0.0, metavar="SECONDS")
    args = parser.parse_args()
    if args.db:
        os.environ["NOTES_DB"] = args.db
    os.environ["NOTES_WRITE_DELAY_S"] = str(args.write_delay)
    database().close()
    if args.http:
        server.run("streamable-http", host="127.0.0.1", port=args.http)
    else:
        server.run("stdio")


if __name__ == "__main__":
    main()
