"""Issue 10's defects, each attacked the way it was found: real CLI processes on real files.

One test per numbered defect (1 concurrent approve and reject, 2 settings lost
before the first step, 3 audit rows dropped, 4 a fork replaying the old
decision, 5 concurrent resumes all running, 6 data safety, 8 escape sequences,
9 `ask --thread-id` of an existing thread), plus the database-path and Ctrl-C
items of issue 11.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from reliability_utils import (
    RESERVE_QUESTION,
    RESERVE_SCRIPT,
    checkpoint_count,
    finish,
    start_cli,
    wait_for,
    write_model,
)

from graph.cli import main
from graph.episodes.audit import untruths
from graph.testing import DEMO_QUESTION, DEMO_REPLIES
from tools.library.db import audit_log, ensure_database, reservations

LOST_RACE = "is being run by another process since"


class Done:
    """The outcome of one in-process CLI call, shaped like `subprocess.CompletedProcess`."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Done]:
    """`react-agent ARGS` in this process (for what needs no second process)."""

    def call(*args: str) -> Done:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return Done(code, captured.out, captured.err)

    return call


def ask_library(
    db: Path, library: Path, model: str, thread_id: str, run: Callable[..., Any] = run_cli
) -> str:
    """Start a library episode that pauses for approval; returns its request id."""
    done = run(
        "ask", "--env", "library", RESERVE_QUESTION, "--model", model, "--db", str(db),
        "--library-db", str(library), "--thread-id", thread_id, "--json",
    )  # fmt: skip
    assert done.returncode == 5, done.stderr
    return str(json.loads(done.stdout)["pending"][0]["value"]["request_id"])


def approval_checkpoint(db: Path, thread_id: str, run: Callable[..., Any] = run_cli) -> str:
    """The checkpoint whose next node is `review` (the approval point)."""
    rows = json.loads(run("history", thread_id, "--db", str(db), "--json").stdout)
    (row,) = [r for r in rows if r["next"] == ["review"] and r["node"] == "reason"]
    return str(row["checkpoint_id"])


@pytest.fixture
def library(tmp_path: Path) -> Path:
    return ensure_database(tmp_path / "library.sqlite3")


@pytest.fixture
def reserve_model(tmp_path: Path) -> str:
    return write_model(tmp_path / "reserve.json", RESERVE_SCRIPT)


@pytest.mark.slow
def test_1_approve_and_reject_at_once_only_one_decision_is_taken(
    db_path: Path, library: Path, reserve_model: str
) -> None:
    request = ask_library(db_path, library, reserve_model, "race")
    approve = start_cli("resume", "race", "--db", str(db_path), "--approve")
    reject = start_cli("resume", "race", "--db", str(db_path), "--reject", "no")
    (code_a, _, err_a), (code_r, _, err_r) = finish(approve), finish(reject)
    rows = audit_log(library, thread_id="race")
    decisions = [row["detail"]["type"] for row in rows if row["event"] == "decision"]
    assert len(decisions) == 1, rows
    winner_code, loser_err = (code_a, err_r) if decisions == ["approve"] else (code_r, err_a)
    assert winner_code in (0, 3)
    assert LOST_RACE in loser_err or f"its last request, {request}, was already answered" in (
        loser_err
    ), loser_err
    assert len(loser_err.strip().splitlines()) == 1 and "Traceback" not in loser_err
    reserved = [r["copy_id"] for r in reservations(library)]
    assert reserved == (["W22"] if decisions == ["approve"] else [])
    assert untruths(rows, reservations(library)) == []


