"""The library backend on SQLite and PostgreSQL (every test taking `db` runs on both): schema,
seed scenario, reservations, seed reload and reset."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from library_utils import fetch, tables

from tools.library.backend import LibraryBackend, ReserveResult
from tools.library.db import (
    SCHEMA_VERSION,
    SEED_FILE,
    audit_log,
    ensure_database,
    reservations,
    reset_database,
    set_copy_status,
)


@pytest.fixture
def db(library_location: str) -> str:
    return library_location


@pytest.fixture
def backend(db: str) -> LibraryBackend:
    return LibraryBackend(db)


def reserve(
    backend: LibraryBackend, copy_id: str, key: str, patron: str = "P1001"
) -> ReserveResult:
    return backend.reserve(copy_id, patron, key, "2026-09-26T14:03:00", "thread-1", 3)


def test_schema_has_every_table_and_says_what_it_is(db: str) -> None:
    ensure_database(db)
    assert tables(db) == {
        "meta",
        "places",
        "place_aliases",
        "branches",
        "walk_times",
        "opening_hours",
        "catalogue",
        "copies",
        "status_cache",
        "patrons",
        "reservations",
        "audit_log",
    }
    meta = dict(fetch(db, "SELECT key, value FROM meta"))
    assert meta["kind"] == "library" and meta["schema_version"] == SCHEMA_VERSION
    assert meta["seed"].startswith(f"{SCHEMA_VERSION}:")
    if "://" not in db:
        assert fetch(db, "PRAGMA journal_mode") == [("wal",)]


def test_seed_scenario_catalogue_by_either_title(backend: LibraryBackend) -> None:
    for query in (
        "数据库入门图解",
        "《数据库入门图解》",
        "database primer, illustrated",
        "Primer Illustrated",
    ):
        result = backend.search_catalog(query)
        first = result.records[0]
        assert (first.record_id, first.title, first.medium) == ("R1001", "数据库入门图解", "paper")
        assert [(c.copy_id, c.branch.place_id) for c in first.copies] == [
            ("E17", "East"),
            ("W22", "West"),
        ]
    mediums = {r.record_id: r.medium for r in backend.search_catalog("数据库入门图解").records}
    assert mediums == {"R1001": "paper", "R1002": "e-book", "R1003": "paper"}


def test_search_without_match_offers_similar_titles(backend: LibraryBackend) -> None:
    result = backend.search_catalog("数据结构")
    assert result.records == () and result.total == 0
    assert any("数据库" in title for title in result.similar)


def test_seed_scenario_copies(backend: LibraryBackend) -> None:
    east = backend.copy_status("E17", "P1001")
    west = backend.copy_status("w22", "P1001")
    assert east is not None and west is not None
    assert (east.branch.place_id, east.status, east.due) == ("East", "checked_out", "2026-10-08")
    assert (west.branch.place_id, west.shelf, west.status) == ("West", "B-12", "available")
    assert west.as_of == "2026-09-26T14:01:00" and west.live
    assert backend.copy_status("Z99", "P1001") is None
    cached = backend.cached_status("W22", "P1001")
    assert cached is not None and not cached.live and cached.as_of == "2026-09-26T13:20:00"


def test_seed_scenario_hours_and_walk(backend: LibraryBackend) -> None:
    west = backend.open_hours("West", "2026-09-26")
    assert west is not None
    assert (west.building, west.desk, west.closed_reason) == (
        ("09:00", "17:00"),
        ("09:00", "16:30"),
        None,
    )
    north = backend.open_hours("North", "2026-09-26")
    assert (
        north is not None and north.closed_reason == "annual inventory" and north.building is None
    )
    medical = backend.open_hours("Medical", "2026-09-26")
    assert medical is not None and medical.building == ("10:00", "16:00") and medical.desk is None
    sunday = backend.open_hours("West", "2026-09-27")
    assert sunday is not None and sunday.building == ("10:00", "17:00")
    holiday = backend.open_hours("East", "2026-10-01")
    assert holiday is not None and holiday.closed_reason == "National Day holiday"
    assert backend.open_hours("West", "2027-01-01") is None
    east_campus, west_branch = backend.resolve_place("东校区"), backend.resolve_place("西馆")
    assert east_campus is not None and west_branch is not None and west_branch.is_branch
    assert backend.walk_minutes(east_campus.place_id, west_branch.place_id) == 25
    assert backend.walk_minutes("West", "east_campus") == 25


@pytest.mark.parametrize("alias", ["West", "west library", "西馆", "West Branch", "西区图书馆"])
def test_branch_aliases(backend: LibraryBackend, alias: str) -> None:
    place = backend.resolve_place(alias)
    assert place is not None and place.place_id == "West"


def test_reservation_is_idempotent_per_key(db: str, backend: LibraryBackend) -> None:
    first = reserve(backend, "W22", "thread-1:3")
    again = reserve(backend, "W22", "thread-1:3")
    assert first.outcome == "reserved" and again.outcome == "existing"
    assert first.reservation == again.reservation
    rows = reservations(db)
    assert len(rows) == 1 and rows[0]["patron_id"] == "P1001" and rows[0]["copy_id"] == "W22"
    mine, theirs = backend.copy_status("W22", "P1001"), backend.copy_status("W22", "P1003")
    assert mine is not None and (mine.status, mine.held_for_patron) == ("on_hold", True)
    assert theirs is not None and theirs.held_for_patron is False
    other_key = reserve(backend, "W22", "thread-1:9")
    assert other_key.outcome == "refused" and "already on hold for you" in other_key.reason
    assert len(reservations(db)) == 1


def test_concurrent_reservations_with_one_key_reserve_once(db: str) -> None:
    backends = [LibraryBackend(db) for _ in range(4)]
    outcomes: list[str] = []
    threads = [
        threading.Thread(target=lambda b=b: outcomes.append(reserve(b, "W22", "same").outcome))
        for b in backends
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["existing", "existing", "existing", "reserved"]
    assert len(reservations(db)) == 1


@pytest.mark.parametrize(
    ("copy_id", "patron", "reason"),
    [
        ("E17", "P1001", "checked out, not available"),
        ("W31", "P1001", "on hold, not available"),
        ("Z99", "P1001", "there is no copy Z99"),
        ("W22", "P1002", "blocked (unpaid fines)"),
        ("W22", "P9999", "not registered"),
    ],
)
def test_reservation_refusals(
    db: str, backend: LibraryBackend, copy_id: str, patron: str, reason: str
) -> None:
    result = reserve(backend, copy_id, f"key-{copy_id}-{patron}", patron)
    assert result.outcome == "refused" and reason in result.reason
    assert reservations(db) == []


def test_hold_limit(db: str, backend: LibraryBackend) -> None:
    for number, copy_id in enumerate(["W22", "W40", "E05"]):
        assert reserve(backend, copy_id, f"k{number}").outcome == "reserved"
    refused = reserve(backend, "E60", "k3")
    assert refused.outcome == "refused" and "3 holds" in refused.reason


def test_readers_of_a_missing_file_return_nothing(tmp_path: Path) -> None:
    assert audit_log(tmp_path / "none.sqlite3") == []
    assert reservations(tmp_path / "none.sqlite3") == []
    assert not (tmp_path / "none.sqlite3").exists()


def test_circulation_event_and_reset(db: str, backend: LibraryBackend) -> None:
    set_copy_status(db, "E17", "available", "2026-09-26T13:59")
    east = backend.copy_status("E17", "P1001")
    assert east is not None and east.status == "available" and east.due is None
    with pytest.raises(ValueError, match="status must be one of"):
        set_copy_status(db, "E17", "lost", "2026-09-26T13:59")
    with pytest.raises(KeyError):
        set_copy_status(db, "Z99", "available", "2026-09-26T13:59")
    reserve(backend, "W22", "k")
    assert len(audit_log(db)) == 1
    reset_database(db)
    assert reservations(db) == [] and audit_log(db) == []
    fresh = backend.copy_status("E17", "P1001")
    assert fresh is not None and fresh.status == "checked_out"


def test_seed_change_reloads_reference_data_and_keeps_history(db: str, tmp_path: Path) -> None:
    seed = json.loads(SEED_FILE.read_text(encoding="utf-8"))
    seed_file = tmp_path / "seed.json"
    seed_file.write_text(json.dumps(seed), encoding="utf-8")
    ensure_database(db, seed_file)
    LibraryBackend(db).reserve("W22", "P1001", "k", "2026-09-26T14:03:00", "t", 1)
    next(c for c in seed["copies"] if c["id"] == "E17")["status"] = "missing"
    seed_file.write_text(json.dumps(seed), encoding="utf-8")
    ensure_database(db, seed_file)
    assert fetch(db, "SELECT status FROM copies WHERE copy_id = 'E17'") == [("missing",)]
    assert len(reservations(db)) == 1
    west = LibraryBackend(db).copy_status("W22", "P1001")
    assert west is not None and west.status == "on_hold"
