"""An approved write runs once: its outcome, a hold or a refusal, is replayed on resume.

Attacked with real processes on real files: a `resume --approve` is SIGKILLed
after the library answered the write (its `executed` row committed) and before
the step's checkpoint was saved; the copy then changes, and the thread is
resumed. A `sitecustomize` on the killed process's path holds it inside the
write, after the transaction, for as long as the test needs.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from reliability_utils import (
    RESERVE_QUESTION,
    RESERVE_SCRIPT,
    finish,
    start_cli,
    wait_for,
    write_model,
)

from graph.episodes.audit import untruths
from tools.library.db import audit_log, ensure_database, reservations, set_copy_status

pytestmark = pytest.mark.slow

HOLD_AFTER_WRITE = """\
import os
import time

from tools.library.backend import LibraryBackend

_reserve = LibraryBackend.reserve


def _held(self, *args, **kwargs):
    result = _reserve(self, *args, **kwargs)
    time.sleep(float(os.environ["HOLD_AFTER_WRITE_S"]))
    return result


LibraryBackend.reserve = _held
"""


def executed(library: Path, thread_id: str) -> list[dict[str, Any]]:
    return [row for row in audit_log(library, thread_id=thread_id) if row["event"] == "executed"]


def test_a_refused_write_killed_before_its_checkpoint_is_not_run_again(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    library = ensure_database(tmp_path / "library.sqlite3")
    set_copy_status(library, "W22", "checked_out", "2026-09-26T09:00", due="2026-10-01")
    model = write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)
    asked = run_cli(
        "ask", "--env", "library", RESERVE_QUESTION, "--model", model, "--db", str(db_path),
        "--library-db", str(library), "--thread-id", "t", "--json",
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    request = json.loads(asked.stdout)["pending"][0]["value"]["request_id"]
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(HOLD_AFTER_WRITE, encoding="utf-8")
    with monkeypatch.context() as held:
        held.setenv("PYTHONPATH", str(site))
        held.setenv("HOLD_AFTER_WRITE_S", "60")
        approving = start_cli("resume", "t", "--db", str(db_path), "--approve")
    wait_for(lambda: bool(executed(library, "t")), what="the write's executed row")
    approving.send_signal(signal.SIGKILL)
    finish(approving)
    (refused,) = executed(library, "t")
    assert refused["detail"]["outcome"] == "refused"
    set_copy_status(library, "W22", "available", "2026-09-26T13:30")
    resumed = run_cli("resume", "t", "--db", str(db_path), "--json")
    assert resumed.returncode in (3, 4), resumed.stderr
    assert reservations(library) == []
    assert executed(library, "t") == [refused]
    step = next(
        s for s in json.loads(resumed.stdout)["trajectory"] if s["action"] == "reserve_copy"
    )
    assert step["request_id"] == request
    assert step["observation"].startswith("Not reserved: this request already ran and was refused")
    assert "copy W22 is checked out, not available" in step["observation"]
    assert untruths(audit_log(library, thread_id="t"), reservations(library)) == []


def test_the_consistency_check_finds_a_request_that_ran_twice() -> None:
    rows = [
        {"audit_id": 1, "event": "decision", "request_id": "R1", "detail": {"type": "approve"}},
        {
            "audit_id": 2,
            "event": "executed",
            "request_id": "R1",
            "idempotency_key": "t:R1",
            "detail": {"outcome": "refused", "copy_id": "W22", "reservation_id": None},
        },
        {
            "audit_id": 3,
            "event": "executed",
            "request_id": "R1",
            "idempotency_key": "t:R1",
            "detail": {"outcome": "reserved", "copy_id": "W22", "reservation_id": 1},
        },
    ]
    problems = untruths(rows, [{"reservation_id": 1}])
    assert problems == ["request R1 ran 2 times (executed rows 2, 3)"]