@pytest.mark.slow
def test_2_settings_survive_a_kill_before_the_first_step(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = tmp_path / "mine.sqlite3"
    model = write_model(tmp_path / "slow.json", RESERVE_SCRIPT, delay_s=30)
    episode = start_cli(
        "ask", "--env", "library", RESERVE_QUESTION, "--patron", "P1003", "--library-db",
        str(mine), "--approvals", "deny", "--model", model, "--db", str(db_path),
        "--thread-id", "early",
    )  # fmt: skip
    wait_for(lambda: checkpoint_count(db_path, "early") > 0, what="the input checkpoint")
    episode.send_signal(signal.SIGKILL)
    finish(episode)
    assert checkpoint_count(db_path, "early") <= 2, "killed before the first step ended"
    fast = write_model(tmp_path / "slow.json", RESERVE_SCRIPT)
    assert fast == model
    resumed = run_cli("resume", "early", "--db", str(db_path), "--json")
    assert resumed.returncode in (0, 3, 4), resumed.stderr
    result = json.loads(resumed.stdout)
    reserve = next(s for s in result["trajectory"] if s["action"] == "reserve_copy")
    assert "approvals=deny" in reserve["observation"]
    assert reservations(mine) == []
    default_library = Path(os.environ["XDG_STATE_HOME"]) / "react-evidence-agent"
    assert reservations(default_library / "library.sqlite3") == []
    shown = json.loads(run_cli("show", "early", "--db", str(db_path), "--json").stdout)
    assert shown["steps"] == result["steps"]
    events = audit_log(mine, thread_id="early")
    assert [(r["event"], r["actor"]) for r in events] == [
        ("proposed", "agent"),
        ("decision", "policy:deny"),
    ]
    assert {r["patron_id"] for r in events} == {"P1003"}
    changed = run_cli("resume", "early", "--db", str(db_path), "--patron", "P1001")
    assert changed.returncode == 2 and "--change-settings" in changed.stderr


def test_3_the_audit_log_keeps_every_decision_across_a_fork(
    db_path: Path, library: Path, reserve_model: str, cli: Callable[..., Done]
) -> None:
    first = ask_library(db_path, library, reserve_model, "forked", cli)
    rejected = cli("resume", "forked", "--db", str(db_path), "--reject", "not that one")
    assert rejected.returncode in (3, 4), rejected.stderr
    at = approval_checkpoint(db_path, "forked", cli)
    edited = cli(
        "resume", "forked", "--db", str(db_path), "--from", at, "--edit", '{"copy_id": "N30"}',
        "--json",
    )  # fmt: skip
    assert edited.returncode in (0, 3), edited.stderr
    rows = audit_log(library, thread_id="forked")
    second = {r["request_id"] for r in rows} - {first, ""}
    assert len(second) == 1
    (second_id,) = second
    assert [(r["event"], r["request_id"]) for r in rows] == [
        ("proposed", first),
        ("decision", first),
        ("fork", ""),
        ("proposed", second_id),
        ("decision", second_id),
        ("executed", second_id),
    ]
    assert rows[1]["detail"] == {"type": "reject", "message": "not that one"}
    assert rows[2]["step_index"] == rows[0]["step_index"] == rows[3]["step_index"] > 0
    assert rows[4]["detail"]["edited_action"]["args"] == {"copy_id": "N30"}
    assert rows[5]["detail"]["outcome"] == "reserved" and rows[5]["detail"]["copy_id"] == "N30"
    assert [r["copy_id"] for r in reservations(library)] == ["N30"]
    assert untruths(rows, reservations(library)) == []
    printed = cli("audit", "forked", "--db", str(db_path))
    assert printed.returncode == 0 and printed.stdout.count("\n") == len(rows) + 1


def test_4_a_fork_at_the_approval_point_takes_the_new_decision(
    db_path: Path, library: Path, reserve_model: str, cli: Callable[..., Done]
) -> None:
    ask_library(db_path, library, reserve_model, "refork", cli)
    approved = cli("resume", "refork", "--db", str(db_path), "--approve")
    assert approved.returncode == 0, approved.stderr
    at = approval_checkpoint(db_path, "refork", cli)
    again = cli(
        "resume", "refork", "--db", str(db_path), "--from", at, "--reject", "changed my mind",
        "--json",
    )  # fmt: skip
    result = json.loads(again.stdout)
    step = next(s for s in result["trajectory"] if s["action"] == "reserve_copy")
    assert step["observation"].startswith("A human rejected reserve_copy[W22]: changed my mind.")
    assert "Already done" not in again.stdout
    assert result["status"] != "verified"
    assert len(reservations(library)) == 1
    assert untruths(audit_log(library), reservations(library)) == []
    stale = cli("resume", "refork", "--db", str(db_path), "--from", at, "--request", "R1")
    assert stale.returncode == 2 and "--request cannot name a request with --from" in stale.stderr


@pytest.mark.slow
def test_5_four_resumes_of_a_killed_thread_run_it_once(db_path: Path, tmp_path: Path) -> None:
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=1.0)
    episode = start_cli(
        "ask", DEMO_QUESTION, "--model", model, "--db", str(db_path), "--thread-id", "four"
    )
    wait_for(lambda: checkpoint_count(db_path, "four") >= 5, what="two steps")
    episode.send_signal(signal.SIGKILL)
    finish(episode)
    resumes = [start_cli("resume", "four", "--db", str(db_path), "--json") for _ in range(4)]
    outcomes = [finish(process) for process in resumes]
    winners = [out for code, out, _ in outcomes if code == 0]
    losers = [err for code, _, err in outcomes if code != 0]
    assert len(winners) == 1, outcomes
    assert all(LOST_RACE in err or "already ended (verified)" in err for err in losers), losers
    fast = write_model(tmp_path / "fast.json", DEMO_REPLIES)
    straight = run_cli(
        "ask", DEMO_QUESTION, "--model", fast, "--db", str(tmp_path / "straight.sqlite3"),
        "--thread-id", "four",
    )  # fmt: skip
    assert straight.returncode == 0
    assert checkpoint_count(db_path, "four") == checkpoint_count(
        tmp_path / "straight.sqlite3", "four"
    )
    steps = json.loads(winners[0])["trajectory"]
    assert [s["index"] for s in steps] == [1, 2, 3, 4]


