"""What a question describes and what it joins: the described-bridge rule reads only the
head of what the answer's article says it is, a closing "what is the N?" asks for the N
it describes, and a conjunction between aliases is no pair of alternatives."""

from __future__ import annotations

import random
import time

import pytest
from verifier_utils import Leads

from graph.verifier.kinds.described import described_nouns, is_described_bridge
from graph.verifier.kinds.question import (
    _ALIAS_ADVERBS,
    _ALIAS_LEADS,
    _ALIAS_WORDS,
    NAME_CONNECTORS,
    _alias_opened,
    _is_named,
    analyse_question,
)

QUESTION = "who took over from the head of the rowing federation that was founded in 1892?"


def test_a_noun_after_the_head_of_the_answers_description_is_not_what_it_is() -> None:
    leads = Leads(
        {
            "Ann Holt": "Ann Holt (born 1950) is a Dutch lawyer and sports official who is"
            " the current head of the Rowing Federation, the sport's governing body.",
            "Lake Union": "Lake Union is a rowing and sailing federation founded in 1892.",
        }
    )
    assert described_nouns(QUESTION, "") == {"federation"}
    assert is_described_bridge("Ann Holt", QUESTION, "", leads) is None
    assert is_described_bridge("Lake Union", QUESTION, "", leads) == "federation"


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("The firm sits next to an airport known as Kloten, what is the airport?", "airport"),
        ("A gang that was based in a port; which was the gang?", "gang"),
    ],
)
def test_a_closing_what_is_the_noun_asks_for_the_noun_it_describes(
    question: str, asked: str
) -> None:
    leads = Leads({"Zurich Airport": "Zurich Airport is the largest airport of Switzerland."})
    assert asked not in described_nouns(question.casefold(), "")
    assert is_described_bridge("Zurich Airport", question.casefold(), "", leads) is None


@pytest.mark.parametrize(
    "question",
    [
        "the gang that was based, what is the gang" + " " * 200_000 + "?",
        "the gang that was based, what is the gang" + " " * 200_000 + "x",
        ", what is the gang ?" * 20_000,
    ],
)
def test_a_closing_question_is_read_in_time_in_proportion_to_its_length(question: str) -> None:
    started = time.monotonic()
    described_nouns(question, "")
    # Two runs of spaces before the end took 5 s for 32,000 spaces; one takes milliseconds.
    assert time.monotonic() - started < 10.0


@pytest.mark.parametrize(
    "question",
    [
        "The group, also known as simply SJ or SUJU, is a boy band of which nationality?",
        "Which city is the club, a.k.a. the Reds or the Pool, from?",
        "The band, sometimes called simply Hep or HepCats, came from which city?",
        "The duo, referred to as Sam and Dave, came from which state?",
    ],
)
def test_a_conjunction_between_one_things_names_is_no_pair(question: str) -> None:
    assert analyse_question(question).pair == ()


@pytest.mark.parametrize(
    ("question", "pair"),
    [
        (
            "Which band, known as the kings of surf, formed first, The Beach Boys or Jan and Dean?",
            (("beach", "boys"), ("jan", "and", "dean")),
        ),
        ("Is the drink known as Coke older than Pepsi or Fanta?", (("pepsi",), ("fanta",))),
    ],
)
def test_alternatives_after_an_alias_elsewhere_are_still_a_pair(
    question: str, pair: tuple[tuple[str, ...], ...]
) -> None:
    assert tuple(name.tokens for name in analyse_question(question).pair) == pair


def _scanned_back(words: tuple[str, ...], index: int) -> bool:
    """The definition: walk back over the name words before `index` to the word that
    opens them, and ask whether it is an alias frame."""
    lowered = [word.lower() for word in words]
    at = index - 1
    while at >= 0 and (
        _is_named(words[at]) or lowered[at] in NAME_CONNECTORS or lowered[at] in _ALIAS_ADVERBS
    ):
        at -= 1
    if at < 0:
        return False
    before = lowered[at - 1] if at else ""
    return (
        lowered[at] in _ALIAS_WORDS
        or (lowered[at] in ("as", "called") and before in _ALIAS_LEADS)
        or (lowered[at] == "." and before in _ALIAS_WORDS)
    )


def test_one_pass_over_the_words_finds_what_walking_back_from_each_finds() -> None:
    vocabulary: list[str] = ["Abc", "Xy", "and", "or", "of", "as", "known", "called", "also"]
    vocabulary += ["aka", "a.k.a", ".", "simply", ",", "which", "band", "to", "referred"]
    rng = random.Random(5)
    for _ in range(3000):
        words = tuple(rng.choice(vocabulary) for _ in range(rng.randint(0, 14)))
        lowered = [word.lower() for word in words]
        assert _alias_opened(words, lowered) == [
            _scanned_back(words, index) for index in range(len(words))
        ], words
