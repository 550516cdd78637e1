"""Time travel: checkpoint listings, forks from a checkpoint, and forks with an edited Action."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest
from server_utils import LIBRARY_QUESTION, LIBRARY_SCRIPT, write_script

from graph import cli
from graph.agent import build_agent
from graph.cli.history import register
from graph.episodes.history import checkpoint_rows, edit_state
from graph.episodes.resuming import resume_episode
from graph.episodes.runner import Agent, episode_result, make_context, open_checkpointer
from graph.episodes.starting import run_episode
from graph.errors import AgentError, ThreadNotFoundError
from graph.settings.context import EnvName
from graph.testing import DEMO_QUESTION, DEMO_REPLIES
from tools.library.db import reservations

ACTIONS = [
    "Search[The Prestige (film)]",
    "Lookup[directed]",
    "Search[Christopher Nolan]",
    "Finish[1970]",
]


def agent_on(db: Path, env_name: EnvName = "wikipedia") -> Agent:
    return build_agent(env_name, open_checkpointer(db))


@pytest.fixture
def episode(db_path: Path, tmp_path: Path) -> dict[str, Any]:
    """A finished multi-hop Wikipedia episode whose model is named in its settings."""
    model = write_script(tmp_path / "demo.json", DEMO_REPLIES)
    ctx = make_context("wikipedia", {"model": model})
    return run_episode(agent_on(db_path), DEMO_QUESTION, ctx)


def actions(result: dict[str, Any]) -> list[str]:
    return [step["action_text"] for step in result["trajectory"]]


def pending_at(rows: list[dict[str, Any]], node: str, action: str) -> str:
    """The checkpoint whose next node is `node`, with `action` proposed or just observed."""
    (row,) = [r for r in rows if r["next"] == [node] and action in r["summary"]]
    return str(row["checkpoint_id"])


def test_rows_list_each_checkpoint_with_its_writer_and_a_summary(
    db_path: Path, episode: dict[str, Any]
) -> None:
    rows = checkpoint_rows(agent_on(db_path), episode["thread_id"])
    assert [r["node"] for r in rows] == (
        ["input", "__start__"] + ["reason", "act", "observe"] * 3 + ["reason", "verify"]
    )
    assert [r["step"] for r in rows] == list(range(-1, len(rows) - 1))
    assert all(r["current"] for r in rows)
    assert [r["parent_id"] for r in rows[1:]] == [r["checkpoint_id"] for r in rows[:-1]]
    assert rows[1]["summary"] == f"Question: {DEMO_QUESTION}"
    assert rows[2]["summary"] == "Action 1 proposed: Search[The Prestige (film)]"
    assert rows[4]["summary"].startswith("Action 1: Search[The Prestige (film)] -> 5 evidence: ")
    assert rows[-1]["summary"].startswith("Action 4: Finish[1970] -> finish: Verified")
    assert rows[-1]["summary"].endswith("; ended verified (verified)")
    assert rows[-1]["next"] == []


def test_rows_of_an_unknown_thread_raise(db_path: Path) -> None:
    with pytest.raises(ThreadNotFoundError):
        checkpoint_rows(agent_on(db_path), "no-such-thread")


def test_resume_from_a_checkpoint_forks_and_keeps_the_old_branch(
    db_path: Path, episode: dict[str, Any]
) -> None:
    agent, thread_id = agent_on(db_path), episode["thread_id"]
    before = checkpoint_rows(agent, thread_id)
    fork_at = pending_at(before, "reason", "Action 2: Lookup[directed]")
    again = resume_episode(agent, thread_id, checkpoint_id=fork_at)
    after = checkpoint_rows(agent, thread_id)
    assert again["status"] == "verified" and actions(again) == ACTIONS
    assert {r["checkpoint_id"] for r in before} < {r["checkpoint_id"] for r in after}
    new = [r for r in after if r["checkpoint_id"] not in {b["checkpoint_id"] for b in before}]
    (chosen,) = [r for r in before if r["checkpoint_id"] == fork_at]
    assert [r["node"] for r in new] == ["fork", "reason", "act", "observe", "reason", "verify"]
    assert new[0]["parent_id"] == fork_at and all(r["current"] for r in new)
    assert new[0]["summary"] == f"Fork: a copy of step {chosen['step']}, replayed from here"
    old_tail = [r["checkpoint_id"] for r in after if not r["current"]]
    assert old_tail == [r["checkpoint_id"] for r in before[before.index(chosen) + 1 :]]


def test_edit_state_replaces_the_pending_action_and_replays(
    db_path: Path, episode: dict[str, Any]
) -> None:
    agent, thread_id = agent_on(db_path), episode["thread_id"]
    rows = checkpoint_rows(agent, thread_id)
    chosen = pending_at(rows, "act", "Action 2 proposed: Lookup[directed]")
    config = edit_state(agent, thread_id, chosen, "Lookup[Christopher Nolan]")
    forked = config["configurable"]["checkpoint_id"]
    result = resume_episode(agent, thread_id, checkpoint_id=forked)
    assert actions(result) == [ACTIONS[0], "Lookup[Christopher Nolan]", *ACTIONS[2:]]
    edited = result["trajectory"][1]
    assert edited["thought"] == "The first sentence names the director."
    assert edited["decision"] == {
        "type": "edit",
        "edited_action": {"name": "Lookup", "args": {"keyword": "Christopher Nolan"}},
    }
    after = checkpoint_rows(agent, thread_id)
    (edit_row,) = [r for r in after if r["checkpoint_id"] == forked]
    assert (edit_row["node"], edit_row["parent_id"], edit_row["next"]) == ("edit", chosen, ["act"])
    assert edit_row["summary"] == "Edited: Action 2 := Lookup[Christopher Nolan]"
    old = [r["summary"] for r in after if not r["current"]]
    assert any("Action 2: Lookup[directed]" in summary for summary in old)


def test_edit_state_before_the_model_call_replaces_the_models_turn(
    db_path: Path, episode: dict[str, Any]
) -> None:
    agent, thread_id = agent_on(db_path), episode["thread_id"]
    chosen = pending_at(checkpoint_rows(agent, thread_id), "reason", "Action 1: Search[")
    config = edit_state(agent, thread_id, chosen, "Action: Search[Christopher Nolan]")
    result = resume_episode(agent, thread_id, checkpoint_id=config["configurable"]["checkpoint_id"])
    assert actions(result)[:2] == [ACTIONS[0], "Search[Christopher Nolan]"]
    assert result["trajectory"][1]["thought"] == ""
    assert result["model_calls"] == episode["model_calls"] - 1


@pytest.mark.parametrize(
    ("action", "problem"),
    [
        ("Jump[somewhere]", "'Jump' is not an action"),
        ("Search[]", "needs a non-empty argument"),
        ("Search the web", "is not of the form Name"),
    ],
)
def test_edit_state_refuses_an_unreadable_action(
    db_path: Path, episode: dict[str, Any], action: str, problem: str
) -> None:
    agent, thread_id = agent_on(db_path), episode["thread_id"]
    chosen = pending_at(checkpoint_rows(agent, thread_id), "act", "Action 2 proposed")
    count = len(checkpoint_rows(agent, thread_id))
    with pytest.raises(AgentError, match=problem):
        edit_state(agent, thread_id, chosen, action)
    assert len(checkpoint_rows(agent, thread_id)) == count


def test_edit_state_refuses_a_checkpoint_with_nothing_pending(
    db_path: Path, episode: dict[str, Any]
) -> None:
    agent, thread_id = agent_on(db_path), episode["thread_id"]
    last = checkpoint_rows(agent, thread_id)[-1]["checkpoint_id"]
    with pytest.raises(AgentError, match="has nothing pending"):
        edit_state(agent, thread_id, last, "Search[Christopher Nolan]")


def test_an_edited_write_still_waits_for_a_human(db_path: Path, tmp_path: Path) -> None:
    model = write_script(tmp_path / "library.json", LIBRARY_SCRIPT)
    library_db = tmp_path / "library.sqlite3"
    ctx = make_context("library", {"model": model, "library_db": str(library_db)})
    agent = agent_on(db_path, "library")
    paused = run_episode(agent, LIBRARY_QUESTION, ctx)
    thread_id = paused["thread_id"]
    latest = checkpoint_rows(agent, thread_id)[-1]
    assert latest["next"] == ["review"]
    config = edit_state(agent, thread_id, latest["checkpoint_id"], "reserve_copy[W22]")
    assert episode_result(agent, thread_id)["status"] == "running"
    result = resume_episode(agent, thread_id, checkpoint_id=config["configurable"]["checkpoint_id"])
    assert result["status"] == "awaiting_approval"
    (request,) = result["pending"][0]["value"]["action_requests"]
    assert (request["name"], request["args"]) == ("reserve_copy", {"copy_id": "W22"})
    assert reservations(library_db) == []


def test_history_command_prints_rows_as_json(
    db_path: Path, episode: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["history", episode["thread_id"], "--db", str(db_path), "--json"])
    assert args.func(args) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows == json.loads(
        json.dumps(checkpoint_rows(agent_on(db_path), episode["thread_id"]), default=str)
    )
    args = parser.parse_args(["history", episode["thread_id"], "--db", str(db_path)])
    assert args.func(args) == 0
    table = capsys.readouterr().out.splitlines()
    assert len(table) == len(rows) + 2 and table[-1].startswith("Fork with: react-agent resume")
    assert table[0].split() == ["CHECKPOINT", "STEP", "TIME", "NODE", "SUMMARY"]
    assert table[3].startswith(f"* {rows[2]['checkpoint_id']}    1 ")


def test_cli_resume_from_a_checkpoint_forks(
    db_path: Path, episode: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    thread_id = episode["thread_id"]
    rows = checkpoint_rows(agent_on(db_path), thread_id)
    fork_at = pending_at(rows, "reason", "Action 3: Search[Christopher Nolan]")
    status = cli.main(["resume", thread_id, "--from", fork_at, "--db", str(db_path), "--json"])
    result = json.loads(capsys.readouterr().out)
    assert (status, result["status"], actions(result)) == (0, "verified", ACTIONS)
    after = checkpoint_rows(agent_on(db_path), thread_id)
    assert [r["node"] for r in after[len(rows) :]] == ["fork", "reason", "verify"]
    assert [r["checkpoint_id"] for r in after if not r["current"]] == [
        r["checkpoint_id"] for r in rows[-2:]
    ]