@pytest.mark.slow
def test_6a_a_checkpoint_file_deleted_mid_run_is_not_a_success(
    db_path: Path, tmp_path: Path
) -> None:
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=1.0)
    episode = start_cli("ask", DEMO_QUESTION, "--model", model, "--db", str(db_path))
    wait_for(lambda: _threads_in(db_path) > 0, what="a checkpoint")
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db_path}{suffix}").unlink(missing_ok=True)
    code, _, err = finish(episode)
    assert code == 2, err
    assert "was deleted or replaced while thread" in err and str(db_path) in err
    assert not db_path.exists(), "a vanished file is not silently recreated"


def _threads_in(db: Path) -> int:
    try:
        conn = sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
        try:
            return int(conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0])
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def test_6b_a_truncated_or_damaged_database_is_one_line(
    db_path: Path, tmp_path: Path, cli: Callable[..., Done]
) -> None:
    done = cli(
        "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db_path),
        "--thread-id", "t",
    )  # fmt: skip
    assert done.returncode == 0
    truncated = tmp_path / "truncated.sqlite3"
    truncated.write_bytes(db_path.read_bytes()[:20000])
    damaged = tmp_path / "damaged.sqlite3"
    data = bytearray(db_path.read_bytes())
    data[60000:64000] = b"GARBAGE!" * 500
    damaged.write_bytes(bytes(data))
    for broken in (truncated, damaged):
        for command in (["show", "t"], ["history", "t"], ["resume", "t"], ["threads"]):
            out = cli(*command, "--db", str(broken))
            if out.returncode == 0:
                continue  # this command read no damaged page
            assert out.returncode == 2, out.stderr
            assert str(broken) in out.stderr and "Traceback" not in out.stderr
            assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("flag", "kind", "message"),
    [
        ("--db", "library", "is a library database, not a checkpoint database"),
        ("--db", "index", "is a Wikipedia snapshot index, not a checkpoint database"),
        ("--library-db", "checkpoints", "is a checkpoint database, not a library database"),
        ("--library-db", "index", "is a Wikipedia snapshot index, not a library database"),
    ],
)
def test_6c_a_database_of_the_wrong_kind_is_refused_and_left_unchanged(
    db_path: Path,
    library: Path,
    tmp_path: Path,
    flag: str,
    kind: str,
    message: str,
    cli: Callable[..., Done],
) -> None:
    from tools.wikipedia.snapshot import shared_snapshot

    cli("ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db_path))
    files = {
        "library": library,
        "index": shared_snapshot().index_file,
        "checkpoints": db_path,
    }
    target = files[kind]
    with closing(sqlite3.connect(target)) as conn:  # the WAL folded in now, not by a late close
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    before = target.read_bytes()
    args = ["ask", "--env", "library", RESERVE_QUESTION, "--model", "graph.testing:demo_model"]
    other_db = ["--db", str(tmp_path / "other.sqlite3")] if flag == "--library-db" else []
    done = cli(*args, flag, str(target), *other_db)
    assert done.returncode == 2 and message in done.stderr and str(target) in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert target.read_bytes() == before


def test_6d_an_unwritable_cache_directory_stops_before_the_thread_exists(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    not_a_directory = tmp_path / "cache-is-a-file"
    not_a_directory.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(not_a_directory / "sub"))
    done = run_cli(
        "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db_path)
    )
    assert done.returncode == 2, done.stderr
    assert "Wikipedia snapshot index" in done.stderr and str(not_a_directory) in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not db_path.exists() or _threads_in(db_path) == 0


HOSTILE = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\r\u202eevil\x9b31m"


def test_8_escape_sequences_from_models_and_people_never_reach_the_terminal(
    db_path: Path, library: Path, tmp_path: Path, cli: Callable[..., Done]
) -> None:
    script = [reply.replace("Thought: check", f"Thought: {HOSTILE}") for reply in RESERVE_SCRIPT]
    model = write_model(tmp_path / "hostile.json", script)
    ask = cli(
        "ask", "--env", "library", RESERVE_QUESTION + HOSTILE, "--model", model, "--db",
        str(db_path), "--library-db", str(library), "--thread-id", "hostile",
    )  # fmt: skip
    rejected = cli("resume", "hostile", "--db", str(db_path), "--reject", HOSTILE)
    outputs = [ask.stdout, rejected.stdout]
    for command in (["show"], ["history"], ["audit"], ["show", "--json"], ["audit", "--json"]):
        shown = cli(command[0], "hostile", "--db", str(db_path), *command[1:])
        assert shown.returncode == 0, shown.stderr
        outputs.append(shown.stdout)
    outputs.append(cli("threads", "--db", str(db_path)).stdout)
    for text in outputs:
        assert not any(char in text for char in "\x1b\x07\r\u202e\x9b"), repr(text[:200])
    assert "\\x1b[31mred" in rejected.stdout + outputs[2]
    assert "\\u202eevil" in outputs[2]


def test_9_ask_with_the_id_of_an_existing_thread_is_refused(
    db_path: Path, cli: Callable[..., Done]
) -> None:
    args = ["--model", "graph.testing:demo_model", "--db", str(db_path), "--thread-id", "old"]
    assert cli("ask", DEMO_QUESTION, *args).returncode == 0
    again = cli("ask", "A different question?", *args)
    assert again.returncode == 2
    assert "thread old already exists" in again.stderr and "react-agent resume old" in again.stderr
    shown = json.loads(cli("show", "old", "--db", str(db_path), "--json").stdout)
    assert shown["question"] == DEMO_QUESTION and shown["steps"] == 4


def test_a_url_db_other_than_postgresql_or_unreachable_is_one_line_and_creates_nothing(
    tmp_path: Path, cli: Callable[..., Done]
) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    unreachable = f"postgresql://user:secret@127.0.0.1:{closed_port}/episodes"
    for command in (["ask", "Who?", "--model", "graph.testing:demo_model"], ["threads"]):
        done = cli(*command, "--db", "mysql://user@localhost:3306/episodes")
        assert done.returncode == 2 and "postgresql://user@host:port/db" in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
        done = cli(*command, "--db", unreachable)
        assert done.returncode == 2 and "cannot open the checkpoint database" in done.stderr
        assert "secret" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not Path("postgresql:").exists() and not Path("mysql:").exists()


def test_read_only_commands_never_create_a_file_and_name_the_database(
    db_path: Path, tmp_path: Path, cli: Callable[..., Done]
) -> None:
    missing = tmp_path / "typo.sqlite3"
    for command in (["threads"], ["show", "x"], ["history", "x"], ["audit", "x"]):
        done = cli(*command, "--db", str(missing))
        assert done.returncode == 2 and f"no checkpoint database at {missing}" in done.stderr
    assert not missing.exists()
    cli("ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db_path))
    for command in (["show", "nope"], ["history", "nope"], ["resume", "nope"]):
        done = cli(*command, "--db", str(db_path))
        assert done.returncode == 2 and str(db_path) in done.stderr, done.stderr


@pytest.mark.slow
def test_ctrl_c_marks_the_thread_interrupted_and_says_how_to_resume(
    db_path: Path, tmp_path: Path
) -> None:
    # 3 s a turn: the episode outlasts the poll below by 9 s, even on a loaded machine
    model = write_model(tmp_path / "slow.json", DEMO_REPLIES, delay_s=3.0)
    episode = start_cli(
        "ask", DEMO_QUESTION, "--model", model, "--db", str(db_path), "--thread-id", "int"
    )
    wait_for(lambda: checkpoint_count(db_path, "int") >= 3, what="the first step")
    episode.send_signal(signal.SIGINT)
    code, _, err = finish(episode)
    assert code == 130
    assert f"react-agent resume int --db {db_path}" in err and "Traceback" not in err
    listed = json.loads(run_cli("threads", "--db", str(db_path), "--json").stdout)
    assert [(row["thread_id"], row["status"]) for row in listed] == [("int", "interrupted")]
    fast = write_model(tmp_path / "slow.json", DEMO_REPLIES)
    assert fast == model
    resumed = run_cli("resume", "int", "--db", str(db_path), "--json")
    assert resumed.returncode == 0 and json.loads(resumed.stdout)["steps"] == 4
    listed = json.loads(run_cli("threads", "--db", str(db_path), "--json").stdout)
    assert listed[0]["status"] == "verified"


def test_a_settings_change_must_be_asked_for_and_is_recorded(
    db_path: Path, library: Path, reserve_model: str, cli: Callable[..., Done]
) -> None:
    request = ask_library(db_path, library, reserve_model, "change", cli)
    refused = cli("resume", "change", "--db", str(db_path), "--approvals", "auto")
    assert refused.returncode == 2 and "approvals='ask'" in refused.stderr
    changed = cli(
        "resume", "change", "--db", str(db_path), "--patron", "P1003", "--change-settings",
        "--request", request, "--approve", "--json",
    )  # fmt: skip
    assert changed.returncode in (0, 3, 4), changed.stderr
    rows = audit_log(library, thread_id="change")
    (change,) = [r for r in rows if r["event"] == "settings_changed"]
    assert change["detail"]["changes"] == {"patron": {"from": "P1001", "to": "P1003"}}
    assert set(change["detail"]) == {"changes", "event_id"}
    assert change["actor"].startswith("cli:")
    (proposed,) = [r for r in rows if r["event"] == "proposed"]
    assert change["step_index"] == proposed["step_index"] > 0
    shown = json.loads(cli("show", "change", "--db", str(db_path), "--json").stdout)
    assert [(r["copy_id"], r["patron_id"]) for r in reservations(library)] == [("W22", "P1003")]
    assert shown["trajectory"][2]["request_id"] == request
    late = cli("resume", "change", "--db", str(db_path), "--request", request, "--reject", "x")
    assert late.returncode == 2 and f"request {request} of thread change was already" in (
        late.stderr
    )
