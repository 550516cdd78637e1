"""What a newcomer's first commands rely on: --version, .env, library reset, stdin, logs."""

from __future__ import annotations

import os
from importlib import metadata
from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.episodes.runner import open_checkpointer
from graph.testing import DEMO_QUESTION
from tools.library.backend import LibraryBackend
from tools.library.db import reservations

DEMO = ("--model", "graph.testing:demo_model")


def test_version_names_the_installed_package() -> None:
    done = run_cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"react-agent {metadata.version('react-evidence-agent')}"


def test_dotenv_in_the_working_directory_is_read_and_the_shell_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / ".env").write_text("REACT_AGENT_MODEL=graph.testing:demo_model\n")
    db = str(tmp_path / "episodes.sqlite3")
    monkeypatch.delenv("REACT_AGENT_MODEL", raising=False)
    done = run_cli("ask", DEMO_QUESTION, "--db", db, cwd=tmp_path)
    assert done.returncode == 0 and "Answer (verified): 1970" in done.stdout
    monkeypatch.setenv("REACT_AGENT_MODEL", "nonsense")
    refused = run_cli("ask", DEMO_QUESTION, "--db", db, cwd=tmp_path)
    assert refused.returncode == 2 and "Cannot read the model 'nonsense'" in refused.stderr


def test_a_long_question_can_come_from_standard_input(tmp_path: Path) -> None:
    db = str(tmp_path / "episodes.sqlite3")
    done = run_cli("ask", "-", *DEMO, "--db", db, stdin=DEMO_QUESTION + "\n")
    assert done.returncode == 0 and "Answer (verified): 1970" in done.stdout


def test_library_reset_drops_holds_and_refuses_other_files(tmp_path: Path) -> None:
    library = tmp_path / "library.sqlite3"
    LibraryBackend(library).reserve("W22", "P1001", "key-1", "2026-09-26T14:00", "t", 1)
    assert len(reservations(library)) == 1
    done = run_cli("library", "reset", "--library-db", str(library))
    assert done.returncode == 0 and str(library) in done.stdout
    assert reservations(library) == []
    checkpoints = tmp_path / "episodes.sqlite3"
    open_checkpointer(checkpoints).conn.close()
    size = checkpoints.stat().st_size
    refused = run_cli("library", "reset", "--library-db", str(checkpoints))
    assert refused.returncode == 2 and "is a checkpoint database" in refused.stderr
    assert checkpoints.stat().st_size == size


def test_the_default_library_database_is_reset_under_the_state_directory() -> None:
    done = run_cli("library", "reset")
    state = Path(os.environ["XDG_STATE_HOME"])
    assert done.returncode == 0
    assert str(state / "react-evidence-agent" / "library.sqlite3") in done.stdout


def test_a_crash_log_goes_under_the_user_log_directory(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text("def factory():\n    raise KeyError('boom')\n")
    done = run_cli("ask", "Who?", "--model", "./boom.py:factory", cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    log = Path(done.stderr.split("the traceback is in ", 1)[1].split(" (", 1)[0])
    assert log.parent == Path(os.environ["XDG_STATE_HOME"]) / "react-evidence-agent" / "log"
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text and "KeyError: 'boom'" in text and "command: react-agent ask" in text
