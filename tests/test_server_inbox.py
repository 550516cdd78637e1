"""The server's `/inbox`, in headless Chromium on a real `langgraph dev`: it lists what
`react-agent pending` lists; a decision there goes through the guarded path (an
unnamed approver and a stale decision are refused in one line, nothing runs), and
the library database and the audit log say what was decided, and by whom."""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cli_utils import run_cli
from langgraph_sdk import get_sync_client
from server_utils import (
    REPO,
    RESERVE_QUESTION,
    Server,
    paused_library_thread,
    serving,
    start_server,
    stop_server,
)

from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server

MODEL = "graph.testing:library_demo_model"
POLICY = '[actions.reserve_copy]\napprovers = ["librarian"]\nexpires_after = "1h"\n'
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("inbox")
    policy = root / "policy.toml"
    policy.write_text(POLICY, encoding="utf-8")
    before = os.environ.get("REACT_AGENT_POLICY")
    os.environ["REACT_AGENT_POLICY"] = str(policy)
    try:
        with serving(root) as running:
            yield running
    finally:
        if before is None:
            os.environ.pop("REACT_AGENT_POLICY", None)
        else:
            os.environ["REACT_AGENT_POLICY"] = before


def _listed(server: Server) -> list[dict[str, Any]]:
    answer = httpx.get(f"{server.url}/inbox/requests", timeout=30)
    assert answer.status_code == 200, answer.text
    requests: list[dict[str, Any]] = answer.json()["requests"]
    return requests


def _pending_cli(server: Server) -> list[dict[str, Any]]:
    listed = run_cli("pending", "--db", str(server.db), "--json")
    assert listed.returncode == 0, listed.stderr
    requests: list[dict[str, Any]] = json.loads(listed.stdout)["requests"]
    return requests


def test_the_inbox_page_decides_through_the_guarded_path(server: Server) -> None:
    from playwright.sync_api import expect, sync_playwright

    client = get_sync_client(url=server.url, api_key=None)
    library = Path(server.db).parent / "library.sqlite3"
    approved, approved_request = paused_library_thread(client, library, RESERVE_QUESTION, MODEL)
    rejected, rejected_request = paused_library_thread(client, library, RESERVE_QUESTION, MODEL)
    listed = _listed(server)
    assert {(e["thread_id"], e["request_id"]) for e in listed} == {
        (approved, approved_request),
        (rejected, rejected_request),
    }
    assert all(e["approvers"] == ["librarian"] and e["expires_at"] for e in listed)
    keys = ("thread_id", "request_id", "action", "args", "proposed_at", "expires_at", "approvers")
    by_cli = sorted(tuple(json.dumps(e[k]) for k in keys) for e in _pending_cli(server))
    assert by_cli == sorted(tuple(json.dumps(e[k]) for k in keys) for e in listed)

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            page = browser.new_page()
            page.goto(f"{server.url}/inbox")
            expect(page.locator(".request")).to_have_count(2)
            first = page.locator(f"#request-{approved_request}")
            second = page.locator(f"#request-{rejected_request}")
            expect(first).to_contain_text("May decide: librarian")
            expect(first).to_contain_text("get_copy_status(copy_id=E60")

            page.fill("#name", "mallory")
            first.locator("button.approve").click()
            expect(first.locator(".result")).to_contain_text(
                "Refused: Refused decision: mallory may not decide reserve_copy requests"
            )
            assert reservations(library) == []

            page.fill("#name", "librarian")
            first.locator("button.approve").click()
            expect(first.locator(".result")).to_contain_text("Decided: approve")
            second.locator("input.reason").fill("the patron has one already")
            second.locator("button.reject").click()
            expect(second.locator(".result")).to_contain_text("Decided: reject")

            first.locator("button.reject").click()  # the page still shows the answered one
            expect(first.locator(".result")).to_contain_text(
                f"Refused: request {approved_request} is not pending on thread {approved}"
            )
            page.reload()
            expect(page.locator("#summary")).to_have_text("0 request(s) waiting")
        finally:
            browser.close()

    assert [(r["copy_id"]) for r in reservations(library)] == ["E60"]
    rows = audit_log(library)
    mine = [
        (r["thread_id"], r["event"], r["actor"].split("@")[0], r["detail"].get("type"))
        for r in rows
        if r["event"] in ("refused", "decision")
    ]
    assert mine == [
        (approved, "refused", "inbox:mallory", None),
        (approved, "decision", "inbox:librarian", "approve"),
        (rejected, "decision", "inbox:librarian", "reject"),
    ]
    executed = [r for r in rows if r["event"] == "executed"]
    assert [(r["thread_id"], r["detail"]["outcome"]) for r in executed] == [(approved, "reserved")]
    assert _listed(server) == [] and _pending_cli(server) == []


