"""The judge model: asked about grounded answers and answers verified by statement, read
strictly, and charged to the episode's budgets; scripted judges agree (verified),
disagree (grounded, never rejected), babble or time out (the verdict stands)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from verifier_utils import Store, check

from graph.agent import build_agent
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import WikipediaContext
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel
from graph.verifier import GROUNDING_JUDGED
from graph.verifier.judge import Judgement, judge, parse_reply
from graph.verifier.verdicts import GROUNDING_COMPUTED, GROUNDING_STATED, ground
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


def test_a_disagreeing_judge_makes_the_answer_grounded_not_rejected(
    accepted: tuple[Store, Verdict],
) -> None:
    store, verdict = accepted
    judged = _judge(store, verdict, ScriptedReActModel(responses=[DISAGREE]))
    assert judged.verdict["outcome"] == "grounded" and not judged.verdict["supported"]
    assert judged.verdict["evidence_ids"] == verdict["evidence_ids"]
    assert "do not state" in judged.verdict["reason"] and judged.note == ""


@pytest.mark.parametrize(
    ("model", "note"),
    [
        (ScriptedReActModel(responses=[GARBAGE]), "could not be read"),
        (ScriptedReActModel(responses=[AGREE], delay_s=2.0), "no reply within 0.2 s"),
    ],
    ids=["garbage", "timeout"],
)
def test_a_judge_that_says_nothing_readable_leaves_the_verdict_as_it_was(
    accepted: tuple[Store, Verdict], model: ScriptedReActModel, note: str
) -> None:
    store, verdict = accepted
    judged = _judge(store, verdict, model, timeout_s=0.2)
    assert judged.verdict == verdict and note in judged.note


def test_a_grounded_answer_is_confirmed_by_an_agreeing_judge(
    accepted: tuple[Store, Verdict],
) -> None:
    store, verdict = accepted
    grounded = ground(verdict["evidence_ids"], "not tied", ["a tie"], GROUNDING_STATED)
    judged = _judge(store, grounded, ScriptedReActModel(responses=[AGREE]))
    assert judged.verdict["outcome"] == "verified" and judged.verdict["supported"]
    assert judged.verdict["grounding"] == GROUNDING_JUDGED


def test_a_computed_verdict_is_never_sent_to_the_judge(accepted: tuple[Store, Verdict]) -> None:
    store, verdict = accepted
    computed = Verdict(**(verdict | {"grounding": GROUNDING_COMPUTED}))
    judged = _judge(store, computed, ScriptedReActModel(responses=[DISAGREE]))
    assert not judged.called and judged.verdict == computed


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


def test_a_disagreeing_judge_sends_the_answer_back_once_and_the_episode_ends_grounded(
    db_path: Path, tmp_path: Path
) -> None:
    result = _episode(db_path, tmp_path, DISAGREE)
    assert result["status"] == "grounded" and result["stop_reason"] == "grounded"
    finishes = [step for step in result["trajectory"] if step["action"] == "Finish"]
    assert [step["kind"] for step in finishes] == ["grounded", "finish"]
    assert "judge model found" in finishes[0]["observation"]
    assert result["answer"] == "1970" and result["verdict"]["outcome"] == "grounded"
    assert result["verifier_rejections"] == 0 and result["grounded_returns"] == 1
    assert result["model_calls"] == len(DEMO_REPLIES) + 3  # two judge calls, one more turn


def test_no_judge_is_asked_once_the_model_turn_budget_is_spent(
    db_path: Path, tmp_path: Path
) -> None:
    result = _episode(db_path, tmp_path, DISAGREE, max_model_turns=len(DEMO_REPLIES))
    assert result["status"] == "verified" and result["verdict"]["grounding"] == GROUNDING_STATED
    finish = next(step for step in result["trajectory"] if step["action"] == "Finish")
    assert "could not be asked" in finish["observation"]
    assert result["model_calls"] == len(DEMO_REPLIES)
