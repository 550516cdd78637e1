"""The ReAct graph end to end on the real snapshot, with scripted models and SQLite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig

from graph.agent import build_agent, build_graph
from graph.core.nodes import AgentDeps
from graph.episodes.resuming import resume_episode
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import WikipediaContext
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel

ROOT = Path(__file__).resolve().parent.parent
SEARCH_PRESTIGE = "Thought: find the film\nAction: Search[The Prestige (film)]"
SEARCH_NOLAN = "Thought: the director\nAction: Search[Christopher Nolan]"
FINISH_1970 = "Thought: born 30 July 1970\nAction: Finish[1970]"


def run(replies: list[str], db: Path, **settings: Any) -> dict[str, Any]:
    agent = build_agent(
        "wikipedia", open_checkpointer(db), model=ScriptedReActModel(responses=replies)
    )
    return run_episode(agent, DEMO_QUESTION, WikipediaContext(**settings))


def comparable(trajectory: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = ("index", "thought", "action_text", "kind", "observation", "evidence_ids")
    return [tuple(json.dumps(step.get(k)) for k in keys) for step in trajectory]


def test_multi_hop_episode_ends_verified_with_its_evidence(db_path: Path) -> None:
    result = run(DEMO_REPLIES, db_path)
    assert result["status"] == "verified"
    assert result["answer"] == "1970"
    assert [s["action"] for s in result["trajectory"]] == ["Search", "Lookup", "Search", "Finish"]
    assert result["evidence"][0]["title"] == "Christopher Nolan"
    assert "30 July 1970" in result["evidence"][0]["text"]
    assert result["evidence"][0]["sentence_index"] == 0
    assert result["model_calls"] == 4 and result["tool_calls"] == 3
    assert result["tokens"]["input"] > 0 and result["tokens"]["output"] > 0


def test_lookup_of_a_stored_sentence_reuses_its_evidence_id(db_path: Path) -> None:
    result = run(DEMO_REPLIES, db_path)
    search, lookup = result["trajectory"][0], result["trajectory"][1]
    assert lookup["evidence_ids"] == [search["evidence_ids"][0]]
    agent = build_agent("wikipedia", open_checkpointer(db_path))
    stored = agent.get_state({"configurable": {"thread_id": result["thread_id"]}}).values
    texts = [item["text"] for item in stored["evidence"]]
    assert len(texts) == len(set(texts))


def test_unsupported_finish_is_sent_back_then_a_supported_one_is_accepted(db_path: Path) -> None:
    replies = [
        SEARCH_PRESTIGE,
        "Thought: guess\nAction: Finish[Tom Cruise]",
        SEARCH_NOLAN,
        FINISH_1970,
    ]
    result = run(replies, db_path)
    rejected = result["trajectory"][1]
    assert rejected["kind"] == "unsupported"
    assert "not supported" in rejected["observation"] and "Tom Cruise" in rejected["observation"]
    assert result["status"] == "verified" and result["answer"] == "1970"
    assert result["verifier_rejections"] == 1


def test_too_many_unsupported_answers_end_unverified_and_say_so(db_path: Path) -> None:
    replies = [SEARCH_PRESTIGE, "Thought: guess\nAction: Finish[Tom Cruise]"]
    result = run(replies, db_path, max_verifier_rejections=1)
    assert result["status"] == "unverified"
    assert result["stop_reason"] == "verifier_rejected"
    assert result["answer"].startswith("Could not verify an answer")
    assert "Tom Cruise" in result["answer"]
    assert result["verdict"]["supported"] is False
    assert len(result["evidence"]) == 5


@pytest.mark.parametrize(
    ("reply", "problem"),
    [
        ("Thought: I will just think.", "no 'Action:' line"),
        ("Thought: fly\nAction: Teleport[Paris]", "'Teleport' is not an action"),
        ("Thought: empty\nAction: Search[]", "non-empty argument"),
        ("The answer is surely 1970, as everyone knows.", "no 'Action:' line"),
        ("Thought: long\n" + "blah " * 10_000, "no 'Action:' line"),
    ],
)
def test_malformed_output_becomes_an_invalid_action_observation(
    db_path: Path, reply: str, problem: str
) -> None:
    result = run([reply, *DEMO_REPLIES], db_path)
    first = result["trajectory"][0]
    assert first["kind"] == "invalid"
    assert first["observation"].startswith("Invalid action:") and problem in first["observation"]
    assert result["invalid_actions"] == 1
    assert result["status"] == "verified"


def test_two_actions_run_only_the_first(db_path: Path) -> None:
    two = "Thought: both\nAction: Search[The Prestige (film)]\nAction: Search[Christopher Nolan]"
    result = run([two, *DEMO_REPLIES[1:]], db_path)
    assert result["trajectory"][0]["action_text"] == "Search[The Prestige (film)]"
    assert result["status"] == "verified"


def test_model_turn_budget_ends_the_episode_with_an_explicit_reason(db_path: Path) -> None:
    wander = [f"Thought: try {i}\nAction: Search[Page number {i}]" for i in range(10)]
    result = run(wander, db_path, max_model_turns=3)
    assert result["status"] == "budget_exhausted"
    assert result["stop_reason"] == "model_turns"
    assert result["model_calls"] == 3
    assert "model-turn budget (3)" in result["answer"]


def test_tool_call_budget_is_enforced(db_path: Path) -> None:
    wander = [f"Thought: try {i}\nAction: Search[Page number {i}]" for i in range(10)]
    result = run(wander, db_path, max_tool_calls=2)
    assert result["status"] == "budget_exhausted" and result["stop_reason"] == "tool_calls"
    assert result["tool_calls"] == 2


def test_repeated_action_is_not_run_again_and_counts(db_path: Path) -> None:
    replies = [SEARCH_PRESTIGE, SEARCH_PRESTIGE, SEARCH_NOLAN, FINISH_1970]
    result = run(replies, db_path)
    repeat = result["trajectory"][1]
    assert repeat["kind"] == "repeat"
    assert "already ran Search[The Prestige (film)] at step 1" in repeat["observation"]
    assert result["repeats"] == 1 and result["tool_calls"] == 2
    assert result["status"] == "verified"


def test_endless_repeats_stop_for_lack_of_progress(db_path: Path) -> None:
    result = run([SEARCH_PRESTIGE], db_path, max_repeats=2)
    assert result["status"] == "budget_exhausted"
    assert result["stop_reason"] == "repeated_actions"
    assert result["repeats"] == 3 and result["tool_calls"] == 1


def test_repeated_lookup_moves_to_the_next_match_and_is_not_a_repeat(db_path: Path) -> None:
    replies = [
        SEARCH_PRESTIGE,
        "Thought: a\nAction: Lookup[Nolan]",
        "Thought: b\nAction: Lookup[Nolan]",
        SEARCH_NOLAN,
        FINISH_1970,
    ]
    result = run(replies, db_path)
    first, second = result["trajectory"][1], result["trajectory"][2]
    assert first["observation"].startswith("(Result 1 / ")
    assert second["observation"].startswith("(Result 2 / ")
    assert result["repeats"] == 0


class FailingModel(ScriptedReActModel):
    """Fails every call, like a provider that is down."""

    def _generate(self, *args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("provider unreachable")


def test_model_failure_ends_in_error_and_the_episode_resumes(db_path: Path) -> None:
    deps = AgentDeps(
        environment_factory=lambda ctx: build_agent_env(ctx),
        environment_keys=("source",),
        model=FailingModel(responses=["x"]),
        model_backoff_s=0.0,
    )
    saver = open_checkpointer(db_path)
    failing = build_graph("wikipedia", deps).compile(checkpointer=saver, name="wikipedia-agent")
    result = run_episode(failing, DEMO_QUESTION, WikipediaContext())
    assert result["status"] == "error"
    assert "provider unreachable" in result["stop_reason"]
    healthy = build_agent("wikipedia", saver, model=ScriptedReActModel(responses=DEMO_REPLIES))
    resumed = resume_episode(healthy, result["thread_id"], WikipediaContext())
    assert resumed["status"] == "verified"


def build_agent_env(ctx: Any) -> Any:
    from graph.agent import wikipedia_environment

    return wikipedia_environment(ctx)


def test_graph_shape_is_pinned() -> None:
    expected = (ROOT / "tests" / "data" / "graph.mmd").read_text()
    assert build_agent("wikipedia").get_graph().draw_mermaid() == expected


KILL_AFTER_STEP_2 = """
import os, sys
from graph.agent import build_agent
from graph.settings.context import WikipediaContext
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel, turn_index


