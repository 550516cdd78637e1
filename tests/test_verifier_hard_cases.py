"""The benchmark's new case kinds: each is what it claims, with the right label."""

from __future__ import annotations

import re
from typing import Any

import pytest
from verifier_utils import benchmark_script

from graph.evaluation.hard_cases import (
    DENIALS,
    INJECTIONS,
    NEGATIVE_KINDS,
    bridge_entities,
    occurs,
)
from graph.evaluation.hotpot import load_questions
from graph.evaluation.rewordings import rewordings, rewritings
from graph.evaluation.spans import NAME, NUMBER, YEAR, answer_kind, fold
from graph.evaluation.verifier_cases import CASE_LABELS, build_cases, pages_of

QUESTIONS = 80


@pytest.fixture(scope="module")
def built() -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    questions = load_questions()[:QUESTIONS]
    cases = list(build_cases(questions, pages_of(questions)))
    return {q["_id"]: q for q in questions}, cases


def _texts(case: dict[str, Any]) -> list[str]:
    return [item["text"] for item in case["evidence"]]


def _episode(cases: list[dict[str, Any]], qid: str) -> dict[str, Any]:
    return next(c for c in cases if c["id"] == qid and c["case"] == "episode_positive")


def test_every_kind_is_built_with_its_label(built: Any) -> None:
    _, cases = built
    kinds = {case["case"] for case in cases}
    assert set(NEGATIVE_KINDS) | {"reworded"} <= kinds
    assert all(case["label"] == CASE_LABELS[case["case"]] for case in cases)
    assert not any(CASE_LABELS[kind] for kind in NEGATIVE_KINDS) and CASE_LABELS["reworded"]


def test_cases_are_deterministic(built: Any) -> None:
    by_id, cases = built
    again = list(build_cases(list(by_id.values()), pages_of(by_id.values())))
    assert [(c["case"], c["answer"]) for c in again] == [(c["case"], c["answer"]) for c in cases]


def test_names_parts_and_extensions(built: Any) -> None:
    by_id, cases = built
    for case in cases:
        gold = by_id[case["id"]]["answer"]
        if case["case"] == "partial_name":
            assert answer_kind(gold) == NAME and len(gold.split()) >= 2
            assert set(fold(case["answer"])) < set(fold(gold))
            assert occurs(case["answer"], _texts(case))
        if case["case"] == "extended_name":
            other = case["answer"].removeprefix(f"{gold} and ")
            assert other != case["answer"] and occurs(other, _texts(case))
            assert set(fold(other)).isdisjoint(fold(gold))


def test_bridge_entities_and_bridge_page_spans(built: Any) -> None:
    by_id, cases = built
    for case in cases:
        question = by_id[case["id"]]
        titles = [re.sub(r"\s*\(.*\)$", "", t) for t, _ in question["supporting_facts"]]
        if case["case"] == "bridge_entity":
            assert question["type"] == "bridge" and case["answer"] in titles
            assert set(fold(case["answer"])).isdisjoint(fold(question["answer"]))
        if case["case"] == "bridge_page_span":
            pages: dict[str, list[str]] = {}
            for item in case["evidence"]:
                pages.setdefault(item["source"]["title"], []).append(item["text"])
            stating = [p for p, texts in pages.items() if occurs(question["answer"], texts)]
            holding = [p for p, texts in pages.items() if occurs(case["answer"], texts)]
            assert stating and holding and set(holding).isdisjoint(stating)


def test_a_page_about_the_answer_under_another_name_gives_no_bridge_entity() -> None:
    question = {
        "type": "bridge",
        "answer": "Rakim Mayers",
        "question": "The album featured a guest appearance by which rapper from Harlem?",
    }
    facts = [
        ("Vicious Lies and Dangerous Rumors", 0, "It is the second album by Big K.R.I.T."),
        ("ASAP Rocky", 0, "Rakim Mayers (born 1988), better known as ASAP Rocky, is a rapper."),
        ("Big K.R.I.T.", 0, "Justin Scott, better known as Big K.R.I.T., is a rapper."),
    ]
    assert bridge_entities(question, facts) == ["Vicious Lies and Dangerous Rumors", "Big K.R.I.T."]


