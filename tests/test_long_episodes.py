"""Long episodes: the recursion limit follows the budgets, so only a budget ends a run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.agent import build_agent, recursion_limit
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import WikipediaContext
from graph.testing import TOUR_QUESTION, ScriptedReActModel, tour_replies

pytestmark = pytest.mark.slow

TOUR_MODEL = "tests/data/tour_model.py:tour_model"


def test_a_200_step_episode_runs_through_the_cli_with_raised_budgets(db_path: Path) -> None:
    done = run_cli(
        "ask",
        TOUR_QUESTION,
        "--db",
        str(db_path),
        "--model",
        TOUR_MODEL,
        "--max-model-turns",
        "210",
        "--max-tool-calls",
        "210",
        "--max-repeats",
        "10",
        "--max-seconds",
        "3600",
        "--verify-mode",
        "record",
        "--json",
    )
    assert done.returncode == 3, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["steps"] == 200 and result["stop_reason"] == "finished_unverified"
    assert result["model_calls"] == 200 and result["tool_calls"] == 199
    actions = [step["action"] for step in result["trajectory"]]
    assert actions == ["Search", "Lookup"] * 99 + ["Search", "Finish"]
    assert all(step["kind"] == "tool" for step in result["trajectory"][:-1])


def test_a_budget_not_the_recursion_limit_ends_an_episode_past_the_old_limit(
    db_path: Path,
) -> None:
    """The old fixed limit (200 supersteps) crashed any episode past about 66 steps."""
    agent = build_agent(
        "wikipedia",
        open_checkpointer(db_path),
        model=ScriptedReActModel(responses=tour_replies(90)),
    )
    ctx = WikipediaContext(max_model_turns=80, max_tool_calls=100, max_seconds=3600.0)
    result = run_episode(agent, TOUR_QUESTION, ctx)
    assert result["status"] == "budget_exhausted" and result["stop_reason"] == "model_turns"
    assert result["steps"] == 80 and result["model_calls"] == 80


def test_the_limit_grows_with_the_model_turn_budget() -> None:
    small, large = WikipediaContext(max_model_turns=8), WikipediaContext(max_model_turns=500)
    assert recursion_limit(large) - recursion_limit(small) == 4 * (500 - 8)
    assert recursion_limit(small) > 4 * 8
