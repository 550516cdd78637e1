"""An answer keeps its verdict however it is dressed: quotes or Markdown emphasis around
it, and the evidence it cites after it ("[E3]"), are no part of it, and a name typed in
lower case is read as the evidence writes it (so a wrong span or a part of a name cannot
pass by losing its capitals)."""

from __future__ import annotations

import time

import pytest
from verifier_utils import Store, check

from graph.verifier.answer_forms import core_answer
from graph.verifier.text.casing import written_as_stated


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ('"Tromsø"', "Tromsø"),
        ("**Tromsø**", "Tromsø"),
        ('*"Tromsø"*', "Tromsø"),
        ("`Tromsø`", "Tromsø"),
        ("“Tromsø”", "Tromsø"),
        ('The answer is "Tromsø".', "Tromsø"),
        ('"Heroes" and "Low"', '"Heroes" and "Low"'),
        ("**Paris** and **Rome**", "**Paris** and **Rome**"),
        ('"Robert "Throb" Young"', 'Robert "Throb" Young'),
        ("**a *b* c**", "a *b* c"),
        ("“A “b” c”", "A “b” c"),
        ("'Allo 'Allo!", "'Allo 'Allo!"),
        ('""', '""'),
        ("*", "*"),
        ("Tromsø [E3]", "Tromsø"),
        ("Tromsø (E3, E5).", "Tromsø"),
        ("Tromsø (source: E3)", "Tromsø"),
        ("Tromsø [1][2]", "Tromsø"),
        ('"Tromsø" [E3]', "Tromsø"),
        ("Rocky (1976)", "Rocky (1976)"),
        ("[E3]", "[E3]"),
        ("It was Tromsø.", "Tromsø"),
        ("ANSWER: Tromsø", "Tromsø"),
        ("The answer: Tromsø", "Tromsø"),
        ("Answer - Tromsø", "Tromsø"),
        ("I think it was Tromsø.", "Tromsø"),
        ("Tromsø is the answer.", "Tromsø"),
        ("It Was a Very Good Year", "It Was a Very Good Year"),
        ("I Think I Love You", "I Think I Love You"),
        ("The Answer – Live", "The Answer – Live"),
        ("Tromsø, according to the evidence.", "Tromsø"),
        ("Tromsø, as stated in E3", "Tromsø"),
        ("Tromsø as the evidence shows", "Tromsø"),
        ("The Gospel According to Matthew", "The Gospel According to Matthew"),
        ("Rome, according to legend", "Rome, according to legend"),
        ("Tromsø (source: Wikipedia)", "Tromsø"),
        ("Tromsø [via the Britannica].", "Tromsø"),
        ("Tromsø (according to its article)", "Tromsø"),
        ("The Source (magazine)", "The Source (magazine)"),
        ("A: Tromsø", "Tromsø"),
        ("A Tromsø", "A Tromsø"),
        ("Tromsø (I think)", "Tromsø"),
        ("\\boxed{Tromsø}", "Tromsø"),
        ('{"answer": "Tromsø"}', "Tromsø"),
        ('{"answer": true}', '{"answer": true}'),
        ("The evidence says so.\nFinal answer: Tromsø", "Tromsø"),
        ("Answer: Tromsø\nBecause E3 says so.", "Tromsø"),
    ],
)
def test_quotes_emphasis_announcements_and_cited_evidence_are_dropped(
    said: str, answer: str
) -> None:
    assert core_answer(said) == answer


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("tromsø", "Tromsø"),  # the sentences write it capitalised only
        ("selmasongs", "Selmasongs"),  # a stored page's title, though only opening sentences
        ("earle hagen", "Earle Hagen"),  # written apart: "Earle Harry Hagen"
        ("gold", "gold"),  # a sentence writes it in lower case
        ("federal research", "federal research"),  # not every word capitalised
        ("tromsø and earle hagen", "Tromsø and Earle Hagen"),  # names joined, each so
        ("the connells and raleigh", "The Connells and Raleigh"),  # a title, then a name
        ("tromsø, gold and selmasongs", "tromsø, gold and selmasongs"),  # not every one
        ("yes", "yes"),
    ],
)
def test_a_lower_case_answer_is_read_as_the_evidence_writes_it(said: str, written: str) -> None:
    sentences = [
        "He played for Tromsø and found gold near the Gold Rush town.",
        "Selmasongs: Music from the film.",
        "The score is by Earle Harry Hagen, whom Earle Hagen Jr. praised.",
        "Yes is a band; Federal funds paid for research.",
        "The Connells are a band from Raleigh, in the state.",
    ]
    titles = ["Selmasongs (album)", "The Connells"]
    assert written_as_stated(said, sentences, titles) == written


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add_text("Eddie Izzard", "Eddie Izzard is an English stand-up comedian and actor.")
    store.add_text(
        "Eddie Izzard", "In 2009 Izzard ran 43 marathons in 51 days for Sport Relief.", 1
    )
    return store