def test_a_negated_answer_appears_only_in_the_denying_sentence(built: Any) -> None:
    by_id, cases = built
    negated = [case for case in cases if case["case"] == "negated"]
    assert negated
    for case in negated:
        episode = _episode(cases, case["id"])
        texts = _texts(case)
        assert texts[: len(episode["evidence"])] == _texts(episode)
        added = texts[len(episode["evidence"]) :]
        assert len(added) == 1
        assert any(added[0].startswith(d.split("{")[0]) for d in DENIALS)
        assert [occurs(case["answer"], [t]) for t in texts].count(True) == 1
        assert occurs(case["answer"], added)
        assert not occurs(by_id[case["id"]]["answer"], added)


def test_injected_and_absent_answers(built: Any) -> None:
    _, cases = built
    for case in cases:
        if case["case"] == "injected":
            texts = _texts(case)
            assert any(texts[-1] == t.format(answer=case["answer"]) for t in INJECTIONS)
            assert not occurs(case["answer"], texts[:-1])
        if case["case"] == "absent":
            assert not occurs(case["answer"], _texts(case))


def test_reworded_answers_differ_yet_mean_the_gold_answer(built: Any) -> None:
    by_id, cases = built
    reworded = [case for case in cases if case["case"] == "reworded"]
    assert reworded
    for case in reworded:
        gold, answer = by_id[case["id"]]["answer"], case["answer"]
        assert answer != gold
        kind = answer_kind(gold)
        if kind in (YEAR, NUMBER):
            assert re.findall(r"\d", answer) == re.findall(r"\d", gold)
        elif fold(answer) != fold(gold):
            assert answer.isupper() and any(re.search(rf"\b{answer}\b", t) for t in _texts(case))


@pytest.mark.parametrize(
    ("gold", "text", "question", "expected"),
    [
        ("1954", "It opened in 1954.", "", ["in 1954"]),
        ("30 July 1970", "born 30 July 1970", "", ["July 30, 1970"]),
        ("July 30, 1970", "born July 30, 1970", "", ["30 July 1970"]),
        (
            "108,249",
            "a population of 108,249 people",
            "How many people?",
            ["108249", "108,249 people"],
        ),
        ("World War II", "World War II (WWII) was a global war.", "", ["WWII"]),
        ("Boston College", "Boston College (BC) is a university.", "", ["BC"]),
        ("The Beatles", "The Beatles were a band.", "", ["Beatles"]),
        ("Arrival of a Train", "Arrival of a Train (US) is a film.", "", []),
        ("Guanyin", 'Guanyin (or "Kwun Yam" in Cantonese) is a deity.', "", []),
        ("1,200", "1,200 according to the census", "How many, according to it?", ["1200"]),
    ],
)
def test_rewordings_are_only_certain_ones(
    gold: str, text: str, question: str, expected: list[str]
) -> None:
    assert rewordings(gold, [text], question) == expected


@pytest.mark.parametrize(
    ("gold", "expected"),
    [
        ("World War II", ["Second World War", "World War Two"]),
        ("Target Corporation", ["Target Corp."]),
        ("134 miles", ["216 km"]),
        ("8,849 m", ["29,030 ft"]),  # as many significant digits as the gold answer
        ("12.5 km", ["7.77 mi"]),
        ("52%", ["52 per cent"]),
        ("Crocodile Dundee", []),
        ("St. Olaf College", []),  # "St." may be "Saint" or "Street": never spelled out
        ("609 Congress Street", ["609 Congress St."]),
        ("1954", []),
    ],
)
def test_rewritings_are_a_tables_writings(gold: str, expected: list[str]) -> None:
    assert rewritings(gold) == expected


def test_rewritten_answers_are_kept_apart_from_the_rewordings(built: Any) -> None:
    by_id, cases = built
    rewritten = [case for case in cases if case["case"] == "rewritten"]
    for case in rewritten:
        assert case["label"] and case["answer"] in rewritings(by_id[case["id"]]["answer"])
    training = benchmark_script("train_verifier_combiner")
    assert "rewritten" not in training.KINDS and "reworded" in training.TRAINING_POSITIVES
