"""Queries, the one write and the audit log of the library backend, on SQLite or PostgreSQL.

Each call borrows a pooled connection of the location's engine
(`tools.library.engines`) for one transaction, so calls can run in worker
threads (the environment runs them under a timeout) and in several
processes at once. The read queries are built once (`tools.library.queries`).
Results are frozen dataclasses (`tools.library.records`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, RowMapping

from tools.fencing import check_fence
from tools.library import queries
from tools.library.audit import CURRENT_COLUMNS, AuditEntry, append, read_events, utc_now
from tools.library.clock import iso
from tools.library.db import ensure_database
from tools.library.engines import describe, reading, writing
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

    def __init__(self, path: Path | str | URL | None = None) -> None:
        self.path = ensure_database(path)

    def _place(self, conn: Connection, place_id: str) -> Place:
        row = conn.execute(queries.PLACE, {"place_id": place_id}).mappings().first()
        if row is None:
            raise KeyError(f"no place {place_id!r} in {describe(self.path)}")
        labels = conn.execute(queries.ALIAS_LABELS, {"place_id": place_id}).scalars()
        aliases = tuple(sorted(labels))
        return Place(row["place_id"], row["name"], row["name_zh"], aliases, bool(row["is_branch"]))

    def resolve_place(self, name: str) -> Place | None:
        """The place a name or alias denotes ('东校区', 'West', 'west library'), or None."""
        with reading(self.path) as conn:
            place_id = conn.execute(queries.PLACE_OF_ALIAS, {"alias": fold(name)}).scalar()
            return self._place(conn, place_id) if place_id is not None else None

    def places(self, *, branches_only: bool = False) -> list[Place]:
        """All places (or branches), in id order."""
        with reading(self.path) as conn:
            query = queries.BRANCH_IDS if branches_only else queries.PLACE_IDS
            ids = sorted(conn.execute(query).scalars())
            return [self._place(conn, place_id) for place_id in ids]

    def search_catalog(self, query: str) -> SearchResult:
        """Records whose Chinese or English title contains the query, best first."""
        with reading(self.path) as conn:
            rows = conn.execute(queries.CATALOGUE).mappings().all()
            found = sorted(
                (row for row in rows if title_matches(query, row["title"], row["title_en"])),
                key=lambda row: (
                    title_rank(query, row["title"], row["title_en"]),
                    row["record_id"],
                ),
            )
            records = tuple(self._record(conn, row) for row in found[:SEARCH_LIMIT])
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

    def _record(self, conn: Connection, row: RowMapping) -> CatalogueRecord:
        held = conn.execute(queries.COPIES_OF_RECORD, {"record_id": row["record_id"]})
        copy_refs = tuple(
            CopyRef(copy_id, self._place(conn, branch_id)) for copy_id, branch_id in sorted(held)
        )
        return CatalogueRecord(
            row["record_id"],
            row["title"],
            row["title_en"],
            row["author"],
            row["year"],
            row["medium"],
            row["note"],
            copy_refs,
        )

    def _copy_status(self, conn: Connection, copy_id: str, patron: str) -> CopyStatus | None:
        row = conn.execute(queries.COPY, {"copy_id": copy_id.upper()}).mappings().first()
        if row is None:
            return None
        status, held_for, as_of, due = (
            row["status"],
            row["held_for"],
            row["status_time"],
            row["due"],
        )
        hold = conn.execute(queries.ACTIVE_HOLD, {"copy_id": row["copy_id"]}).mappings().first()
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
        with reading(self.path) as conn:
            return self._copy_status(conn, copy_id, patron)

    def cached_status(self, copy_id: str, patron: str) -> CopyStatus | None:
        """The discovery layer's cached status of a copy (not live), or None."""
        with reading(self.path) as conn:
            live = self._copy_status(conn, copy_id, patron)
            found = conn.execute(queries.CACHED_STATUS, {"copy_id": copy_id.upper()})
            row = found.mappings().first()
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
        with reading(self.path) as conn:
            found = conn.execute(queries.HOURS, {"branch_id": branch_id, "day": day})
            row = found.mappings().first()
            if row is None:
                return None
            building = (
                (row["building_open"], row["building_close"]) if row["building_open"] else None
            )
            desk = (row["desk_open"], row["desk_close"]) if row["desk_open"] else None
            return Hours(
                self._place(conn, branch_id), day, row["closed_reason"], building, desk, row["note"]
            )

    def walk_minutes(self, origin_id: str, destination_id: str) -> int | None:
        """Walking minutes between two places (either direction), or None if not estimated."""
        if origin_id == destination_id:
            return 0
        with reading(self.path) as conn:
            pair = {"one": origin_id, "two": destination_id}
            minutes = conn.execute(queries.WALK_MINUTES, pair).scalar()
        return int(minutes) if minutes is not None else None

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
        fence: int | None = None,
    ) -> ReserveResult:
        """Place a hold on a copy for a patron, once per idempotency key, and log it.

        The `executed` audit row (reserved, or refused and why) is written in the
        same transaction as the reservation (`holds.place_hold`), so the log cannot
        disagree with what ran. A replay that finds this key's earlier reservation
        writes no row. With the run's `fence` token, a process whose thread was taken over
        writes nothing (`tools.fencing.TakenOverError`).
        """
        request = HoldRequest(copy_id, patron, key, clock, thread_id, step_index, request_id, actor)
        with writing(self.path) as conn:
            check_fence(conn, thread_id, fence, utc_now())
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
        fence: int | None = None,
    ) -> int | None:
        """Append one audit row and return its id; None if it exactly replays a row
        already written (same thread, request, event, detail and idempotency key). Fenced
        like `reserve`."""
        entry = AuditEntry(
            event, thread_id, step_index, patron, clock, detail, request_id, actor, idempotency_key
        )
        with writing(self.path) as conn:
            check_fence(conn, thread_id, fence, utc_now())
            return append(conn, entry)

    def audit_events(
        self, thread_id: str | None = None, request_ids: Collection[str] | None = None
    ) -> list[dict[str, Any]]:
        """The audit rows (of one thread, or all; of `request_ids` only, if given) in id
        order, `detail` decoded."""
        with reading(self.path) as conn:
            return read_events(conn, thread_id, CURRENT_COLUMNS, request_ids)


def _normal(moment: str) -> str:
    return iso(datetime.fromisoformat(moment))