class DiesAtTurnThree(ScriptedReActModel):
    def _generate(self, messages, stop=None, run_manager=None, **kwargs):
        if turn_index(messages) == 2:
            os._exit(9)
        return super()._generate(messages, stop, run_manager, **kwargs)


agent = build_agent("wikipedia", open_checkpointer(sys.argv[1]),
                    model=DiesAtTurnThree(responses=DEMO_REPLIES))
ctx = WikipediaContext(model="scripted:" + sys.argv[2])
run_episode(agent, DEMO_QUESTION, ctx, thread_id=sys.argv[3])
"""


KILL_WHILE_STREAMING = """
import os, sys
from graph.agent import build_agent
from graph.settings.context import WikipediaContext
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.testing import DEMO_QUESTION


def die_on_third_proposal(event):
    if event.get("event") == "proposal" and event.get("step") == 3:
        os._exit(9)


agent = build_agent("wikipedia", open_checkpointer(sys.argv[1]))
ctx = WikipediaContext(model="scripted:" + sys.argv[2])
run_episode(agent, DEMO_QUESTION, ctx, thread_id=sys.argv[3], on_event=die_on_third_proposal)
"""


def kill_then_resume(db_path: Path, tmp_path: Path, program: str) -> dict[str, Any]:
    """Run `program` until it kills itself, then resume the thread from a second process."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps(DEMO_REPLIES))
    thread_id = "5b7f9a6e-0c1d-4e53-9a77-2f0b1d6c3e11"
    command = [sys.executable, "-c", program, str(db_path), str(script), thread_id]
    killed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert killed.returncode == 9, killed.stderr
    agent = build_agent("wikipedia", open_checkpointer(db_path))
    paused = agent.get_state(RunnableConfig(configurable={"thread_id": thread_id}))
    # Wikipedia runs save asynchronously: a kill may land before the last step's save.
    assert len(paused.values["steps"]) in (1, 2) and paused.values["status"] == "running"
    resumed = subprocess.run(
        [sys.executable, "-m", "graph.cli", "resume", thread_id, "--db", str(db_path), "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert resumed.returncode == 0, resumed.stderr
    return dict(json.loads(resumed.stdout))


@pytest.mark.slow
@pytest.mark.parametrize(
    "program",
    [KILL_AFTER_STEP_2, KILL_WHILE_STREAMING],
    ids=["killed-in-the-model-call", "killed-while-streaming"],
)
def test_killed_episode_resumes_from_a_second_process_with_the_same_trajectory(
    db_path: Path, tmp_path: Path, program: str
) -> None:
    after = kill_then_resume(db_path, tmp_path, program)
    straight = run(DEMO_REPLIES, tmp_path / "straight.sqlite3")
    assert after["status"] == straight["status"] == "verified"
    assert comparable(after["trajectory"]) == comparable(straight["trajectory"])
