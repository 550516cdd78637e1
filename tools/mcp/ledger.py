"""The MCP environment's own SQLite file: its audit log and its write ledger.

The audit log is append-only, like the library's: proposals, decisions and
executions with their request, actor and idempotency key; an exact replay of a
row (same `replay_key`) is not written again. The write ledger holds one row per
write's idempotency key, written *before* the call is sent (`sent`) and completed
when its answer comes (`done`, with the observation and evidence). A row still
`sent` when the write is run again means a process died (or the call got no
answer) mid-call: the outcome is unknown. Writes are fenced (`tools.fencing`).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Collection, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from platformdirs import user_state_dir
from sqlalchemy import Connection, Engine, create_engine, event, exc, text

from tools.dbfiles import DatabaseFileError
from tools.fencing import check_fence

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS mcp_audit (audit_id INTEGER PRIMARY KEY, thread_id TEXT NOT NULL,"
    " request_id TEXT NOT NULL, event TEXT NOT NULL, actor TEXT NOT NULL, step_index INTEGER"
    " NOT NULL, idempotency_key TEXT NOT NULL, recorded_at TEXT NOT NULL, detail TEXT NOT NULL,"
    " replay_key TEXT NOT NULL UNIQUE)",
    "CREATE TABLE IF NOT EXISTS mcp_writes (idempotency_key TEXT PRIMARY KEY, thread_id TEXT"
    " NOT NULL, server TEXT NOT NULL, tool TEXT NOT NULL, args TEXT NOT NULL, state TEXT NOT"
    " NULL, sent_at TEXT NOT NULL, attempts INTEGER NOT NULL, outcome TEXT)",
)
NOT_A_LEDGER = "cannot use {path} as the MCP ledger (--mcp-db): {why}"
AUDIT_COLUMNS = "audit_id, thread_id, request_id, event, actor, step_index, idempotency_key"


def default_ledger_path() -> Path:
    """Where the ledger lives unless the run names a file."""
    return Path(user_state_dir("react-evidence-agent")) / "mcp.sqlite3"


def utc_now() -> str:
    """The time now, ISO 8601 in UTC to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class Ledger:
    """The audit log and write ledger in one SQLite file."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path).expanduser()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._engine: Engine = create_engine(f"sqlite:///{self.path}")
        event.listen(self._engine, "connect", _pragmas)
        self._lock = threading.Lock()
        try:
            with self._engine.begin() as conn:
                for statement in SCHEMA:
                    conn.execute(text(statement))
        except exc.DatabaseError as error:
            raise DatabaseFileError(NOT_A_LEDGER.format(path=self.path, why=error.orig)) from None

    def record_event(
        self,
        event_name: str,
        *,
        thread_id: str,
        request_id: str,
        step_index: int,
        actor: str,
        detail: Mapping[str, Any],
        idempotency_key: str = "",
        fence: int | None = None,
    ) -> int | None:
        """Append one audit row and return its id; None when it replays a row already here."""
        encoded = json.dumps(dict(detail), sort_keys=True, ensure_ascii=False, default=str)
        replay = "\x00".join((thread_id, request_id, event_name, actor, encoded, idempotency_key))
        now = utc_now()
        row: dict[str, Any] = {
            "thread_id": thread_id,
            "request_id": request_id,
            "event": event_name,
            "actor": actor,
            "step_index": step_index,
            "idempotency_key": idempotency_key,
            "recorded_at": now,
            "detail": encoded,
            "replay_key": hashlib.sha256(replay.encode()).hexdigest(),
        }
        with self._engine.begin() as conn:
            check_fence(conn, thread_id, fence, now)
            return _append(conn, row)

    def audit_events(
        self, thread_id: str | None = None, request_ids: Collection[str] | None = None
    ) -> list[dict[str, Any]]:
        """The audit rows (of one thread, or all; of `request_ids` only) in id order."""
        query = f"SELECT {AUDIT_COLUMNS}, recorded_at, detail FROM mcp_audit"
        where, params = [], {}
        if thread_id is not None:
            where.append("thread_id = :thread_id")
            params["thread_id"] = thread_id
        if request_ids is not None:
            names = sorted(request_ids)
            where.append(f"request_id IN ({', '.join(f':r{i}' for i in range(len(names)))})")
            params |= {f"r{i}": name for i, name in enumerate(names)}
            if not names:
                return []
        if where:
            query += " WHERE " + " AND ".join(where)
        with self._engine.connect() as conn:
            rows = conn.execute(text(query + " ORDER BY audit_id"), params).mappings().all()
        return [{**row, "detail": json.loads(row["detail"])} for row in rows]

    def begin_write(
        self,
        key: str,
        thread_id: str,
        server: str,
        tool: str,
        args: Mapping[str, Any],
        fence: int | None = None,
    ) -> dict[str, Any] | None:
        """Record a write as sent before it is; returns the earlier row of this key (its
        `state` `sent`: outcome unknown, or `done` with its `outcome`), else None."""
        now = utc_now()
        with self._lock, self._engine.begin() as conn:
            check_fence(conn, thread_id, fence, now)
            found = (
                conn.execute(
                    text(
                        "SELECT state, attempts, outcome FROM mcp_writes WHERE idempotency_key = :k"
                    ),
                    {"k": key},
                )
                .mappings()
                .first()
            )
            if found is not None:
                return {**found, "outcome": json.loads(found["outcome"] or "null")}
            conn.execute(
                text(
                    "INSERT INTO mcp_writes VALUES (:k, :thread, :server, :tool, :args, 'sent',"
                    " :now, 1, NULL)"
                ),
                {
                    "k": key,
                    "thread": thread_id,
                    "server": server,
                    "tool": tool,
                    "args": json.dumps(dict(args), sort_keys=True),
                    "now": now,
                },
            )
        return None

    def resend(self, key: str) -> None:
        """Count one more sending of a write whose earlier outcome is unknown."""
        with self._engine.begin() as conn:
            conn.execute(
                text("UPDATE mcp_writes SET attempts = attempts + 1 WHERE idempotency_key = :k"),
                {"k": key},
            )

    def finish_write(self, key: str, outcome: Mapping[str, Any]) -> None:
        """Store a write's answer: a later run of the same write gets it, not a new call."""
        with self._engine.begin() as conn:
            conn.execute(
                text(
                    "UPDATE mcp_writes SET state = 'done', outcome = :o WHERE idempotency_key = :k"
                ),
                {"k": key, "o": json.dumps(dict(outcome), ensure_ascii=False, default=str)},
            )

    def writes(self, thread_id: str) -> list[dict[str, Any]]:
        """The thread's write rows, oldest first (for tests and inspection)."""
        with self._engine.connect() as conn:
            rows = (
                conn.execute(
                    text("SELECT * FROM mcp_writes WHERE thread_id = :t ORDER BY sent_at, rowid"),
                    {"t": thread_id},
                )
                .mappings()
                .all()
            )
        return [dict(row) for row in rows]


def _append(conn: Connection, row: Mapping[str, Any]) -> int | None:
    taken = conn.execute(
        text("SELECT audit_id FROM mcp_audit WHERE replay_key = :replay_key"), row
    ).first()
    if taken is not None:
        return None
    result = conn.execute(
        text(
            "INSERT INTO mcp_audit (thread_id, request_id, event, actor, step_index,"
            " idempotency_key, recorded_at, detail, replay_key) VALUES (:thread_id, :request_id,"
            " :event, :actor, :step_index, :idempotency_key, :recorded_at, :detail, :replay_key)"
        ),
        row,
    )
    return result.lastrowid


def _pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()
