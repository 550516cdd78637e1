"""The library's audit log: append-only, own ids, the executed row in the reservation's
transaction (on SQLite and PostgreSQL: every test taking `db` runs on both), the old SQLite
layout migrated, and database files of another kind refused."""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, text

from graph.store.savers import open_sqlite_saver
from tools.dbfiles import LIBRARY, DatabaseFileError
from tools.library import audit, holds
from tools.library.audit import AuditEntry
from tools.library.backend import LibraryBackend
from tools.library.db import (
    SEED_FILE,
    audit_log,
    ensure_database,
    reservations,
    reset_database,
)
from tools.wikipedia.snapshot import SnapshotSource

CLOCK = "2026-09-26T14:03:00"
REJECT = {"type": "reject", "message": "not that one"}
APPROVE = {"type": "approve"}


class DiskFailed(Exception):
    """A failure injected after a reservation's two inserts, before its commit."""


@pytest.fixture
def db(library_location: str) -> str:
    return library_location


@pytest.fixture
def backend(db: str) -> LibraryBackend:
    return LibraryBackend(db)


def record(
    backend: LibraryBackend,
    event: str,
    detail: dict[str, Any],
    *,
    request_id: str = "req-1",
    actor: str = "cli:ana@desk",
    key: str = "",
    thread_id: str = "thread-1",
) -> int | None:
    return backend.record_event(
        event,
        thread_id=thread_id,
        request_id=request_id,
        step_index=3,
        actor=actor,
        patron="P1001",
        clock=CLOCK,
        detail=detail,
        idempotency_key=key,
    )


def summary(rows: list[dict[str, Any]]) -> list[tuple[str, str, Any]]:
    return [(row["event"], row["request_id"], row["detail"]) for row in rows]


def test_every_different_event_is_appended_and_only_an_exact_replay_is_skipped(
    db: str, backend: LibraryBackend
) -> None:
    proposed = record(backend, "proposed", {"action": "reserve_copy", "args": {"copy_id": "W22"}})
    rejected = record(backend, "decision", REJECT)
    approved = record(backend, "decision", APPROVE, actor="api")
    assert proposed is not None and rejected is not None and approved is not None
    assert proposed < rejected < approved
    assert record(backend, "decision", dict(reversed(list(REJECT.items())))) is None
    assert record(backend, "decision", REJECT, request_id="req-2") is not None
    assert record(backend, "decision", REJECT, key="thread-1:3") is not None
    rows = audit_log(db)
    assert summary(rows) == [
        ("proposed", "req-1", {"action": "reserve_copy", "args": {"copy_id": "W22"}}),
        ("decision", "req-1", REJECT),
        ("decision", "req-1", APPROVE),
        ("decision", "req-2", REJECT),
        ("decision", "req-1", REJECT),
    ]
    assert [row["audit_id"] for row in rows[:3]] == [proposed, rejected, approved]
    assert rows[2]["actor"] == "api" and rows[1]["actor"] == "cli:ana@desk"
    assert rows[4]["idempotency_key"] == "thread-1:3" and rows[0]["idempotency_key"] == ""
    assert rows[0]["recorded_at"].endswith("+00:00") and len(rows[0]["recorded_at"]) == 29
    assert backend.audit_events("thread-1") == rows and backend.audit_events("other") == []
    assert audit_log(db, "thread-1") == rows and audit_log(db, "other") == []


def test_rows_are_read_by_request_across_threads(db: str, backend: LibraryBackend) -> None:
    """A copy's inherited requests are found on whichever thread decided them."""
    record(backend, "decision", APPROVE, request_id="req-1", thread_id="original")
    record(backend, "decision", REJECT, request_id="req-2", thread_id="copy")
    record(backend, "decision", REJECT, request_id="req-3", thread_id="original")
    wanted = {"req-1", "req-2"}
    for rows in (audit_log(db, request_ids=wanted), backend.audit_events(request_ids=wanted)):
        assert [(r["thread_id"], r["request_id"]) for r in rows] == [
            ("original", "req-1"),
            ("copy", "req-2"),
        ]
    assert audit_log(db, "copy", request_ids=wanted) == audit_log(db, "copy")
    assert backend.audit_events(request_ids=[]) == []


def test_an_unknown_event_is_a_bug(backend: LibraryBackend) -> None:
    with pytest.raises(ValueError, match="audit event must be one of"):
        record(backend, "proposal", {})


def test_the_executed_row_says_what_the_reservation_did(db: str, backend: LibraryBackend) -> None:
    def reserve(copy_id: str, key: str) -> str:
        result = backend.reserve(
            copy_id, "P1001", key, CLOCK, "thread-1", 4, request_id=f"req-{key}", actor="api"
        )
        return result.outcome

    assert reserve("w22", "k1") == "reserved"
    assert reserve("W22", "k1") == "existing"
    assert reserve("E17", "k2") == "refused"
    assert reserve("E17", "k2") == "refused"
    rows = audit_log(db)
    assert [(r["event"], r["request_id"], r["idempotency_key"], r["actor"]) for r in rows] == [
        ("executed", "req-k1", "k1", "api"),
        ("executed", "req-k2", "k2", "api"),
    ]
    assert rows[0]["detail"] == {
        "outcome": "reserved",
        "copy_id": "W22",
        "reservation_id": reservations(db)[0]["reservation_id"],
    }
    assert rows[1]["detail"] == {
        "outcome": "refused",
        "copy_id": "E17",
        "reservation_id": None,
        "reason": "copy E17 is checked out, not available",
    }
    assert (rows[0]["step_index"], rows[0]["patron_id"], rows[0]["clock"]) == (4, "P1001", CLOCK)