QUESTION = "Which English comedian ran 43 marathons in 51 days?"


@pytest.mark.parametrize(
    "answer", ["Eddie", "Sport Relief", "Eddie Izzard", "Izzard", 'Eddie "The Runner" Izzard']
)
@pytest.mark.parametrize(
    "dress",
    [
        '"{}"',
        "**{}**",
        "{}.",
        "{} [E1]",
        "{} (E1, E2)",
        "It was {}.",
        "ANSWER: {}",
        "{} is the answer.",
        "I believe the answer is {}.",
        "Based on the evidence, the answer is {}",
        "The comedian is {}.",
        "The English comedian was {}",
        "the comedian {}",
        "Probably {}",
        "**Answer:** {}",
        "{}\n\nExplanation: stated in E1.",
        "<b>{}</b>",
        "[{}](https://en.wikipedia.org/wiki/Answer)",
        "{} (source: Wikipedia)",
        "A: {}",
        "Sure! It's {}.",
        "Here is the answer: {}",
        "1. {}",
        "{} (I think)",
        "\\boxed{{{}}}",
        "I read the pages.\n**Answer:** {}",
    ],
)
def test_a_dressed_answer_has_the_verdict_of_the_plain_one(
    store: Store, answer: str, dress: str
) -> None:
    plain = check(store, QUESTION, answer)
    dressed = check(store, QUESTION, dress.format(answer))
    assert (dressed["outcome"], dressed["grounding"]) == (plain["outcome"], plain["grounding"])


@pytest.mark.parametrize(
    "answer", ["Eddie", "Sport Relief", "Eddie Izzard", "Eddie Izzard and Sport Relief"]
)
def test_a_name_in_lower_case_has_the_verdict_of_the_name(store: Store, answer: str) -> None:
    plain = check(store, QUESTION, answer)
    lowered = check(store, QUESTION, answer.lower())
    assert lowered["outcome"] == plain["outcome"], (plain["reason"], lowered["reason"])


def test_a_capitalised_common_answer_is_read_as_the_evidence_writes_it() -> None:
    # "Role-playing" was read as a name, a modifier where a game is asked, and rejected.
    store = Store()
    store.add_text("Fallout (series)", "Fallout is a series of role-playing video games.")
    store.add_text("Fallout (series)", "The series was created by Interplay.", 1)
    question = "What type of video game is the Fallout series?"
    plain = check(store, question, "role-playing")
    capitalised = check(store, question, "Role-playing")
    assert (capitalised["outcome"], plain["outcome"]) == ("verified", "verified")


@pytest.mark.parametrize(
    "answer",
    [
        "a" + " [1]" * 16_000 + " x",
        "a" + " " * 64_000 + "is",
        "“" * 32_000 + "x" + "”" * 32_000,
        "It is " * 16_000 + "x",
        '{"answer": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "\\boxed{" * 50_000 + "x" + "}" * 50_000,
        "x\nAnswer: " * 50_000,
    ],
)
def test_hostile_dress_costs_time_in_proportion_to_its_length(answer: str) -> None:
    started = time.monotonic()
    core_answer(answer)
    # Searching every position for an ending, or unwrapping mark by mark, took over a
    # minute for the first of these; reading only the end and four marks is linear.
    assert time.monotonic() - started < 10.0


@pytest.mark.parametrize(
    ("question", "title", "written"),
    [
        (
            "Which 1946 film starred James Stewart?",
            "It's a Wonderful Life",
            "It's a Wonderful Life is a 1946 film starring James Stewart.",
        ),
        (
            "Which football club plays in Cologne?",
            "1. FC Köln",
            "1. FC Köln is a football club that plays in Cologne.",
        ),
    ],
)
def test_a_title_that_opens_as_a_lead_in_is_kept_whole(
    question: str, title: str, written: str
) -> None:
    store = Store()
    store.add_text(title, written)
    verdict = check(store, question, title)
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert repr(title) in verdict["reason"] or f'"{title}"' in verdict["reason"], verdict
