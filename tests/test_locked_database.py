"""A checkpoint database another process keeps locked for longer than the wait for it
is one line naming it (exit 2), not an 'unexpected error' with a crash log."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from graph.cli import main
from graph.testing import DEMO_QUESTION

pytestmark = pytest.mark.slow


def test_a_database_locked_by_another_writer_is_one_line(
    db_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    asked = ["ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db_path)]
    assert main([*asked, "--thread-id", "t", "--max-model-turns", "2"]) == 4
    capsys.readouterr()
    monkeypatch.setattr("graph.store.tables.BUSY_TIMEOUT_S", 0.2)
    writer = sqlite3.connect(db_path, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        code = main(["resume", "t", "--db", str(db_path), "--change-settings",
                     "--max-model-turns", "3"])  # fmt: skip
    finally:
        writer.rollback()
        writer.close()
    err = capsys.readouterr().err
    assert (code, err.count("\n")) == (2, 1), err
    assert err.startswith(f"react-agent: the database {db_path} is locked by another process")
    assert "crash" not in err
