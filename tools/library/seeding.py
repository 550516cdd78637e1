"""The seed data (`seed.json`) as rows of the reference tables, and its fingerprint."""

from __future__ import annotations

import hashlib
from datetime import date, timedelta
from typing import Any

from sqlalchemy import Connection, insert

from tools.library.schema import (
    SCHEMA_VERSION,
    branches,
    catalogue,
    copies,
    opening_hours,
    patrons,
    place_aliases,
    places,
    status_cache,
    walk_times,
)
from tools.library.text import fold

WEEKDAY_KEYS = ("mon-fri",) * 5 + ("sat", "sun")


def seed_fingerprint(seed_bytes: bytes) -> str:
    """What `meta.seed` holds once the seed is loaded: the schema version and the seed's hash."""
    return f"{SCHEMA_VERSION}:{hashlib.sha256(seed_bytes).hexdigest()}"


def hours_rows(seed: dict[str, Any]) -> list[dict[str, Any]]:
    """Each branch's hours on each day of the seed's range (exceptions over weekly hours)."""
    first = date.fromisoformat(seed["hours_range"]["first"])
    last = date.fromisoformat(seed["hours_range"]["last"])
    exceptions = {(item["branch"], item["date"]): item for item in seed["hours_exceptions"]}
    rows = []
    for branch_id, weekly in seed["weekly_hours"].items():
        day = first
        while day <= last:
            key = day.isoformat()
            entry = exceptions.get((branch_id, key)) or exceptions.get(("*", key))
            entry = entry or weekly[WEEKDAY_KEYS[day.weekday()]]
            building = entry.get("building") or (None, None)
            desk = entry.get("desk") or (None, None)
            rows.append(
                {
                    "branch_id": branch_id,
                    "date": key,
                    "closed_reason": entry.get("closed"),
                    "building_open": building[0],
                    "building_close": building[1],
                    "desk_open": desk[0],
                    "desk_close": desk[1],
                    "note": entry.get("note", ""),
                }
            )
            day += timedelta(days=1)
    return rows


def load_seed(conn: Connection, seed: dict[str, Any]) -> None:
    """Insert the seed's rows into the (empty) reference tables."""
    every_place = [*seed["places"], *seed["branches"]]
    aliases = []
    for place in every_place:
        labels = [place["name"], place["name_zh"], place["id"], *place["aliases"]]
        for alias, label in {fold(label): label for label in reversed(labels)}.items():
            aliases.append({"alias": alias, "place_id": place["id"], "label": label})
    batches = [
        (
            places,
            [
                {"place_id": place["id"], "name": place["name"], "name_zh": place["name_zh"]}
                for place in every_place
            ],
        ),
        (place_aliases, aliases),
        (branches, [{"branch_id": b["id"], "campus": b["campus"]} for b in seed["branches"]]),
        (
            walk_times,
            [{"origin": a, "destination": b, "minutes": m} for a, b, m in seed["walks"]],
        ),
        (opening_hours, hours_rows(seed)),
        (catalogue, [_renamed(item, id="record_id") for item in seed["catalogue"]]),
        (
            copies,
            [
                {"held_for": None, "due": None}
                | _renamed(item, id="copy_id", record="record_id", branch="branch_id")
                for item in seed["copies"]
            ],
        ),
        (status_cache, [_renamed(item, copy="copy_id") for item in seed["status_cache"]]),
        (
            patrons,
            [{"blocked_reason": "", **_renamed(item, id="patron_id")} for item in seed["patrons"]],
        ),
    ]
    for table, rows in batches:
        conn.execute(insert(table), rows)


def _renamed(item: dict[str, Any], **names: str) -> dict[str, Any]:
    """`item` with some keys renamed to the table's column names."""
    return {names.get(key, key): value for key, value in item.items()}
