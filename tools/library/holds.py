"""Placing a hold: the library's one write, and its `executed` audit row, in one transaction.

`place_hold` runs inside the caller's write transaction: the reservation row
and the audit row that says what ran (reserved, or refused and why) commit or
roll back together. A request whose idempotency key already has a reservation
is a replay: it returns that reservation and writes nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tools.library.audit import AuditEntry, append, utc_now
from tools.library.records import CopyStatus, Reservation, ReserveResult

CopyLookup = Callable[[sqlite3.Connection, str, str], CopyStatus | None]
"""(connection, copy id, patron) -> the copy's live status, or None if there is no such copy."""


@dataclass(frozen=True)
class HoldRequest:
    """One `reserve` call: what to hold, for whom, under which key, and who asked."""

    copy_id: str
    patron: str
    key: str
    clock: str
    thread_id: str
    step_index: int
    request_id: str = ""
    actor: str = ""


def place_hold(
    conn: sqlite3.Connection, request: HoldRequest, copy_status: CopyLookup
) -> ReserveResult:
    """Reserve, refuse, or find the key's earlier reservation; log the first two."""
    patron, key = request.patron, request.key
    earlier = conn.execute(
        "SELECT * FROM reservations WHERE idempotency_key = ?", (key,)
    ).fetchone()
    if earlier is not None:
        return ReserveResult(
            "existing",
            "this request was already carried out",
            _reservation(earlier),
            copy_status(conn, earlier["copy_id"], patron),
        )
    refusal, copy = _refusal(conn, request.copy_id, patron, copy_status)
    if refusal or copy is None:
        result = ReserveResult("refused", refusal, None, copy)
    else:
        cursor = conn.execute(
            "INSERT INTO reservations (idempotency_key, patron_id, copy_id, created_at,"
            " recorded_at, thread_id, step_index) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                patron,
                copy.copy_id,
                request.clock,
                utc_now(),
                request.thread_id,
                request.step_index,
            ),
        )
        row = conn.execute(
            "SELECT * FROM reservations WHERE reservation_id = ?", (cursor.lastrowid,)
        ).fetchone()
        result = ReserveResult(
            "reserved", "reserved", _reservation(row), copy_status(conn, copy.copy_id, patron)
        )
    entry = AuditEntry(
        "executed",
        request.thread_id,
        request.step_index,
        patron,
        request.clock,
        _executed_detail(request.copy_id, result),
        request.request_id,
        request.actor,
        key,
    )
    append(conn, entry)
    return result


def _refusal(
    conn: sqlite3.Connection, copy_id: str, patron: str, copy_status: CopyLookup
) -> tuple[str, CopyStatus | None]:
    """Why the patron may not hold the copy ('' if they may), and the copy's status."""
    person = conn.execute("SELECT * FROM patrons WHERE patron_id = ?", (patron,)).fetchone()
    if person is None:
        return f"patron {patron} is not registered", None
    if person["status"] != "active":
        return f"patron {patron}'s account is blocked ({person['blocked_reason']})", None
    copy = copy_status(conn, copy_id, patron)
    if copy is None:
        return f"there is no copy {copy_id}", None
    if copy.medium != "paper":
        return f"copy {copy.copy_id} is not a paper copy", copy
    if copy.status == "on_hold" and copy.held_for_patron:
        return f"copy {copy.copy_id} is already on hold for you", copy
    if copy.status != "available":
        return f"copy {copy.copy_id} is {copy.status.replace('_', ' ')}, not available", copy
    holds = conn.execute(
        "SELECT COUNT(*) FROM reservations WHERE patron_id = ? AND status = 'active'",
        (patron,),
    ).fetchone()[0]
    if holds >= person["max_holds"]:
        return f"patron {patron} already has {holds} holds, the most allowed", copy
    return "", copy


def _executed_detail(copy_id: str, result: ReserveResult) -> dict[str, Any]:
    """What the `executed` row says: the outcome, the copy, the reservation or the reason."""
    detail: dict[str, Any] = {
        "outcome": result.outcome,
        "copy_id": result.copy.copy_id if result.copy else copy_id,
        "reservation_id": result.reservation.reservation_id if result.reservation else None,
    }
    if result.outcome == "refused":
        detail["reason"] = result.reason
    return detail


def _reservation(row: sqlite3.Row) -> Reservation:
    return Reservation(
        row["reservation_id"],
        row["idempotency_key"],
        row["patron_id"],
        row["copy_id"],
        row["created_at"],
    )
