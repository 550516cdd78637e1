"""The library's audit log: an append-only table of approval events with their own ids.

Proposals, decisions, executions, forks and settings changes are appended,
never updated or deleted. A row's `replay_key` hashes what makes it the same
event (thread, request, event, detail, idempotency key) and is unique, so only
an exact replay of a row already written is skipped, even when two processes
write it at once; anything else, a second decision for one request included,
is a new row.

The functions work on a connection inside the caller's transaction, which is
how `reserve` writes its `executed` row together with the reservation.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, column, insert, inspect, literal, select, table, text

from tools.library.engines import insert_unless_taken
from tools.library.schema import AUDIT_EVENTS, audit_log

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
CURRENT_COLUMNS = frozenset(audit_log.c.keys())


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


def append(conn: Connection, entry: AuditEntry) -> int | None:
    """Append `entry` in the open write transaction; its id, or None for an exact replay
    (checked before inserting, so a replay leaves no gap in the ids)."""
    if entry.event not in AUDIT_EVENTS:
        raise ValueError(f"audit event must be one of {AUDIT_EVENTS}, got {entry.event!r}")
    detail = canonical_json(entry.detail)
    key = replay_key(entry.thread_id, entry.request_id, entry.event, detail, entry.idempotency_key)
    if conn.execute(select(audit_log.c.audit_id).where(audit_log.c.replay_key == key)).first():
        return None
    values = {
        "thread_id": entry.thread_id,
        "request_id": entry.request_id,
        "event": entry.event,
        "actor": entry.actor,
        "step_index": entry.step_index,
        "idempotency_key": entry.idempotency_key,
        "patron_id": entry.patron,
        "clock": entry.clock,
        "recorded_at": utc_now(),
        "detail": detail,
        "replay_key": key,
    }
    row = insert_unless_taken(conn, audit_log, values, "replay_key")
    return int(row.audit_id) if row else None


def columns_of(conn: Connection, name: str) -> set[str]:
    """The columns of table `name` (empty if there is no such table)."""
    inspector = inspect(conn)
    if not inspector.has_table(name):
        return set()
    return {str(item["name"]) for item in inspector.get_columns(name)}


def ensure_audit_table(conn: Connection) -> None:
    """Create the table, or migrate one of the old layout (one row per key and event; only
    SQLite files were written with it) in place, keeping every row and its id; old rows
    get request id and actor ''.

    Runs in the caller's write transaction.
    """
    present = columns_of(conn, "audit_log")
    if not present or "replay_key" in present:
        audit_log.create(conn, checkfirst=True)
        return
    conn.execute(text(f"ALTER TABLE audit_log RENAME TO {LEGACY_TABLE}"))
    for index in audit_log.indexes:
        conn.execute(text(f"DROP INDEX IF EXISTS {index.name}"))
    audit_log.create(conn)
    old_rows = conn.execute(text(f"SELECT * FROM {LEGACY_TABLE} ORDER BY audit_id")).mappings()
    migrated = []
    for row in old_rows:
        detail = canonical_json(json.loads(row["detail"]))
        migrated.append(
            {
                **{name: row[name] for name in COLUMNS if name in row and name != "detail"},
                "detail": detail,
                "replay_key": replay_key(
                    row["thread_id"], "", row["event"], detail, row["idempotency_key"]
                ),
            }
        )
    if migrated:
        conn.execute(insert(audit_log), migrated)
    conn.execute(text(f"DROP TABLE {LEGACY_TABLE}"))


def read_events(
    conn: Connection,
    thread_id: str | None = None,
    present: Collection[str] | None = None,
    request_ids: Collection[str] | None = None,
) -> list[dict[str, Any]]:
    """The rows (of one thread, or all; of the `request_ids` only, if given) in id order,
    `detail` decoded.

    `present` names the table's columns when the caller knows them; a table of the
    old layout, not migrated yet, reads with request id and actor ''.
    """
    present = columns_of(conn, "audit_log") if present is None else present
    if not present:
        return []
    source = table("audit_log", *(column(name) for name in present))
    query = select(
        *(source.c[name] if name in present else literal("").label(name) for name in COLUMNS)
    ).order_by(source.c.audit_id)
    if thread_id is not None:
        query = query.where(source.c.thread_id == thread_id)
    if request_ids is not None:
        if "request_id" not in present:
            return []
        query = query.where(source.c.request_id.in_(sorted(request_ids)))
    rows = conn.execute(query).mappings()
    return [{**row, "detail": json.loads(row["detail"])} for row in rows]
