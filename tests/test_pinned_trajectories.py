"""Optimisations change no trajectory: scripted episodes replay exactly as recorded.

`tests/data/pinned_trajectories.json` was recorded with `record_episodes()` on
the code before the per-step optimisations (issue 12). Each episode keeps its
script, its settings, and the steps and evidence it produced (ids, texts,
sources, fingerprints), without timestamps.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from graph.agent import build_agent
from graph.episodes.runner import make_context, open_checkpointer
from graph.episodes.starting import run_episode
from graph.testing import (
    DEMO_QUESTION,
    TOUR_QUESTION,
    ScriptedReActModel,
    tour_replies,
    tour_settings,
)

FIXTURE = Path(__file__).resolve().parent / "data" / "pinned_trajectories.json"
TIMESTAMPS = ("at", "retrieved_at")

DETOURS = [
    "Thought: I will just think.",
    "Thought: find the film\nAction: Search[The Prestige (film)]",
    "Thought: again\nAction: Search[the prestige  (FILM)]",
    "Thought: a\nAction: Lookup[Nolan]",
    "Thought: b\nAction: Lookup[Nolan]",
    "Thought: first sentence again\nAction: Lookup[directed]",
    "Thought: guess\nAction: Finish[Tom Cruise]",
    "Thought: the director\nAction: Search[Christopher Nolan]",
    "Thought: no page\nAction: Search[Zzyzx Nonexistent Page Title]",
    "Thought: born 30 July 1970\nAction: Finish[1970]",
]


def episodes() -> dict[str, dict[str, Any]]:
    """The scripted episodes to pin: a 30-step snapshot tour, and a detour-rich one
    (invalid action, repeat, repeated Lookup, reused evidence, unsupported Finish,
    missing page)."""
    return {
        "tour": {
            "question": TOUR_QUESTION,
            "replies": tour_replies(30),
            "settings": tour_settings(30),
        },
        "detours": {
            "question": DEMO_QUESTION,
            "replies": DETOURS,
            "settings": {"max_model_turns": 12},
        },
    }


def without_timestamps(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in item.items() if k not in TIMESTAMPS} for item in items]


def replay(episode: dict[str, Any], db: Path) -> dict[str, Any]:
    """Run one pinned episode on `db`; the parts of its state that must not change."""
    model = ScriptedReActModel(responses=episode["replies"])
    agent = build_agent("wikipedia", open_checkpointer(db), model=model)
    ctx = make_context("wikipedia", episode["settings"])
    result = run_episode(agent, episode["question"], ctx)
    state = agent.get_state({"configurable": {"thread_id": result["thread_id"]}}).values
    return {
        "status": result["status"],
        "stop_reason": result["stop_reason"],
        "answer": result["answer"],
        "steps": without_timestamps(state["steps"]),
        "evidence": without_timestamps(state["evidence"]),
    }


def record_episodes(path: Path) -> None:
    """Write the fixture: each episode's script, settings and replayed outcome."""
    recorded = {}
    with tempfile.TemporaryDirectory() as workdir:
        for name, episode in episodes().items():
            outcome = replay(episode, Path(workdir) / f"{name}.sqlite3")
            recorded[name] = episode | {"expected": outcome}
    path.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


PINNED: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8")) if FIXTURE.exists() else {}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_episode_replays_the_same_steps_and_evidence(name: str, db_path: Path) -> None:
    episode = PINNED[name]
    assert replay(episode, db_path) == episode["expected"]


def test_the_fixture_pins_both_episodes() -> None:
    assert sorted(PINNED) == ["detours", "tour"]
    tour = PINNED["tour"]["expected"]
    assert len(tour["steps"]) == 30 and len(tour["evidence"]) > 40
    kinds = {step["kind"] for step in PINNED["detours"]["expected"]["steps"]}
    assert {"invalid", "repeat", "unsupported", "tool", "finish"} <= kinds


if __name__ == "__main__":
    record_episodes(Path(sys.argv[1]) if len(sys.argv) > 1 else FIXTURE)
