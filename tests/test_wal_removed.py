"""A checkpoint file's write-ahead log deleted while a command runs.

SQLite keeps the latest commits only in the `-wal` file beside the database, so
deleting it under a running command loses them and can leave the file damaged
(measured: the thread sometimes resumes to its answer, sometimes is gone, and
once the file read as malformed). The command must stop in one line that names
the likely cause without promising the file is sound, and every later command
must say in one line what it finds, never with a traceback.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_utils import run_cli
from reliability_utils import finish, start_cli, wait_for, write_model

from graph.testing import DEMO_QUESTION, DEMO_REPLIES

pytestmark = pytest.mark.slow


def test_a_wal_deleted_mid_run_is_named_and_later_commands_say_what_they_find(
    tmp_path: Path,
) -> None:
    db = tmp_path / "episodes.sqlite3"
    wal = Path(f"{db}-wal")
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=1.0)
    episode = start_cli("ask", DEMO_QUESTION, "--model", model, "--db", str(db))
    wait_for(lambda: wal.exists() and wal.stat().st_size > 0, what="a write-ahead log")
    wal.unlink()
    code, _, err = finish(episode)
    assert code == 2, err
    assert "write-ahead log" in err and "is lost" in err and "Traceback" not in err, err
    assert err.count("\n") == 1, err
    listed = run_cli("threads", "--db", str(db), "--json")
    assert listed.returncode in (0, 2) and "Traceback" not in listed.stderr, listed.stderr
    if listed.returncode == 2:
        assert listed.stderr.count("\n") == 1, listed.stderr
