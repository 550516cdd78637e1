"""Queries, the one write and the audit log of the library backend, over SQLite.

Each call opens its own connection, so calls can run in worker threads (the
environment runs them under a timeout). Results are frozen dataclasses
(`tools.library.records`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from tools.library.audit import AuditEntry, append, read_events
from tools.library.clock import iso
from tools.library.db import connect, ensure_database, transaction
from tools.library.holds import HoldRequest, place_hold
from tools.library.records import (
    CatalogueRecord,
    CopyRef,
    CopyStatus,
    Hours,
    Place,
    ReserveResult,
    SearchResult,
)
from tools.library.text import fold, title_matches, title_rank, title_similarity

SEARCH_LIMIT = 5
SIMILAR_LIMIT = 3
SIMILAR_MIN_SCORE = 0.3


class LibraryBackend:
    """The library system: catalogue, circulation, hours, walking times, reservations."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = ensure_database(path)

    def _read(self, query: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        conn = connect(self.path)
        try:
            return conn.execute(query, params).fetchall()
        finally:
            conn.close()

    def _place(self, conn: sqlite3.Connection, place_id: str) -> Place:
        row = conn.execute(
            "SELECT p.*, b.branch_id IS NOT NULL AS is_branch FROM places p"
            " LEFT JOIN branches b ON b.branch_id = p.place_id WHERE p.place_id = ?",
            (place_id,),
        ).fetchone()
        if row is None:
            raise KeyError(f"no place {place_id!r} in {self.path}")
        aliases = tuple(
            r["label"]
            for r in conn.execute(
                "SELECT label FROM place_aliases WHERE place_id = ? ORDER BY label", (place_id,)
            )
        )
        return Place(row["place_id"], row["name"], row["name_zh"], aliases, bool(row["is_branch"]))

    def resolve_place(self, name: str) -> Place | None:
        """The place a name or alias denotes ('东校区', 'West', 'west library'), or None."""
        conn = connect(self.path)
        try:
            row = conn.execute(
                "SELECT place_id FROM place_aliases WHERE alias = ?", (fold(name),)
            ).fetchone()
            return self._place(conn, row["place_id"]) if row else None
        finally:
            conn.close()

    def places(self, *, branches_only: bool = False) -> list[Place]:
        """All places (or branches), in id order."""
        query = (
            "SELECT branch_id AS place_id FROM branches"
            if branches_only
            else ("SELECT place_id FROM places")
        )
        conn = connect(self.path)
        try:
            ids = [row["place_id"] for row in conn.execute(f"{query} ORDER BY 1")]
            return [self._place(conn, place_id) for place_id in ids]
        finally:
            conn.close()

    def search_catalog(self, query: str) -> SearchResult:
        """Records whose Chinese or English title contains the query, best first."""
        conn = connect(self.path)
        try:
            rows = conn.execute("SELECT * FROM catalogue").fetchall()
            found = sorted(
                (row for row in rows if title_matches(query, row["title"], row["title_en"])),
                key=lambda row: (
                    title_rank(query, row["title"], row["title_en"]),
                    row["record_id"],
                ),
            )
            records = tuple(self._record(conn, row) for row in found[:SEARCH_LIMIT])
        finally:
            conn.close()
        similar: tuple[str, ...] = ()
        if not found:
            scored = sorted(
                (
                    (
                        title_similarity(query, row["title"], row["title_en"]),
                        f"{row['title']} / {row['title_en']}",
                    )
                    for row in rows
                ),
                reverse=True,
            )
            similar = tuple(
                dict.fromkeys(label for score, label in scored if score >= SIMILAR_MIN_SCORE)
            )[:SIMILAR_LIMIT]
        return SearchResult(records, len(found), similar)

    def _record(self, conn: sqlite3.Connection, row: sqlite3.Row) -> CatalogueRecord:
        copies = tuple(
            CopyRef(copy["copy_id"], self._place(conn, copy["branch_id"]))
            for copy in conn.execute(
                "SELECT copy_id, branch_id FROM copies WHERE record_id = ? ORDER BY copy_id",
                (row["record_id"],),
            )
        )
        return CatalogueRecord(
            row["record_id"],
            row["title"],
            row["title_en"],
            row["author"],
            row["year"],
            row["medium"],
            row["note"],
            copies,
        )

    def _copy_status(
        self, conn: sqlite3.Connection, copy_id: str, patron: str
    ) -> CopyStatus | None:
        row = conn.execute(
            "SELECT c.*, k.title, k.title_en, k.medium FROM copies c"
            " JOIN catalogue k ON k.record_id = c.record_id WHERE c.copy_id = ?",
            (copy_id.upper(),),
        ).fetchone()
        if row is None:
            return None
        status, held_for, as_of, due = (
            row["status"],
            row["held_for"],
            row["status_time"],
            row["due"],
        )
        hold = conn.execute(
            "SELECT patron_id, created_at FROM reservations WHERE copy_id = ? AND status = 'active'"
            " ORDER BY reservation_id DESC LIMIT 1",
            (row["copy_id"],),
        ).fetchone()
        if hold is not None:
            status, held_for, due = "on_hold", hold["patron_id"], None
            as_of = max(as_of, hold["created_at"], key=datetime.fromisoformat)
        return CopyStatus(
            row["copy_id"],
            row["record_id"],
            row["title"],
            row["title_en"],
            row["medium"],
            self._place(conn, row["branch_id"]),
            row["shelf"],
            status,
            due,
            (held_for == patron) if status == "on_hold" else None,
            _normal(as_of),
            live=True,
        )

    def copy_status(self, copy_id: str, patron: str) -> CopyStatus | None:
        """The live status of a copy (its active reservation included), or None if unknown."""
        conn = connect(self.path)
        try:
            return self._copy_status(conn, copy_id, patron)
        finally:
            conn.close()

    def cached_status(self, copy_id: str, patron: str) -> CopyStatus | None:
        """The discovery layer's cached status of a copy (not live), or None."""
        conn = connect(self.path)
        try:
            live = self._copy_status(conn, copy_id, patron)
            row = conn.execute(
                "SELECT * FROM status_cache WHERE copy_id = ?", (copy_id.upper(),)
            ).fetchone()
        finally:
            conn.close()
        if live is None or row is None:
            return None
        return CopyStatus(
            live.copy_id,
            live.record_id,
            live.title,
            live.title_en,
            live.medium,
            live.branch,
            row["shelf"],
            row["status"],
            None,
            None,
            _normal(row["as_of"]),
            live=False,
        )

    def open_hours(self, branch_id: str, day: str) -> Hours | None:
        """A branch's building and desk hours on a date, or None if none are published."""
        conn = connect(self.path)
        try:
            row = conn.execute(
                "SELECT * FROM opening_hours WHERE branch_id = ? AND date = ?",
                (branch_id, day),
            ).fetchone()
            if row is None:
                return None
            building = (
                (row["building_open"], row["building_close"]) if row["building_open"] else None
            )
            desk = (row["desk_open"], row["desk_close"]) if row["desk_open"] else None
            return Hours(
                self._place(conn, branch_id), day, row["closed_reason"], building, desk, row["note"]
            )
        finally:
            conn.close()

    def walk_minutes(self, origin_id: str, destination_id: str) -> int | None:
        """Walking minutes between two places (either direction), or None if not estimated."""
        if origin_id == destination_id:
            return 0
        rows = self._read(
            "SELECT minutes FROM walk_times WHERE (origin = ? AND destination = ?)"
            " OR (origin = ? AND destination = ?)",
            (origin_id, destination_id, destination_id, origin_id),
        )
        return int(rows[0]["minutes"]) if rows else None

    def reserve(
        self,
        copy_id: str,
        patron: str,
        key: str,
        clock: str,
        thread_id: str,
        step_index: int,
        *,
        request_id: str = "",
        actor: str = "",
    ) -> ReserveResult:
        """Place a hold on a copy for a patron, once per idempotency key, and log it.

        The `executed` audit row (reserved, or refused and why) is written in the
        same transaction as the reservation (`holds.place_hold`), so the log cannot
        disagree with what ran. A replay that finds this key's earlier reservation
        writes no row.
        """
        request = HoldRequest(copy_id, patron, key, clock, thread_id, step_index, request_id, actor)
        with transaction(self.path, write=True) as conn:
            return place_hold(conn, request, self._copy_status)

    def record_event(
        self,
        event: str,
        *,
        thread_id: str,
        request_id: str,
        step_index: int,
        actor: str,
        patron: str,
        clock: str,
        detail: Mapping[str, Any],
        idempotency_key: str = "",
    ) -> int | None:
        """Append one audit row and return its id; None if it exactly replays a row
        already written (same thread, request, event, detail and idempotency key)."""
        entry = AuditEntry(
            event, thread_id, step_index, patron, clock, detail, request_id, actor, idempotency_key
        )
        with transaction(self.path, write=True) as conn:
            return append(conn, entry)

    def audit_events(self, thread_id: str | None = None) -> list[dict[str, Any]]:
        """The audit rows (of one thread, or all) in id order, `detail` decoded."""
        conn = connect(self.path)
        try:
            return read_events(conn, thread_id)
        finally:
            conn.close()


def _normal(moment: str) -> str:
    return iso(datetime.fromisoformat(moment))