def test_the_reservation_and_its_executed_row_commit_or_roll_back_together(
    db: str, backend: LibraryBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    def append_then_fail(conn: Connection, entry: AuditEntry) -> int | None:
        written = audit.append(conn, entry)
        assert written is not None
        seen = conn.execute(text("SELECT count(*) FROM reservations")).scalar()
        raise DiskFailed(f"disk failed after both inserts ({seen} reservation, audit {written})")

    monkeypatch.setattr(holds, "append", append_then_fail)
    with pytest.raises(DiskFailed, match=r"after both inserts \(1 reservation, audit 1\)"):
        backend.reserve("W22", "P1001", "k1", CLOCK, "thread-1", 4)
    assert reservations(db) == [] and audit_log(db) == []
    status = backend.copy_status("W22", "P1001")
    assert status is not None and status.status == "available"
    monkeypatch.undo()
    assert backend.reserve("W22", "P1001", "k1", CLOCK, "thread-1", 4).outcome == "reserved"
    assert len(reservations(db)) == 1 and [r["event"] for r in audit_log(db)] == ["executed"]


OLD_AUDIT_LOG = """CREATE TABLE audit_log (
    audit_id INTEGER PRIMARY KEY, idempotency_key TEXT NOT NULL, event TEXT NOT NULL,
    thread_id TEXT NOT NULL, step_index INTEGER NOT NULL, patron_id TEXT NOT NULL,
    clock TEXT NOT NULL, recorded_at TEXT NOT NULL, detail TEXT NOT NULL,
    UNIQUE (idempotency_key, event))"""
OLD_ROWS = [
    (1, "t:3", "proposed", "t", 3, "P1001", CLOCK, "2026-01-01T00:00:00.000+00:00",
     '{"action": "reserve_copy", "args": {"copy_id": "W22"}}'),
    (2, "t:3", "decision", "t", 3, "P1001", CLOCK, "2026-01-01T00:00:01.000+00:00",
     '{"type": "approve"}'),
    (5, "t:3", "executed", "t", 3, "P1001", CLOCK, "2026-01-01T00:00:02.000+00:00",
     '{"action": "reserve_copy", "observation": "Reserved: copy W22"}'),
]  # fmt: skip


def make_old_database(db: Path) -> None:
    """A library database as the first schema wrote it: old audit layout, no file kind."""
    ensure_database(db)
    seed_hash = hashlib.sha256(SEED_FILE.read_bytes()).hexdigest()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE audit_log")
        conn.execute(OLD_AUDIT_LOG)
        conn.executemany("INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", OLD_ROWS)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'seed'", (f"1:{seed_hash}",))
        conn.execute("PRAGMA application_id = 0")


def test_an_old_audit_log_is_migrated_in_place_keeping_its_rows(tmp_path: Path) -> None:
    db = tmp_path / "library.sqlite3"
    make_old_database(db)
    before = audit_log(db)
    assert [(r["audit_id"], r["request_id"], r["actor"]) for r in before] == [
        (1, "", ""),
        (2, "", ""),
        (5, "", ""),
    ]
    with sqlite3.connect(db) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(audit_log)")}
    assert "replay_key" not in columns, "reading must not migrate"
    backend = LibraryBackend(db)
    assert audit_log(db) == before
    with sqlite3.connect(db) as conn:
        (app_id,) = conn.execute("PRAGMA application_id").fetchone()
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    assert app_id == LIBRARY.app_id and "audit_log_v1" not in tables
    approve, reject = {"type": "approve"}, {"type": "reject", "message": "changed my mind"}
    assert record(backend, "decision", approve, request_id="", key="t:3", thread_id="t") is None
    second = record(backend, "decision", reject, request_id="", key="t:3", thread_id="t")
    assert second == 6
    assert [r["audit_id"] for r in audit_log(db)] == [1, 2, 5, 6]


def checkpoint_database(path: Path) -> None:
    open_sqlite_saver(path).conn.close()


def snapshot_index(path: Path) -> None:
    data = path.with_name("snapshot.jsonl.gz")
    with gzip.open(data, "wt", encoding="utf-8") as handle:
        handle.write(json.dumps({"title": "Alpha", "sentences": ["Alpha is a letter."]}) + "\n")
    SnapshotSource(data, path)


def text_file(path: Path) -> None:
    path.write_text("reservations, audit_log\n", encoding="utf-8")


def truncated_library(path: Path) -> None:
    ensure_database(path)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (checkpoint_database, "is a checkpoint database, not a library database"),
        (snapshot_index, "is a Wikipedia snapshot index, not a library database"),
        (text_file, "is not an SQLite database (expected a library database)"),
        (truncated_library, "cannot be read as a library database"),
    ],
)
@pytest.mark.parametrize(
    "use",
    [
        LibraryBackend,
        ensure_database,
        reset_database,
        audit_log,
        reservations,
    ],
)
def test_a_file_of_another_kind_is_refused_in_one_line_and_left_alone(
    tmp_path: Path, make: Callable[[Path], None], message: str, use: Callable[[Path], Any]
) -> None:
    path = tmp_path / "given.sqlite3"
    make(path)
    before = {item.name: item.read_bytes() for item in tmp_path.iterdir()}
    with pytest.raises(DatabaseFileError) as raised:
        use(path)
    text = str(raised.value)
    assert text.startswith(f"{path} {message}") and "\n" not in text
    after = {item.name: item.read_bytes() for item in tmp_path.iterdir()}
    assert after[path.name] == before[path.name]
    assert all(after[name] == b"" for name in after.keys() - before.keys() if name.endswith("-wal"))
