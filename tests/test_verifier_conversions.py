"""A measure and its conversion side by side ("8,849 metres (29,032 ft) tall") are one
measure: either, in either unit, answers the question; any other number is still a
rival."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check

from graph.verifier.read.conversions import converts

EVEREST = "Mount Everest is 8,849 metres (29,032 ft) tall, the highest mountain above sea level."
NILE = "The Nile is 6,650 km (4,130 mi) long, and its basin covers 3,400,000 km2 of Africa."


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("How tall is Mount Everest?", "8,849 metres"),
        ("How tall is Mount Everest?", "8849 m"),
        ("How tall is Mount Everest?", "29,032 feet"),
        ("How long is the Nile?", "6,650 km"),
        ("How long is the Nile?", "4,130 miles"),
    ],
)
def test_either_unit_of_a_converted_measure_is_verified(question: str, answer: str) -> None:
    store = Store()
    store.add_text("Mount Everest", EVEREST)
    store.add_text("Nile", NILE)
    verdict = check(store, question, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]


def test_a_number_that_is_no_conversion_is_still_a_rival() -> None:
    store = Store()
    store.add_text("Nile", NILE)
    assert check(store, "How long is the Nile?", "3,400,000")["outcome"] != "verified"


@pytest.mark.parametrize(
    ("sentence", "number", "answer", "expected"),
    [
        (EVEREST, "29032", ("8849",), True),
        (EVEREST, "8849", ("29032", "ft"), True),
        (NILE, "3400000", ("6650",), False),  # not side by side
        ("It is 5 km and 10 km long.", "10", ("5",), False),  # the same unit twice
        ("It rose 300 m in 1950 (12 ft a year).", "12", ("300",), False),  # words between
    ],
)
def test_a_conversion_is_the_next_number_in_another_unit(
    sentence: str, number: str, answer: tuple[str, ...], expected: bool
) -> None:
    from graph.verifier.read.relation import locate

    [span] = locate(sentence, (number,))
    assert converts(sentence, span, answer) is expected
