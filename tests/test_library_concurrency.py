"""Eight processes on one library database at once, on SQLite and on PostgreSQL.

Each race starts real worker processes' tasks together (`library_workers`):
reservations of one copy, past one patron's hold limit, replays of one
request, and processes that set the database up (first load, a seed change)
while others reserve.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from library_utils import fetch
from library_workers import WorkerPool

from tools.library.backend import LibraryBackend
from tools.library.db import SEED_FILE, audit_log, ensure_database, reservations
from tools.library.seeding import seed_fingerprint

WORKERS = 8
AVAILABLE = ["W22", "N30", "E05", "N12", "W40", "N08", "M03", "N09"]


@pytest.fixture(scope="module")
def workers() -> Iterator[WorkerPool]:
    pool = WorkerPool(WORKERS)
    yield pool
    pool.close()


def reserve_task(location: str, number: int, copy_id: str, patron: str, key: str) -> dict[str, Any]:
    return {
        "op": "reserve",
        "location": location,
        "copy_id": copy_id,
        "patron": patron,
        "key": key,
        "thread": f"race-{number}",
    }


def executed(location: str) -> list[dict[str, Any]]:
    return [row for row in audit_log(location) if row["event"] == "executed"]


@pytest.mark.slow
def test_eight_processes_racing_for_one_copy_reserve_it_once(
    library_location: str, workers: WorkerPool
) -> None:
    ensure_database(library_location)
    patrons = ["P1001", "P1003"]
    tasks = [
        reserve_task(library_location, n, "W22", patrons[n % 2], f"race-{n}:1")
        for n in range(WORKERS)
    ]
    results = workers.race(tasks)
    outcomes = Counter(result["outcome"] for result in results)
    assert outcomes == {"reserved": 1, "refused": WORKERS - 1}, results
    winner = next(n for n, result in enumerate(results) if result["outcome"] == "reserved")
    refusals = {result["reason"] for result in results if result["outcome"] == "refused"}
    assert all(
        reason == "copy W22 is on hold, not available"
        or reason.startswith("copy W22 is already on hold for you (reservation #")
        for reason in refusals
    ), refusals
    [reservation] = reservations(library_location)
    assert (reservation["patron_id"], reservation["idempotency_key"]) == (
        patrons[winner % 2],
        f"race-{winner}:1",
    )
    rows = executed(library_location)
    assert len(rows) == WORKERS
    made = [row["detail"] for row in rows if row["detail"]["outcome"] == "reserved"]
    assert [detail["reservation_id"] for detail in made] == [reservation["reservation_id"]]


def test_eight_processes_never_exceed_a_patrons_hold_limit(
    library_location: str, workers: WorkerPool
) -> None:
    ensure_database(library_location)
    tasks = [
        reserve_task(library_location, n, copy_id, "P1001", f"limit-{n}:1")
        for n, copy_id in enumerate(AVAILABLE)
    ]
    results = workers.race(tasks)
    outcomes = Counter(result["outcome"] for result in results)
    assert outcomes == {"reserved": 3, "refused": WORKERS - 3}, results
    assert {r["reason"] for r in results if r["outcome"] == "refused"} == {
        "patron P1001 already has 3 holds, the most allowed"
    }
    assert len(reservations(library_location)) == 3
    assert Counter(row["detail"]["outcome"] for row in executed(library_location)) == outcomes


def test_one_request_replayed_by_eight_processes_runs_once(
    library_location: str, workers: WorkerPool
) -> None:
    ensure_database(library_location)
    tasks = [reserve_task(library_location, 0, "W22", "P1001", "same:1") for _ in range(WORKERS)]
    results = workers.race(tasks)
    assert Counter(r["outcome"] for r in results) == {"reserved": 1, "existing": WORKERS - 1}
    assert len(reservations(library_location)) == 1
    assert [row["detail"]["outcome"] for row in executed(library_location)] == ["reserved"]


def ensure_task(location: str, seed_file: Path) -> dict[str, Any]:
    return {"op": "ensure", "location": location, "seed_file": str(seed_file)}


def test_eight_processes_creating_one_database_load_the_seed_once(
    library_location: str, workers: WorkerPool
) -> None:
    results = workers.race([ensure_task(library_location, SEED_FILE)] * WORKERS)
    assert results == [{"outcome": "ensured"}] * WORKERS
    seed = json.loads(SEED_FILE.read_text(encoding="utf-8"))
    assert fetch(library_location, "SELECT count(*) FROM copies") == [(len(seed["copies"]),)]
    meta = dict(fetch(library_location, "SELECT key, value FROM meta"))
    assert meta == {
        "kind": "library",
        "schema_version": meta["schema_version"],
        "seed": seed_fingerprint(SEED_FILE.read_bytes()),
    }


def test_a_seed_change_reloaded_by_four_processes_while_four_reserve(
    library_location: str, workers: WorkerPool, tmp_path: Path
) -> None:
    LibraryBackend(library_location).reserve("W60", "P1003", "before:1", "2026-09-26T14:00", "t", 1)
    seed = json.loads(SEED_FILE.read_text(encoding="utf-8"))
    next(copy for copy in seed["copies"] if copy["id"] == "E17")["status"] = "missing"
    changed = tmp_path / "seed.json"
    changed.write_text(json.dumps(seed), encoding="utf-8")
    tasks = [ensure_task(library_location, changed) for _ in range(WORKERS // 2)] + [
        reserve_task(library_location, n, copy_id, "P1003", f"during-{n}:1")
        for n, copy_id in enumerate(AVAILABLE[: WORKERS // 2])
    ]
    results = workers.race(tasks)
    assert Counter(r["outcome"] for r in results) == {"ensured": 4, "reserved": 4}, results
    assert fetch(library_location, "SELECT status FROM copies WHERE copy_id = 'E17'") == [
        ("missing",)
    ]
    assert len(reservations(library_location)) == 5
    assert dict(fetch(library_location, "SELECT key, value FROM meta"))["seed"] == (
        seed_fingerprint(changed.read_bytes())
    )
