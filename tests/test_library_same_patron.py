"""Two threads of one patron competing for one copy: the second's hold is refused because
the first holds the copy for that very patron, and its answer says so (issue 30)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reliability_utils import in_process

from tools.library.db import ensure_database

pytestmark = pytest.mark.slow

QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."


def test_the_loser_is_told_the_copy_is_already_on_hold_for_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli = in_process(capsys)
    db, library = tmp_path / "episodes.sqlite3", ensure_database(tmp_path / "library.sqlite3")
    where = ["--db", str(db), "--library-db", str(library), "--json"]
    model = ["--model", "graph.testing:library_demo_model"]
    for thread in ("first", "second"):
        code, out, err = cli(
            "ask", "--env", "library", QUESTION, *model, *where, "--thread-id", thread
        )
        assert code == 5, err
    code, out, err = cli("resume", "first", "--approve", *where)
    assert code == 0, err
    first = json.loads(out)
    code, out, err = cli("resume", "second", "--approve", *where)
    second = json.loads(out)
    assert "No paper copy" not in second["answer"]
    assert "Another of your requests already holds it for you" in second["answer"]
    assert "is on hold for you at" in second["answer"], second["answer"]
    assert code == 0 and second["status"] == "verified", (second["status"], second["stop_reason"])
    [refusal] = [
        step["observation"]
        for step in second["trajectory"]
        if step["action_text"].startswith("reserve_copy")
    ]
    assert "is already on hold for you (reservation #" in refusal
    assert "by another of your requests" in refusal, refusal
    held = [step for step in first["trajectory"] if step["action_text"].startswith("reserve_copy")]
    assert held and held[0]["action_text"] in {step["action_text"] for step in second["trajectory"]}