def test_a_malformed_or_unnamed_decision_is_refused_before_any_run(server: Server) -> None:
    decide = f"{server.url}/inbox/decide"
    body = {"thread_id": "t", "request_id": "R1", "decision": {"type": "approve"}}
    unnamed = httpx.post(decide, json=body, timeout=30)
    assert unnamed.status_code == 400 and "give your name" in unnamed.json()["error"]
    bad = httpx.post(decide, json=body | {"name": "x", "decision": {"type": "maybe"}}, timeout=30)
    assert bad.status_code == 400 and "unknown decision type" in bad.json()["error"]


@pytest.fixture(scope="module")
def signed_in_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose custom authentication (`tests/inbox_auth.py`) covers `/inbox` too."""
    root = tmp_path_factory.mktemp("inbox-auth")
    work = root / "work"
    work.mkdir()
    shutil.copy(Path(__file__).with_name("inbox_auth.py"), work / "inbox_auth.py")
    config = json.loads((REPO / "langgraph.json").read_text(encoding="utf-8"))
    config["auth"] = {"path": "./inbox_auth.py:auth"}
    config["http"]["enable_custom_route_auth"] = True
    (work / "langgraph.json").write_text(json.dumps(config), encoding="utf-8")
    (root / "policy.toml").write_text(POLICY, encoding="utf-8")
    before = os.environ.get("REACT_AGENT_POLICY")
    os.environ["REACT_AGENT_POLICY"] = str(root / "policy.toml")
    running = start_server(root, root / "episodes.sqlite3", config=work / "langgraph.json")
    try:
        yield running
    finally:
        stop_server(running)
        if before is None:
            os.environ.pop("REACT_AGENT_POLICY", None)
        else:
            os.environ["REACT_AGENT_POLICY"] = before


def test_the_signed_in_user_decides_whatever_name_is_typed(signed_in_server: Server) -> None:
    server = signed_in_server
    signed = {"Authorization": "Bearer token-mallory"}
    client = get_sync_client(url=server.url, api_key=None, headers=signed)
    library = Path(server.db).parent / "library.sqlite3"
    thread_id, request_id = paused_library_thread(client, library, RESERVE_QUESTION, MODEL)
    decide = f"{server.url}/inbox/decide"
    body = {"thread_id": thread_id, "request_id": request_id, "decision": {"type": "approve"}}
    anonymous = httpx.post(decide, json=body | {"name": "librarian"}, timeout=60)
    assert anonymous.status_code in (401, 403), anonymous.text
    claimed = httpx.post(decide, json=body | {"name": "librarian"}, headers=signed, timeout=60)
    assert claimed.status_code == 403, claimed.text
    assert "mallory may not decide reserve_copy requests" in claimed.json()["error"]
    librarian = {"Authorization": "Bearer token-librarian"}
    taken = httpx.post(decide, json=body, headers=librarian, timeout=60)
    assert taken.status_code == 200, taken.text
    assert taken.json()["decided_by"] == "auth:librarian"
    actors = [(r["event"], r["actor"]) for r in audit_log(library) if r["event"] != "proposed"]
    assert actors == [
        ("refused", "auth:mallory"),
        ("decision", "auth:librarian"),
        ("executed", "auth:librarian"),
    ]
    assert [r["copy_id"] for r in reservations(library)] == ["E60"]


def test_an_expired_request_on_the_server_is_refused_then_told_to_the_model(
    server: Server, tmp_path: Path
) -> None:
    policy = tmp_path / "expiring.toml"
    policy.write_text('[actions.reserve_copy]\nexpires_after = "2s"\n', encoding="utf-8")
    library = tmp_path / "library.sqlite3"
    client = get_sync_client(url=server.url, api_key=None)
    thread_id = client.threads.create()["thread_id"]
    context = {"model": MODEL, "library_db": str(library), "policy": str(policy)}
    client.runs.wait(thread_id, "library", input={"question": RESERVE_QUESTION}, context=context)
    time.sleep(3)
    late = run_cli("resume", thread_id, "--server", server.url, "--approve", "--as", "alice")
    assert late.returncode == 2 and late.stderr.count("\n") == 1, late.stdout + late.stderr
    assert "expired at" in late.stderr and reservations(library) == []
    told = run_cli("resume", thread_id, "--server", server.url)
    assert told.returncode == 5, told.stdout + told.stderr
    assert "expired at" in told.stdout and "without a decision" in told.stdout
    rows = [(r["event"], r["actor"]) for r in audit_log(library) if r["event"] != "proposed"]
    assert [event for event, _ in rows] == ["refused", "decision"]
    assert rows[0][1].startswith("cli:alice@") and rows[1][1] == "policy:expires_after"
