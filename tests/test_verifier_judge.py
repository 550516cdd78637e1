"""The optional judge model: asked only after the rules accept, read strictly, and
charged to the episode's budgets; scripted judges agree, disagree, babble or time out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from verifier_utils import Store, check

from graph.agent import build_agent
from graph.context import WikipediaContext
from graph.runner import open_checkpointer, run_episode
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel
from graph.verifier import GROUNDING_JUDGED, GROUNDING_NONE
from graph.verifier.judge import Judgement, judge, parse_reply
from tools.base import Verdict

AGREE = "VERDICT: SUPPORTED"
DISAGREE = "VERDICT: NOT SUPPORTED"
GARBAGE = "I think so, probably. VERDICT: SUPPORTED"


@pytest.fixture
def accepted() -> tuple[Store, Verdict]:
    store = Store()
    store.add("Christopher Nolan", 0)
    verdict = check(store, "When was Christopher Nolan born?", "30 July 1970")
    assert verdict["supported"]
    return store, verdict


@pytest.mark.parametrize(
    ("reply", "read"),
    [
        (AGREE, True),
        (DISAGREE, False),
        ("  verdict: supported\n", True),
        (GARBAGE, None),
        ("VERDICT: SUPPORTED\nREASON: it says so", None),
        ("yes", None),
        ("", None),
    ],
)
def test_the_reply_format_is_strict(reply: str, read: bool | None) -> None:
    assert parse_reply(reply) is read


def _judge(store: Store, verdict: Verdict, model: ScriptedReActModel, **kw: Any) -> Judgement:
    question = "When was Christopher Nolan born?"
    return judge(model, question, "30 July 1970", verdict, store.evidence, **kw)


def test_an_agreeing_judge_confirms(accepted: tuple[Store, Verdict]) -> None:
    store, verdict = accepted
    judged = _judge(store, verdict, ScriptedReActModel(responses=[AGREE]))
    assert judged.verdict["supported"] and judged.verdict["grounding"] == GROUNDING_JUDGED
    assert judged.verdict["evidence_ids"] == verdict["evidence_ids"]
    assert judged.input_tokens > 0 and judged.output_tokens == 2


@pytest.mark.parametrize(
    ("model", "reason"),
    [
        (ScriptedReActModel(responses=[DISAGREE]), "do not state"),
        (ScriptedReActModel(responses=[GARBAGE]), "could not be read"),
        (ScriptedReActModel(responses=[AGREE], delay_s=2.0), "no reply within 0.2 s"),
    ],
    ids=["disagree", "garbage", "timeout"],
)
def test_a_judge_that_does_not_agree_leaves_the_answer_unverified(
    accepted: tuple[Store, Verdict], model: ScriptedReActModel, reason: str
) -> None:
    store, verdict = accepted
    judged = _judge(store, verdict, model, timeout_s=0.2)
    assert not judged.verdict["supported"] and judged.verdict["grounding"] == GROUNDING_NONE
    assert reason in judged.verdict["reason"]


def test_a_rejected_answer_is_never_sent_to_the_judge() -> None:
    store = Store()
    store.add("Christopher Nolan", 0)
    verdict = check(store, "When was Christopher Nolan born?", "1971")
    judged = judge(ScriptedReActModel(responses=[AGREE]), "q", "1971", verdict, store.evidence)
    assert not judged.called and judged.verdict == verdict


def _episode(db: Path, tmp_path: Path, judge_reply: str, **settings: Any) -> dict[str, Any]:
    script = tmp_path / "judge.json"
    script.write_text(json.dumps([judge_reply]), encoding="utf-8")
    agent = build_agent(
        "wikipedia", open_checkpointer(db), model=ScriptedReActModel(responses=DEMO_REPLIES)
    )
    ctx = WikipediaContext(judge=f"scripted:{script}", **settings)
    return run_episode(agent, DEMO_QUESTION, ctx)


def test_the_judge_call_counts_as_a_model_turn_and_in_tokens(db_path: Path, tmp_path: Path) -> None:
    result = _episode(db_path, tmp_path, AGREE)
    assert result["status"] == "verified"
    assert result["verdict"]["grounding"] == GROUNDING_JUDGED
    assert result["model_calls"] == len(DEMO_REPLIES) + 1
    without = run_episode(
        build_agent(
            "wikipedia",
            open_checkpointer(tmp_path / "plain.sqlite3"),
            model=ScriptedReActModel(responses=DEMO_REPLIES),
        ),
        DEMO_QUESTION,
        WikipediaContext(),
    )
    assert result["tokens"]["input"] > without["tokens"]["input"]


def test_a_disagreeing_judge_sends_the_answer_back_and_the_episode_ends_unverified(
    db_path: Path, tmp_path: Path
) -> None:
    result = _episode(db_path, tmp_path, DISAGREE)
    assert result["status"] == "unverified"
    finishes = [step for step in result["trajectory"] if step["action"] == "Finish"]
    assert finishes and all(step["kind"] == "unsupported" for step in finishes)
    assert "judge model found" in finishes[0]["observation"]


def test_no_judge_is_asked_once_the_model_turn_budget_is_spent(
    db_path: Path, tmp_path: Path
) -> None:
    result = _episode(db_path, tmp_path, AGREE, max_model_turns=len(DEMO_REPLIES))
    assert result["status"] != "verified"
    finish = next(step for step in result["trajectory"] if step["action"] == "Finish")
    assert "could not be asked" in finish["observation"]
    assert result["model_calls"] == len(DEMO_REPLIES)
