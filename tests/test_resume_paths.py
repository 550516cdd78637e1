"""Settings that name files keep naming the same files when a thread is resumed from
another working directory: `ask` stores them as absolute paths."""

from __future__ import annotations

from pathlib import Path

from cli_utils import run_cli

from tools.library.db import reservations

QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
FINISH = (
    "Finish[Copy E60 of 《红楼梦》 is on hold for you: collect it at the East Library (东馆) "
    "circulation desk.]"
)
SCRIPT = (
    "Thought: Check the copy.\nAction: get_copy_status[E60]\n---\n"
    "Thought: Hold it.\nAction: reserve_copy[E60]\n---\n"
    f"Thought: Done.\nAction: {FINISH}\n"
)
OTHER_SCRIPT = "Thought: Other.\nAction: Finish[W60 is available.]\n"


def test_a_resume_from_another_directory_uses_the_files_the_thread_started_with(
    tmp_path: Path,
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "replies.txt").write_text(SCRIPT, encoding="utf-8")
    (second / "replies.txt").write_text(OTHER_SCRIPT, encoding="utf-8")
    db = tmp_path / "episodes.sqlite3"
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", "scripted:replies.txt",
        "--library-db", "lib.sqlite3", "--db", str(db), "--thread-id", "moved", cwd=first,
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    same = run_cli(
        "resume", "moved", "--db", str(db), "--library-db", "lib.sqlite3", cwd=first
    )  # the same relative flag from the same directory is no change
    assert "--change-settings" not in same.stderr
    approved = run_cli("resume", "moved", "--db", str(db), "--approve", cwd=second)
    assert approved.returncode == 0, approved.stdout + approved.stderr
    assert "Answer (verified): Copy E60" in approved.stdout
    assert [row["copy_id"] for row in reservations(first / "lib.sqlite3")] == ["E60"]
    assert not (second / "lib.sqlite3").exists()
