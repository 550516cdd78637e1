"""A disk that fills up mid-episode: one line naming the database and what to free, exit 2,
the command that resumes the thread, and nothing lost (issue 30)."""

from __future__ import annotations

import errno
import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from reliability_utils import checkpoint_count, finish, in_process, start_cli, wait_for, write_model

from graph.store.savers import CompactSqliteSaver
from graph.testing import DEMO_QUESTION, DEMO_REPLIES

pytestmark = pytest.mark.slow


def fill_up_after(puts: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """After `puts` checkpoints, the saver's connection may not grow the file any more:
    SQLite then answers every write that needs a new page with SQLITE_FULL ("database or
    disk is full"), as on a full disk."""
    real_put = CompactSqliteSaver.put
    calls = [0]

    def put(self: CompactSqliteSaver, *args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        if calls[0] == puts:
            (pages,) = self.conn.execute("PRAGMA page_count").fetchone()
            self.conn.execute(f"PRAGMA max_page_count = {int(pages)}")
        return real_put(self, *args, **kwargs)

    monkeypatch.setattr(CompactSqliteSaver, "put", put)


def test_a_full_disk_is_one_line_and_the_thread_resumes_once_space_is_free(
    db_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    fill_up_after(4, monkeypatch)
    cli = in_process(capsys)
    code, _, err = cli(
        "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db_path),
        "--thread-id", "t",
    )  # fmt: skip
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 2, err
    assert lines[0].startswith(
        f"react-agent: the disk holding the checkpoint database {db_path.resolve()} is full ("
    ), err
    assert "free space on /" in lines[0] and lines[0].endswith("nothing stored before was lost")
    assert lines[1].startswith("Resume with: react-agent resume t --db "), err
    stored = checkpoint_count(db_path, "t")
    assert stored >= 3
    monkeypatch.undo()
    resumed = run_cli("resume", "t", "--db", str(db_path), "--json")
    assert resumed.returncode == 0, resumed.stderr
    result = json.loads(resumed.stdout)
    assert (result["status"], result["answer"]) == ("verified", "1970")
    assert [step["index"] for step in result["trajectory"]] == [1, 2, 3, 4]
    assert checkpoint_count(db_path, "t") > stored


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs mounted under `tmp_path` (skipped where this process may not mount)."""
    mount = tmp_path / "small"
    mount.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> None:
    """Write a file on `disk` until the filesystem has no space left."""
    with open(disk / "filler", "wb", buffering=0) as filler:
        try:
            while True:
                filler.write(b"\0" * 4096)
        except OSError as error:
            assert error.errno == errno.ENOSPC, error


def test_a_real_full_filesystem_stops_the_episode_and_resume_finishes_it(
    small_disk: Path, tmp_path: Path
) -> None:
    db = small_disk / "episodes.sqlite3"
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=0.5)
    episode = start_cli("ask", DEMO_QUESTION, "--model", model, "--db", str(db), "--thread-id", "t")
    wait_for(lambda: checkpoint_count(db, "t") >= 3, what="the first steps")
    fill(small_disk)
    code, _, err = finish(episode)
    lines = err.strip().splitlines()
    assert code == 2, err
    assert len(lines) == 2 and "is full (" in lines[0] and f"free space on {small_disk}" in lines[0]
    assert lines[1].startswith("Resume with: react-agent resume t --db "), err
    stored = checkpoint_count(db, "t")
    (small_disk / "filler").unlink()
    resumed = run_cli("resume", "t", "--db", str(db), "--json")
    assert resumed.returncode == 0, resumed.stderr
    result = json.loads(resumed.stdout)
    assert (result["status"], result["answer"]) == ("verified", "1970")
    assert [step["index"] for step in result["trajectory"]] == [1, 2, 3, 4]
    assert checkpoint_count(db, "t") > stored >= 3
