"""The library's audit log: an append-only table of approval events with their own ids.

Proposals, decisions, executions, forks and settings changes are appended,
never updated or deleted. A row's `replay_key` hashes what makes it the same
event (thread, request, event, detail, idempotency key), so only an exact
replay of a row already written is skipped; anything else, a second decision
for one request included, is a new row.

The functions work on a connection inside the caller's transaction, which is
how `reserve` writes its `executed` row together with the reservation.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

AUDIT_EVENTS = ("proposed", "decision", "executed", "fork", "settings_changed")
AUDIT_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS audit_log ("
    " audit_id INTEGER PRIMARY KEY AUTOINCREMENT, thread_id TEXT NOT NULL,"
    " request_id TEXT NOT NULL DEFAULT '', event TEXT NOT NULL, actor TEXT NOT NULL DEFAULT '',"
    " step_index INTEGER NOT NULL, idempotency_key TEXT NOT NULL DEFAULT '',"
    " patron_id TEXT NOT NULL, clock TEXT NOT NULL, recorded_at TEXT NOT NULL,"
    " detail TEXT NOT NULL, replay_key TEXT NOT NULL UNIQUE)",
    "CREATE INDEX IF NOT EXISTS audit_log_by_thread ON audit_log (thread_id, audit_id)",
)
COLUMNS = (
    "audit_id",
    "thread_id",
    "request_id",
    "event",
    "actor",
    "step_index",
    "idempotency_key",
    "patron_id",
    "clock",
    "recorded_at",
    "detail",
)
LEGACY_TABLE = "audit_log_v1"


@dataclass(frozen=True)
class AuditEntry:
    """One event to append; `request_id`, `actor` and `idempotency_key` are '' when none."""

    event: str
    thread_id: str
    step_index: int
    patron: str
    clock: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    request_id: str = ""
    actor: str = ""
    idempotency_key: str = ""


def utc_now() -> str:
    """The current UTC time to the millisecond, ISO 8601."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def canonical_json(detail: Mapping[str, Any]) -> str:
    """`detail` as JSON with sorted keys and no optional spaces (one text per value)."""
    return json.dumps(dict(detail), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def replay_key(
    thread_id: str, request_id: str, event: str, detail_json: str, idempotency_key: str
) -> str:
    """The hash that is equal for two rows only when they record the same event."""
    parts = [thread_id, request_id, event, detail_json, idempotency_key]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode()).hexdigest()


def append(conn: sqlite3.Connection, entry: AuditEntry) -> int | None:
    """Append `entry` in the open write transaction; its id, or None for an exact replay
    (checked before inserting, so a replay leaves no gap in the ids)."""
    if entry.event not in AUDIT_EVENTS:
        raise ValueError(f"audit event must be one of {AUDIT_EVENTS}, got {entry.event!r}")
    detail = canonical_json(entry.detail)
    key = replay_key(entry.thread_id, entry.request_id, entry.event, detail, entry.idempotency_key)
    if conn.execute("SELECT 1 FROM audit_log WHERE replay_key = ?", (key,)).fetchone():
        return None
    cursor = conn.execute(
        "INSERT INTO audit_log (thread_id, request_id, event, actor, step_index,"
        " idempotency_key, patron_id, clock, recorded_at, detail, replay_key)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            entry.thread_id,
            entry.request_id,
            entry.event,
            entry.actor,
            entry.step_index,
            entry.idempotency_key,
            entry.patron,
            entry.clock,
            utc_now(),
            detail,
            key,
        ),
    )
    return cursor.lastrowid


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {str(row[1]) for row in conn.execute(f"PRAGMA table_info({table})")}


def ensure_audit_table(conn: sqlite3.Connection) -> None:
    """Create the table, or migrate one of the old layout (one row per key and event) in
    place, keeping every row and its id; old rows get request id and actor ''.

    Runs in the caller's write transaction.
    """
    columns = _columns(conn, "audit_log")
    if not columns or "replay_key" in columns:
        _create(conn)
        return
    conn.execute(f"ALTER TABLE audit_log RENAME TO {LEGACY_TABLE}")
    _create(conn)
    old_rows = conn.execute(f"SELECT * FROM {LEGACY_TABLE} ORDER BY audit_id").fetchall()
    for row in old_rows:
        detail = canonical_json(json.loads(row["detail"]))
        conn.execute(
            "INSERT INTO audit_log (audit_id, thread_id, event, step_index, idempotency_key,"
            " patron_id, clock, recorded_at, detail, replay_key)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row["audit_id"],
                row["thread_id"],
                row["event"],
                row["step_index"],
                row["idempotency_key"],
                row["patron_id"],
                row["clock"],
                row["recorded_at"],
                detail,
                replay_key(row["thread_id"], "", row["event"], detail, row["idempotency_key"]),
            ),
        )
    conn.execute(f"DROP TABLE {LEGACY_TABLE}")


def _create(conn: sqlite3.Connection) -> None:
    for statement in AUDIT_SCHEMA:
        conn.execute(statement)


def read_events(conn: sqlite3.Connection, thread_id: str | None = None) -> list[dict[str, Any]]:
    """The rows (of one thread, or all) in id order, `detail` decoded.

    A table of the old layout, not migrated yet, reads with request id and actor ''.
    """
    present = _columns(conn, "audit_log")
    if not present:
        return []
    selected = ", ".join(name if name in present else f"'' AS {name}" for name in COLUMNS)
    where, params = ("WHERE thread_id = ?", (thread_id,)) if thread_id is not None else ("", ())
    rows = conn.execute(f"SELECT {selected} FROM audit_log {where} ORDER BY audit_id", params)
    return [{**dict(row), "detail": json.loads(row["detail"])} for row in rows]
