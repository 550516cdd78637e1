"""The offline library demo model (`graph.testing:library_demo_model`) through the real graph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent import build_agent
from graph.episodes.resuming import resume_episode
from graph.episodes.runner import Agent
from graph.episodes.starting import run_episode
from graph.settings.context import LibraryContext
from graph.testing import library_demo_model
from tools.library.db import reservations

HOLD_QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
SEED_QUESTION = "今天 16:00 前，我能借到《数据库入门图解》纸质版吗？请告诉我去哪个馆、哪个书架。"


@pytest.fixture
def library(tmp_path: Path) -> tuple[Agent, LibraryContext, Path]:
    db = tmp_path / "library.sqlite3"
    agent = build_agent("library", InMemorySaver(), model=library_demo_model())
    return agent, LibraryContext(library_db=str(db)), db


def _actions(result: dict[str, Any]) -> list[str]:
    return [step["action_text"] for step in result["trajectory"]]


def _decide(agent: Agent, ctx: LibraryContext, thread: str, decision: dict[str, Any]) -> Any:
    return resume_episode(agent, thread, ctx, decision={"decisions": [decision]})


def test_a_hold_request_pauses_then_an_approval_reserves_it(
    library: tuple[Agent, LibraryContext, Path],
) -> None:
    agent, ctx, db = library
    paused = run_episode(agent, HOLD_QUESTION, ctx)
    assert paused["status"] == "awaiting_approval"
    request = paused["pending"][0]["value"]["action_requests"][0]
    assert (request["name"], request["args"]) == ("reserve_copy", {"copy_id": "E60"})
    done = _decide(agent, ctx, paused["thread_id"], {"type": "approve"})
    assert done["status"] == "verified" and "E60" in done["answer"]
    assert [row["copy_id"] for row in reservations(db)] == ["E60"]


def test_after_a_rejection_it_says_where_the_book_is_without_a_hold(
    library: tuple[Agent, LibraryContext, Path],
) -> None:
    agent, ctx, db = library
    paused = run_episode(agent, HOLD_QUESTION, ctx)
    done = _decide(agent, ctx, paused["thread_id"], {"type": "reject", "message": "no"})
    assert _actions(done)[3:5] == [
        "get_open_hours[East Library, today]",
        "estimate_walk[East Library]",
    ]
    assert done["status"] == "verified" and "I did not reserve it" in done["answer"]
    assert reservations(db) == []


def test_a_refused_edit_is_followed_by_a_new_proposal_for_a_human(
    library: tuple[Agent, LibraryContext, Path],
) -> None:
    agent, ctx, db = library
    paused = run_episode(agent, HOLD_QUESTION, ctx)
    edit = {"type": "edit", "edited_action": {"name": "reserve_copy", "args": {"copy_id": "E17"}}}
    again = _decide(agent, ctx, paused["thread_id"], edit)
    assert again["trajectory"][-1]["observation"].startswith("Not reserved: copy E17")
    assert again["status"] == "awaiting_approval"
    assert again["pending"][0]["value"]["action_requests"][0]["args"] == {"copy_id": "E60"}
    assert reservations(db) == []


def test_without_a_hold_request_it_checks_hours_and_walk(
    library: tuple[Agent, LibraryContext, Path],
) -> None:
    agent, ctx, _ = library
    result = run_episode(agent, SEED_QUESTION, ctx)
    assert _actions(result) == [
        "search_catalog[数据库入门图解]",
        "get_copy_status[E17]",
        "get_copy_status[W22]",
        "get_open_hours[West Library, today]",
        "estimate_walk[West Library]",
        "Finish[Copy W22 of 《数据库入门图解》 is available at West Library, shelf B-12; the "
        "circulation desk is open 09:00–16:30 today, about 25 minutes' walk.]",
    ]
    assert result["status"] == "verified"


def test_approvals_deny_is_answered_like_a_rejection(
    library: tuple[Agent, LibraryContext, Path],
) -> None:
    agent, _, db = library
    ctx = LibraryContext(library_db=str(db), approvals="deny")
    result = run_episode(agent, HOLD_QUESTION, ctx)
    assert result["status"] == "verified" and reservations(db) == []
    assert "was not run" in result["trajectory"][2]["observation"]
