"""A character that reads as a digit but is no decimal one (a Rumi or Kharosthi numeral,
"𐹡") is folded as a word: no verification fails on it, whatever it stands next to, while
the decimal digits of every script still fold to numbers."""

from __future__ import annotations

import sys

import pytest

from graph.verifier import verify_answer
from graph.verifier.text.normalise import analyse
from tools.base import Evidence

# Digits that are not decimal and that compatibility folding leaves as they are.
_NOT_DECIMAL = [
    char
    for char in map(chr, range(0x80, sys.maxunicode + 1))
    if char.isdigit() and not char.isdecimal() and analyse(char).tokens == (char,)
]
_SHAPES = (
    "Daniel Craig was born in {d} 1968 in Chester.",
    "Daniel Craig was born on March {d} 1968.",
    "The road is {d}{d}{d}{d} km long and opened in {d}{d}{d}{d}.",
    "It sold {d}{d},{d}{d}{d} copies (born {d}{d}{d}{d} – died 2001).",
)
_QUESTIONS = (
    "When was Daniel Craig born?",
    "How long is the road?",
    "Which is older, Daniel Craig or the road?",
    "In what year did the road open?",
)


def test_such_digits_exist_and_are_words() -> None:
    assert "\U00010e61" in _NOT_DECIMAL
    assert analyse("born in \U00010e61 1968").tokens == ("born", "in", "\U00010e61", "1968")


@pytest.mark.parametrize("shape", _SHAPES)
def test_no_verification_fails_on_a_digit_that_is_not_decimal(shape: str) -> None:
    for digit in _NOT_DECIMAL[::7]:
        text = shape.format(d=digit)
        stored = Evidence(
            id="e1",
            text=text,
            tool="Search",
            source={"title": "Daniel Craig", "sentence_index": 0},
            facts={},
            retrieved_at="2026-12-06T00:00:00Z",
        )
        for question in _QUESTIONS:
            for answer in ("1968", digit * 4, "Chester"):
                verdict = verify_answer(question, answer, [stored])
                assert verdict["outcome"] in ("verified", "grounded", "rejected"), text


def test_decimal_digits_of_other_scripts_still_fold_to_numbers() -> None:
    assert analyse("born \u0661\u0669\u0665\u0660").tokens == ("born", "1950")
