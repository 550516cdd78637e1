"""The backend's read queries, built once (SQLAlchemy Core) and run with bound values.

Each statement is built at import, so a call only binds its values and
reuses the compiled form from the engine's cache. Text orderings are left to
Python (`sorted`), so SQLite and PostgreSQL give the same order whatever the
database's collation.
"""

from __future__ import annotations

from sqlalchemy import and_, bindparam, or_, select

from tools.library.schema import (
    branches,
    catalogue,
    copies,
    opening_hours,
    place_aliases,
    places,
    reservations,
    status_cache,
    walk_times,
)

PLACE = (
    select(places, branches.c.branch_id.is_not(None).label("is_branch"))
    .select_from(places.outerjoin(branches, branches.c.branch_id == places.c.place_id))
    .where(places.c.place_id == bindparam("place_id"))
)
ALIAS_LABELS = select(place_aliases.c.label).where(
    place_aliases.c.place_id == bindparam("place_id")
)
PLACE_OF_ALIAS = select(place_aliases.c.place_id).where(place_aliases.c.alias == bindparam("alias"))
PLACE_IDS = select(places.c.place_id)
BRANCH_IDS = select(branches.c.branch_id)
CATALOGUE = select(catalogue)
COPIES_OF_RECORD = select(copies.c.copy_id, copies.c.branch_id).where(
    copies.c.record_id == bindparam("record_id")
)
COPY = (
    select(copies, catalogue.c.title, catalogue.c.title_en, catalogue.c.medium)
    .join_from(copies, catalogue)
    .where(copies.c.copy_id == bindparam("copy_id"))
)
ACTIVE_HOLD = (
    select(reservations.c.patron_id, reservations.c.created_at)
    .where(reservations.c.copy_id == bindparam("copy_id"), reservations.c.status == "active")
    .order_by(reservations.c.reservation_id.desc())
    .limit(1)
)
CACHED_STATUS = select(status_cache).where(status_cache.c.copy_id == bindparam("copy_id"))
HOURS = select(opening_hours).where(
    opening_hours.c.branch_id == bindparam("branch_id"),
    opening_hours.c.date == bindparam("day"),
)
WALK_MINUTES = select(walk_times.c.minutes).where(
    or_(
        and_(walk_times.c.origin == bindparam("one"), walk_times.c.destination == bindparam("two")),
        and_(walk_times.c.origin == bindparam("two"), walk_times.c.destination == bindparam("one")),
    )
)
