"""The library database's tables, once for SQLite and PostgreSQL (SQLAlchemy Core).

Reference tables (places, branches, hours, catalogue, copies, status cache,
patrons) are loaded from `seed.json` and reloaded when the seed or the schema
changes. History tables (reservations, the audit log) and `meta` are never
dropped by a reload. Values keep the types the first SQLite schema gave them:
text for ids, dates and times (ISO strings compare in time order), integers
for counts.

Invariants the database itself enforces: an idempotency key makes at most one
reservation, a copy has at most one active reservation, and an audit event is
written once per replay key.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
)
from sqlalchemy.schema import SchemaItem

SCHEMA_VERSION = "3"
KIND = "library"
COPY_STATUSES = ("available", "checked_out", "on_hold", "in_transit", "missing")
AUDIT_EVENTS = ("proposed", "decision", "executed", "fork", "settings_changed", "refused")

metadata = MetaData()


def _text(name: str, *args: SchemaItem, nullable: bool = False, **kwargs: Any) -> Column[str]:
    """A text column, required unless `nullable` (most are required)."""
    return Column(name, Text, *args, nullable=nullable, **kwargs)


def _one_of(column: str, values: tuple[str, ...]) -> CheckConstraint:
    quoted = ", ".join(f"'{value}'" for value in values)
    return CheckConstraint(f"{column} IN ({quoted})")


places = Table(
    "places", metadata, _text("place_id", primary_key=True), _text("name"), _text("name_zh")
)
place_aliases = Table(
    "place_aliases",
    metadata,
    _text("alias", primary_key=True),
    _text("place_id", ForeignKey("places.place_id")),
    _text("label"),
)
branches = Table(
    "branches",
    metadata,
    _text("branch_id", ForeignKey("places.place_id"), primary_key=True),
    _text("campus", ForeignKey("places.place_id")),
)
walk_times = Table(
    "walk_times",
    metadata,
    _text("origin", ForeignKey("places.place_id")),
    _text("destination", ForeignKey("places.place_id")),
    Column("minutes", Integer, CheckConstraint("minutes >= 0"), nullable=False),
    PrimaryKeyConstraint("origin", "destination"),
)
opening_hours = Table(
    "opening_hours",
    metadata,
    _text("branch_id", ForeignKey("branches.branch_id")),
    _text("date"),
    *(
        _text(name, nullable=True)
        for name in (
            "closed_reason",
            "building_open",
            "building_close",
            "desk_open",
            "desk_close",
        )
    ),
    _text("note", server_default=""),
    PrimaryKeyConstraint("branch_id", "date"),
)
catalogue = Table(
    "catalogue",
    metadata,
    _text("record_id", primary_key=True),
    _text("title"),
    _text("title_en"),
    _text("author"),
    Column("year", Integer, nullable=False),
    _text("medium", _one_of("medium", ("paper", "e-book"))),
    _text("note", server_default=""),
)
copies = Table(
    "copies",
    metadata,
    _text("copy_id", primary_key=True),
    _text("record_id", ForeignKey("catalogue.record_id")),
    _text("branch_id", ForeignKey("branches.branch_id")),
    _text("shelf"),
    _text("status", _one_of("status", COPY_STATUSES)),
    _text("held_for", nullable=True),
    _text("due", nullable=True),
    _text("status_time"),
)
status_cache = Table(
    "status_cache",
    metadata,
    _text("copy_id", ForeignKey("copies.copy_id"), primary_key=True),
    _text("status", _one_of("status", COPY_STATUSES)),
    _text("shelf"),
    _text("as_of"),
)
patrons = Table(
    "patrons",
    metadata,
    _text("patron_id", primary_key=True),
    _text("name"),
    _text("status", _one_of("status", ("active", "blocked"))),
    _text("blocked_reason", server_default=""),
    Column("max_holds", Integer, nullable=False),
)
REFERENCE_TABLES = (
    places,
    place_aliases,
    branches,
    walk_times,
    opening_hours,
    catalogue,
    copies,
    status_cache,
    patrons,
)

meta = Table("meta", metadata, _text("key", primary_key=True), _text("value"))
reservations = Table(
    "reservations",
    metadata,
    Column("reservation_id", Integer, primary_key=True),
    _text("idempotency_key", unique=True),
    _text("patron_id"),
    _text("copy_id"),
    _text("status", _one_of("status", ("active", "cancelled")), server_default="active"),
    _text("created_at"),
    _text("recorded_at"),
    _text("thread_id"),
    Column("step_index", Integer, nullable=False),
)
audit_log = Table(
    "audit_log",
    metadata,
    Column("audit_id", Integer, primary_key=True),
    _text("thread_id"),
    _text("request_id", server_default=""),
    _text("event"),
    _text("actor", server_default=""),
    Column("step_index", Integer, nullable=False),
    _text("idempotency_key", server_default=""),
    _text("patron_id"),
    _text("clock"),
    _text("recorded_at"),
    _text("detail"),
    _text("replay_key", unique=True),
    sqlite_autoincrement=True,
)
HISTORY_TABLES = (meta, reservations, audit_log)
HISTORY_INDEXES = (
    Index(
        "reservations_one_active_per_copy",
        reservations.c.copy_id,
        unique=True,
        sqlite_where=reservations.c.status == "active",
        postgresql_where=reservations.c.status == "active",
    ),
    Index("reservations_by_patron", reservations.c.patron_id, reservations.c.status),
    Index("audit_log_by_thread", audit_log.c.thread_id, audit_log.c.audit_id),
)
SETUP_LOCK_ORDER = (
    patrons,
    copies,
    reservations,
    catalogue,
    places,
    branches,
    place_aliases,
    audit_log,
    walk_times,
    opening_hours,
    status_cache,
)
"""The order in which a reservation's transaction first touches the tables (its other
statements touch one table, or join in this order); setting the database up on PostgreSQL
locks them in the same order, so the two never wait for each other in a cycle."""
