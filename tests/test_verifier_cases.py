"""The benchmark's hard negatives: answer kinds, same-kind spans and the cases built."""

from __future__ import annotations

import random

import pytest

from graph.evaluation.spans import NAME, NUMBER, OTHER, YEAR, YES_NO, answer_kind, spans
from graph.evaluation.verifier_cases import build_cases, choice_swap, load_pages, span_swaps
from tools.wikipedia.snapshot import shared_snapshot

NOLAN = (
    "Christopher Edward Nolan ( ; born 30 July 1970) is an English-American film director,"
    " producer, and screenwriter."
)


@pytest.mark.parametrize(
    ("answer", "kind"),
    [
        ("yes", YES_NO),
        ("No", YES_NO),
        ("1970", YEAR),
        ("July 30, 1970", YEAR),
        ("30 July 1970", YEAR),
        ("108,249", NUMBER),
        ("seven", NUMBER),
        ("3.4 billion", NUMBER),
        ("Walt Disney Pictures", NAME),
        ("Big Hero 6", NAME),
        ("goalie", OTHER),
    ],
)
def test_answer_kinds(answer: str, kind: str) -> None:
    assert answer_kind(answer) == kind


def test_spans_of_each_kind_in_a_real_sentence() -> None:
    assert spans(YEAR, NOLAN, like="1999") == ["1970"]
    assert spans(YEAR, NOLAN, like="July 30, 1970") == ["30 July 1970"]
    assert spans(NAME, NOLAN) == ["Christopher Edward Nolan", "English-American"]
    text = "Lee Roy Selmon (October 20, 1954 – September 4, 2011) played for 9 seasons in the NFL."
    assert spans(NAME, text) == ["Lee Roy Selmon", "NFL"]
    assert spans(NUMBER, text) == ["9"]


def test_a_swap_shares_no_word_with_the_gold_answer_and_is_not_in_the_question() -> None:
    question = {
        "question": "In what year was the director of The Prestige, Christopher Nolan, born?",
        "answer": "1970",
    }
    facts = [("Christopher Nolan", 0, NOLAN + " He directed films in 1998 and 2000.")]
    swaps = span_swaps(question, facts, random.Random(1))
    assert sorted(swaps) == ["1998", "2000"]
    question["answer"] = "Christopher Nolan"
    question["question"] = "Who directed The Prestige?"
    assert (
        span_swaps(question, [("The Prestige", 0, "The Prestige by Nolan Films")], random.Random(1))
        == []
    )


def test_cases_use_an_episode_evidence_for_hard_negatives() -> None:
    question = {
        "_id": "q",
        "question": "Are King Vidor and Géza von Cziffra both film directors?",
        "answer": "yes",
        "type": "comparison",
        "supporting_facts": [["King Vidor", 0], ["Géza von Cziffra", 0]],
        "context_titles": ["King Vidor", "Géza von Cziffra", "Third from the Right"],
    }
    pages = load_pages(["King Vidor", "Géza von Cziffra", "Third from the Right"])
    cases = {case["case"]: case for case in build_cases([question], pages)}
    assert cases["yes_no_swap"]["answer"] == "no" and not cases["yes_no_swap"]["label"]
    assert len(cases["positive"]["evidence"]) == 2
    episode = cases["episode_positive"]["evidence"]
    assert len(episode) > 2 and episode is cases["yes_no_swap"]["evidence"]
    assert [e["source"]["sentence_index"] for e in episode[:2]] == [0, 1]
    context = cases["episode_positive"]["context_evidence"]
    assert context[: len(episode)] == episode and len({e["id"] for e in context}) == len(context)
    assert [e["text"] for e in context[len(episode) :]] == pages["third from the right"][1]


def test_a_case_titles_its_evidence_as_search_does() -> None:
    """The data escapes HTML in titles ("Simon &amp; Simon"); Search shows the title
    unescaped, and so must the bench's evidence, or no question names its page."""
    pages = load_pages(["Simon &amp; Simon", "Simon & Simon"])
    assert [title for title, _ in pages.values()] == ["Simon & Simon"]
    page = shared_snapshot().page("Simon & Simon")
    assert page is not None and page.title == "Simon & Simon"


def test_a_choice_swap_is_the_other_gold_page() -> None:
    question = {
        "question": "Which composer was born first, Antonín Dvořák or Giuseppe Verdi?",
        "answer": "Giuseppe Fortunino Francesco Verdi",
        "type": "comparison",
        "supporting_facts": [["Antonín Dvořák", 0], ["Giuseppe Verdi", 0]],
    }
    assert choice_swap(question) == "Antonín Dvořák"
    question["question"] = "Are Antonín Dvořák and Giuseppe Verdi both composers?"
    assert choice_swap(question) is None
