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


def _stored(text: str, title: str = "Daniel Craig", index: int = 1) -> Evidence:
    return Evidence(
        id=f"e{index}",
        text=text,
        tool="Search",
        source={"title": title, "sentence_index": 0},
        facts={},
        retrieved_at="2026-12-06T00:00:00Z",
    )


def test_such_digits_exist_and_are_words() -> None:
    assert "\U00010e61" in _NOT_DECIMAL
    assert analyse("born in \U00010e61 1968").tokens == ("born", "in", "\U00010e61", "1968")


@pytest.mark.parametrize("shape", _SHAPES)
def test_no_verification_fails_on_a_digit_that_is_not_decimal(shape: str) -> None:
    for digit in _NOT_DECIMAL[::7]:
        text = shape.format(d=digit)
        stored = _stored(text)
        for question in _QUESTIONS:
            for answer in ("1968", digit * 4, "Chester"):
                verdict = verify_answer(question, answer, [stored])
                assert verdict["outcome"] in ("verified", "grounded", "rejected"), text


def test_decimal_digits_of_other_scripts_still_fold_to_numbers() -> None:
    assert analyse("born \u0661\u0669\u0665\u0660").tokens == ("born", "1950")


_LONG_RUNS = ("9" * 5000, "\u0661" * 5000, "7" * 5000 + " million", "1" * 4301 + ".5")
_LONG_SHAPES = (
    "Daniel Craig was born on March {n} 1968 and ranked {n}th; it cost {n} dollars.",
    "The road ({n} – 1999) is {n} km long, No. {n}.",
)


@pytest.mark.parametrize("run", _LONG_RUNS)
def test_no_verification_fails_on_more_digits_than_python_converts(run: str) -> None:
    for shape in _LONG_SHAPES:
        stored = _stored(shape.format(n=run))
        for question in (*_QUESTIONS, f"What ranked {run}th?"):
            for answer in ("1968", run, "Chester"):
                verdict = verify_answer(question, answer, [stored])
                assert verdict["outcome"] in ("verified", "grounded", "rejected")


def test_a_long_run_of_digits_is_kept_as_written() -> None:
    assert analyse("cost " + "9" * 5000).tokens == ("cost", "9" * 5000)
    assert analyse("cost 007 dollars").tokens == ("cost", "7")  # a currency word is no token


def test_a_comparison_reads_no_day_from_a_long_run_of_digits() -> None:
    run = "9" * 5000
    stored = [
        _stored(f"Daniel Craig (born March {run} 1968) is an English actor.", index=1),
        _stored("Roger Moore (born 14 October 1927) was an English actor.", "Roger Moore", 2),
    ]
    question = "Who was born first, Daniel Craig or Roger Moore?"
    verdict = verify_answer(question, "Roger Moore", stored)
    assert verdict["outcome"] == "verified"
    assert verdict["grounding"] == "computed"
