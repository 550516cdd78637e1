"""One checker interface at the verifier's edge: the rules, the judge, the rules then the
judge; each says what it spent, and the judge keeps within its allowance."""

from __future__ import annotations

import pytest
from verifier_utils import Store

from graph.testing import ScriptedReActModel
from graph.verifier import GROUNDING_JUDGED, verify_answer
from graph.verifier.checkers import Allowance, Judge, Rules, RulesThenJudge, checker_for

QUESTION = "Which Pakistani cricketer was born in Faisalabad?"
AGREE = "VERDICT: SUPPORTED"


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add("Aqeel Ahmed (cricketer)", 0, 2)
    return store


def test_the_rules_alone_give_verify_answer_s_verdict_and_call_nothing(store: Store) -> None:
    judged = Rules().check(QUESTION, "Aqeel Ahmed", store.evidence)
    assert judged.verdict == verify_answer(QUESTION, "Aqeel Ahmed", store.evidence)
    assert not judged.called and judged.input_tokens == 0


def test_the_rules_then_the_judge_confirm_a_stated_answer(store: Store) -> None:
    model = ScriptedReActModel(responses=[AGREE])
    judged = checker_for(verify_answer, model).check(QUESTION, "Aqeel Ahmed", store.evidence)
    assert judged.called and judged.verdict["grounding"] == GROUNDING_JUDGED
    assert judged.verdict["outcome"] == "verified" and judged.input_tokens > 0


def test_a_rejection_never_reaches_the_judge(store: Store) -> None:
    model = ScriptedReActModel(responses=[AGREE])
    checker = RulesThenJudge(Rules(), Judge(model))
    judged = checker.check(QUESTION, "Imran Khan", store.evidence)
    assert judged.verdict["outcome"] == "rejected" and not judged.called


def test_no_call_is_made_once_the_allowance_is_spent(store: Store) -> None:
    checker = RulesThenJudge(Rules(), Judge(ScriptedReActModel(responses=[AGREE])))
    spent = Allowance(calls=0, exhausted="the model turn budget (3) is spent")
    judged = checker.check(QUESTION, "Aqeel Ahmed", store.evidence, spent)
    assert not judged.called and "model turn budget (3) is spent" in judged.note
    assert judged.verdict == verify_answer(QUESTION, "Aqeel Ahmed", store.evidence)


def test_the_judge_alone_is_asked_about_every_stored_sentence(store: Store) -> None:
    judged = Judge(ScriptedReActModel(responses=[AGREE])).check(
        QUESTION, "Aqeel Ahmed", store.evidence
    )
    assert judged.called and judged.verdict["outcome"] == "verified"
    assert judged.verdict["evidence_ids"] == [item["id"] for item in store.evidence]


def test_without_a_judge_model_the_checker_is_the_rules(store: Store) -> None:
    assert isinstance(checker_for(verify_answer, None), Rules)
