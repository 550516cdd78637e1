"""The approval policy file: who may decide, which decisions an action takes, per-action
ask/auto/deny and requests that expire; every refusal one line, exit 2, nothing run."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.settings.policy import PolicyError, Rule, load_policy, parse_duration, person
from tools.library.db import audit_log, reservations

MODEL = "graph.testing:library_demo_model"
QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
WRITES = ["reserve_copy"]
LIBRARIAN = '[actions.reserve_copy]\napprovers = ["librarian"]\n'


def _policy(tmp_path: Path, text: str, name: str = "policy.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _ask(tmp_path: Path, *flags: str) -> tuple[str, str, int]:
    """Start the reservation episode: its thread id, request id ('' for none) and exit."""
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", MODEL, "--db",
        str(tmp_path / "episodes.sqlite3"), "--library-db", str(tmp_path / "library.sqlite3"),
        *flags,
    )  # fmt: skip
    thread_id = re.search(r"Thread: (\S+)", asked.stdout)
    request_id = re.search(r"request (R\w+)", asked.stdout)
    assert thread_id, asked.stdout + asked.stderr
    return thread_id[1], request_id[1] if request_id else "", asked.returncode


def _resume(tmp_path: Path, thread_id: str, *flags: str) -> tuple[int, str, str]:
    done = run_cli("resume", thread_id, "--db", str(tmp_path / "episodes.sqlite3"), *flags)
    return done.returncode, done.stdout, done.stderr


def _events(tmp_path: Path, thread_id: str) -> list[tuple[str, str, str]]:
    rows = audit_log(tmp_path / "library.sqlite3", thread_id)
    return [(row["event"], row["request_id"], row["actor"]) for row in rows]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("[actions.reserve_copy]\npolicy = ask\n", "line 2", "not valid TOML"),
        (
            "[actions.reserve_copy]\npolicy = 'ask'\n\n[actions.burn_books]\n",
            "line 4",
            "burn_books",
        ),
        ("[actions.reserve_copy]\npolicy = 'ask'\nwho = ['x']\n", "line 3", "unknown key 'who'"),
        ("[actions.reserve_copy]\n\nexpires_after = '2 hours'\n", "line 3", "not a duration"),
        ("[actions.reserve_copy]\npolicy = 'sometimes'\n", "line 2", "not one of ask, auto"),
        ("[actions.reserve_copy]\nallowed_decisions = ['maybe']\n", "line 2", "allowed_decisions"),
        ("[actions.reserve_copy]\napprovers = 'librarian'\n", "line 2", "list of names"),
        ("title = 'x'\n[actions.reserve_copy]\n", "line 1", "unknown key 'title'"),
    ],
)
def test_a_bad_policy_file_is_refused_in_one_line_naming_the_line(
    tmp_path: Path, text: str, line: str, words: str
) -> None:
    path = _policy(tmp_path, text)
    with pytest.raises(PolicyError) as refused:
        load_policy(str(path), WRITES)
    message = str(refused.value)
    assert f"policy file {path} {line}: " in message, message
    assert words in message and "\n" not in message


def test_a_bad_policy_stops_ask_before_anything_runs(tmp_path: Path) -> None:
    path = _policy(tmp_path, "[actions.reserve_copy]\nexpires_after = '5 weeks'\n")
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", MODEL,
        "--db", str(tmp_path / "episodes.sqlite3"), "--policy", str(path),
    )  # fmt: skip
    assert asked.returncode == 2 and asked.stdout == ""
    assert asked.stderr.count("\n") == 1 and f"{path} line 2" in asked.stderr, asked.stderr
    assert not (tmp_path / "episodes.sqlite3").exists()


def test_durations_names_and_rules() -> None:
    assert [parse_duration(t) for t in ("30s", "90m", "2h", "1d")] == [30, 5400, 7200, 86400]
    for bad in ("0s", "2", "1w", "-3m", " "):
        with pytest.raises(ValueError):
            parse_duration(bad)
    assert [person(a) for a in ("cli:alice@host", "inbox:bob@h", "api", "auth:c@d.org")] == [
        "alice",
        "bob",
        "api",
        "c@d.org",
    ]
    rule = Rule(approvers=("librarian",), allowed_decisions=("approve", "reject"))
    assert rule.refusal("reserve_copy", "approve", "librarian") == ""
    assert "mallory may not decide" in rule.refusal("reserve_copy", "approve", "mallory")
    assert "edit is not a decision" in rule.refusal("reserve_copy", "edit", "librarian")
    assert Rule(expires_after="2h").expires_at("2026-01-01T10:00:00.000+00:00") == (
        "2026-01-01T12:00:00.000+00:00"
    )


def test_only_a_named_approver_decides_and_the_audit_log_names_who_tried(
    tmp_path: Path,
) -> None:
    policy = _policy(tmp_path, LIBRARIAN + 'allowed_decisions = ["approve", "reject"]\n')
    thread_id, request_id, status = _ask(tmp_path, "--policy", str(policy))
    assert status == 5
    code, out, err = _resume(tmp_path, thread_id, "--approve", "--as", "mallory")
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert "mallory may not decide reserve_copy requests (the policy names librarian)" in err
    code, _, err = _resume(tmp_path, thread_id, "--edit", '{"copy_id": "W60"}', "--as", "librarian")
    assert code == 2 and "edit is not a decision reserve_copy allows" in err, err
    assert reservations(tmp_path / "library.sqlite3") == []
    code, _, err = _resume(tmp_path, thread_id, "--approve", "--as", "librarian")
    assert code == 0, err
    assert [r["copy_id"] for r in reservations(tmp_path / "library.sqlite3")] == ["E60"]
    events = _events(tmp_path, thread_id)
    assert [(e, a.split("@")[0]) for e, _, a in events] == [
        ("proposed", "agent"),
        ("refused", "cli:mallory"),
        ("refused", "cli:librarian"),
        ("decision", "cli:librarian"),
        ("executed", "cli:librarian"),
    ]
    assert {r for _, r, _ in events} == {request_id}


def test_the_policy_is_read_again_at_each_decision(tmp_path: Path) -> None:
    policy = _policy(tmp_path, LIBRARIAN)
    thread_id, _, _ = _ask(tmp_path, "--policy", str(policy))
    assert _resume(tmp_path, thread_id, "--approve", "--as", "alice")[0] == 2
    policy.write_text('[actions.reserve_copy]\napprovers = ["librarian", "alice"]\n')
    code, _, err = _resume(tmp_path, thread_id, "--approve", "--as", "alice")
    assert code == 0, err


@pytest.mark.slow
def test_a_request_expires_and_the_next_resume_tells_the_model(tmp_path: Path) -> None:
    policy = _policy(tmp_path, '[actions.reserve_copy]\nexpires_after = "2s"\n')
    thread_id, request_id, _ = _ask(tmp_path, "--policy", str(policy))
    time.sleep(3)
    code, out, err = _resume(tmp_path, thread_id, "--approve")
    assert (code, out) == (2, "") and err.count("\n") == 1, err
    assert re.search(rf"request {request_id} expired at 20\d\d-\S+ \(expires_after 2s\)", err)
    assert reservations(tmp_path / "library.sqlite3") == []
    code, out, err = _resume(tmp_path, thread_id)
    assert code == 5, err
    assert f"Request {request_id} to run reserve_copy[E60] expired at" in out
    again = re.search(r"Awaiting approval \(request (R\w+)\)", out)
    assert again and again[1] != request_id, out
    rows = audit_log(tmp_path / "library.sqlite3", thread_id)
    expiry = [r for r in rows if r["event"] == "decision"]
    assert [(r["request_id"], r["actor"], r["detail"]["type"]) for r in expiry] == [
        (request_id, "policy:expires_after", "expire")
    ]
    assert reservations(tmp_path / "library.sqlite3") == []


def test_a_decision_before_expiry_is_taken(tmp_path: Path) -> None:
    policy = _policy(tmp_path, '[actions.reserve_copy]\nexpires_after = "1h"\n')
    thread_id, _, _ = _ask(tmp_path, "--policy", str(policy))
    code, _, err = _resume(tmp_path, thread_id)
    assert code == 2 and "awaits a human decision" in err, err
    assert _resume(tmp_path, thread_id, "--approve")[0] == 0


@pytest.mark.parametrize(
    ("mode", "approvals", "status", "reserved"),
    [("auto", "ask", 0, ["E60"]), ("deny", "auto", 0, []), ("ask", "auto", 5, [])],
)
def test_the_policy_of_an_action_overrides_the_runs_approvals(
    tmp_path: Path, mode: str, approvals: str, status: int, reserved: list[str]
) -> None:
    policy = _policy(tmp_path, f'[actions.reserve_copy]\npolicy = "{mode}"\n')
    thread_id, _, code = _ask(tmp_path, "--policy", str(policy), "--approvals", approvals)
    assert code == status
    assert [r["copy_id"] for r in reservations(tmp_path / "library.sqlite3")] == reserved
    decisions = [r for r in audit_log(tmp_path / "library.sqlite3", thread_id)]
    actors = {r["actor"] for r in decisions if r["event"] == "decision"}
    assert actors == ({f"policy:{mode}"} if mode != "ask" else set())
    if mode == "ask":
        assert _resume(tmp_path, thread_id, "--approve")[0] == 0


def test_the_policy_path_is_stored_absolute_and_as_must_be_a_name(tmp_path: Path) -> None:
    _policy(tmp_path, LIBRARIAN)
    asked = run_cli(
        "ask", "--env", "library", QUESTION, "--model", MODEL, "--db", "episodes.sqlite3",
        "--library-db", "library.sqlite3", "--policy", "policy.toml", "--json", cwd=tmp_path,
    )  # fmt: skip
    assert asked.returncode == 5, asked.stderr
    thread_id = re.search(r'"thread_id": "([^"]+)"', asked.stdout)
    assert thread_id
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    db = str(tmp_path / "episodes.sqlite3")
    refused = run_cli("resume", thread_id[1], "--db", db, "--approve", cwd=elsewhere)
    assert refused.returncode == 2 and "may not decide" in refused.stderr, refused.stderr
    for bad in ("", "a@b", "x:y"):
        named = run_cli("resume", thread_id[1], "--db", db, "--approve", "--as", bad)
        assert named.returncode == 2 and named.stderr.count("\n") == 1, named.stderr


def _pending(tmp_path: Path, *flags: str) -> list[dict[str, object]]:
    import json

    listed = run_cli("pending", "--db", str(tmp_path / "episodes.sqlite3"), "--json", *flags)
    assert listed.returncode == 0, listed.stderr
    requests = json.loads(listed.stdout)["requests"]
    assert isinstance(requests, list)
    return requests


def test_pending_lists_exactly_the_waiting_requests_across_threads(tmp_path: Path) -> None:
    policy = _policy(tmp_path, LIBRARIAN + 'expires_after = "1d"\n')
    first, first_request, _ = _ask(tmp_path, "--policy", str(policy))
    second, second_request, _ = _ask(tmp_path)
    done = run_cli(
        "ask", "Who directed The Prestige?", "--model", "graph.testing:demo_model",
        "--db", str(tmp_path / "episodes.sqlite3"),
    )  # fmt: skip
    assert done.returncode in (0, 3, 6), done.stderr
    listed = {entry["request_id"]: entry for entry in _pending(tmp_path)}
    assert set(listed) == {first_request, second_request}
    entry = listed[first_request]
    assert set(entry) == {
        "thread_id", "request_id", "action", "args", "proposed_at", "expires_at",
        "approvers", "decide",
    }  # fmt: skip
    assert (entry["thread_id"], entry["action"], entry["args"]) == (
        first,
        "reserve_copy",
        {"copy_id": "E60"},
    )
    assert entry["approvers"] == ["librarian"] and listed[second_request]["approvers"] is None
    assert isinstance(entry["proposed_at"], str) and isinstance(entry["expires_at"], str)
    assert (
        entry["expires_at"] > entry["proposed_at"] and listed[second_request]["expires_at"] is None
    )
    assert f"resume {first} --db" in str(entry["decide"]) and first_request in str(entry["decide"])
    assert _pending(tmp_path, "--env", "wikipedia") == []
    assert _resume(tmp_path, second, "--reject", "not now")[0] == 0
    assert [e["request_id"] for e in _pending(tmp_path, "--env", "library")] == [first_request]
    text = run_cli("pending", "--db", str(tmp_path / "episodes.sqlite3"))
    assert "may decide: librarian" in text.stdout and "[E2] " in text.stdout, text.stdout
    waiting = run_cli(
        "threads", "--db", str(tmp_path / "episodes.sqlite3"), "--status", "awaiting_approval"
    )
    assert [line.split()[0] for line in waiting.stdout.splitlines()] == [first]
