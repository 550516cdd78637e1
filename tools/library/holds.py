"""Placing a hold: the library's one write, and its `executed` audit row, in one transaction.

`place_hold` runs inside the caller's write transaction: the reservation row
and the audit row that says what ran (reserved, or refused and why) commit or
roll back together. A request whose idempotency key already ran is a replay:
it returns that key's reservation, or the refusal its `executed` row records,
and writes nothing (so a write killed before its step was stored is not run
again on resume, whatever changed in between).

Concurrent holds are decided one at a time per patron and per copy: the
transaction locks the patron's row, then the copy's row (`FOR UPDATE` on
PostgreSQL, always in that order, so two holds never wait on each other in a
cycle; SQLite's `BEGIN IMMEDIATE` already admits one writer at a time), and
only then reads the idempotency key, the copy's status and the patron's
holds. The schema backs this up: one reservation per key, one active
reservation per copy.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, RowMapping, func, select

from tools.library.audit import AuditEntry, append, utc_now
from tools.library.engines import insert_unless_taken
from tools.library.records import CopyStatus, Reservation, ReserveResult
from tools.library.schema import audit_log, copies, patrons, reservations

REFUSED_BEFORE = "this request already ran and was refused: {reason}"

CopyLookup = Callable[[Connection, str, str], CopyStatus | None]
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


def place_hold(conn: Connection, request: HoldRequest, copy_status: CopyLookup) -> ReserveResult:
    """Reserve, refuse, or find the key's earlier reservation; log the first two."""
    patron, key = request.patron, request.key
    person = (
        conn.execute(select(patrons).where(patrons.c.patron_id == patron).with_for_update())
        .mappings()
        .first()
    )
    if person is not None:
        conn.execute(
            select(copies.c.copy_id)
            .where(copies.c.copy_id == request.copy_id.upper())
            .with_for_update()
        )
    earlier = _by_key(conn, key)
    if earlier is not None:
        return _existing(conn, earlier, patron, copy_status)
    refusal, copy = _refusal(conn, request.copy_id, patron, person, copy_status)
    refused_before = _refused_before(conn, request)  # read last: `SETUP_LOCK_ORDER`
    if refused_before:
        return ReserveResult("refused", REFUSED_BEFORE.format(reason=refused_before), None, copy)
    if refusal or copy is None:
        result = ReserveResult("refused", refusal, None, copy)
    else:
        values = {
            "idempotency_key": key,
            "patron_id": patron,
            "copy_id": copy.copy_id,
            "created_at": request.clock,
            "recorded_at": utc_now(),
            "thread_id": request.thread_id,
            "step_index": request.step_index,
        }
        if insert_unless_taken(conn, reservations, values, "idempotency_key") is None:
            return _existing(conn, _by_key(conn, key), patron, copy_status)
        result = ReserveResult(
            "reserved",
            "reserved",
            _reservation(_by_key(conn, key)),
            copy_status(conn, copy.copy_id, patron),
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


def _by_key(conn: Connection, key: str) -> RowMapping | None:
    query = select(reservations).where(reservations.c.idempotency_key == key)
    return conn.execute(query).mappings().first()


def _refused_before(conn: Connection, request: HoldRequest) -> str:
    """The reason this key's write was refused when it ran ('' if it has not run)."""
    query = (
        select(audit_log.c.detail)
        .where(
            audit_log.c.thread_id == request.thread_id,
            audit_log.c.event == "executed",
            audit_log.c.idempotency_key == request.key,
        )
        .order_by(audit_log.c.audit_id)
    )
    for detail in conn.execute(query).scalars():
        recorded = json.loads(detail)
        if recorded.get("outcome") == "refused":
            return str(recorded.get("reason") or "refused")
    return ""


def _existing(
    conn: Connection, earlier: RowMapping | None, patron: str, copy_status: CopyLookup
) -> ReserveResult:
    """The result of a replay: this key's earlier reservation, nothing written."""
    if earlier is None:
        raise RuntimeError("a reservation's key was taken, but no reservation has it")
    return ReserveResult(
        "existing",
        "this request was already carried out",
        _reservation(earlier),
        copy_status(conn, earlier["copy_id"], patron),
    )


def _refusal(
    conn: Connection,
    copy_id: str,
    patron: str,
    person: RowMapping | None,
    copy_status: CopyLookup,
) -> tuple[str, CopyStatus | None]:
    """Why the patron may not hold the copy ('' if they may), and the copy's status."""
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
        return _held_for_you(conn, copy), copy
    if copy.status != "available":
        return f"copy {copy.copy_id} is {copy.status.replace('_', ' ')}, not available", copy
    holds = conn.execute(
        select(func.count())
        .select_from(reservations)
        .where(reservations.c.patron_id == patron, reservations.c.status == "active")
    ).scalar_one()
    if holds >= person["max_holds"]:
        return f"patron {patron} already has {holds} holds, the most allowed", copy
    return "", copy


def _held_for_you(conn: Connection, copy: CopyStatus) -> str:
    """Why a patron's second hold on a copy is refused: the first one, which may come from
    another of their requests (another thread), already holds it for them."""
    query = select(reservations).where(
        reservations.c.copy_id == copy.copy_id, reservations.c.status == "active"
    )
    held = conn.execute(query).mappings().first()
    desk = f"collect it at the {copy.branch.label} circulation desk"
    if held is None:
        return f"copy {copy.copy_id} is already on hold for you; {desk}"
    made = str(held["created_at"]).replace("T", " ")
    return (
        f"copy {copy.copy_id} is already on hold for you (reservation #{held['reservation_id']},"
        f" made {made} by another of your requests); {desk}"
    )


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


def _reservation(row: RowMapping | None) -> Reservation:
    if row is None:
        raise RuntimeError("the reservation just made cannot be read back")
    return Reservation(
        row["reservation_id"],
        row["idempotency_key"],
        row["patron_id"],
        row["copy_id"],
        row["created_at"],
    )
