"""A checkpoint file's write-ahead log deleted while a command runs.

Before, the command stopped with `the database … is damaged (disk I/O error);
restore it from a copy or start a new one`, though the file was sound and the
thread resumed from it: the advice would have thrown good checkpoints away.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_utils import run_cli
from reliability_utils import finish, start_cli, wait_for, write_model

from graph.testing import DEMO_QUESTION, DEMO_REPLIES


def test_a_wal_deleted_mid_run_is_named_and_the_thread_resumes(tmp_path: Path) -> None:
    db = tmp_path / "episodes.sqlite3"
    wal = Path(f"{db}-wal")
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=1.0)
    episode = start_cli("ask", DEMO_QUESTION, "--model", model, "--db", str(db))
    wait_for(lambda: wal.exists() and wal.stat().st_size > 0, what="a write-ahead log")
    wal.unlink()
    code, _, err = finish(episode)
    assert code == 2, err
    assert "write-ahead log" in err and "damaged" not in err, err
    listed = run_cli("threads", "--db", str(db), "--json")
    (thread,) = json.loads(listed.stdout)
    resumed = run_cli("resume", thread["thread_id"], "--db", str(db), "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["status"] == "verified"
