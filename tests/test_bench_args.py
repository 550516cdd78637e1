"""The benchmarks' argument types: a value or one line naming what was expected."""

from __future__ import annotations

import argparse
import re

import pytest

from graph.evaluation.bench_args import folds, positive_number, whole_number


def test_numbers_and_folds_are_read() -> None:
    assert whole_number("0") == 0 and positive_number("3") == 3
    assert folds("0,2/5") == (5, [0, 2])


@pytest.mark.parametrize(
    ("parse", "text", "said"),
    [
        (whole_number, "-1", "a whole number 0 or more"),
        (whole_number, "two", "a whole number 0 or more"),
        (positive_number, "0", "a whole number 1 or more"),
        (positive_number, "abc", "a whole number 1 or more"),
        (positive_number, "-3", "a whole number 1 or more"),
        (folds, "1/x", "K[,K...]/N"),
        (folds, "5/5", "0..N-1"),
        (folds, "0/0", "0..N-1"),
    ],
)
def test_a_bad_value_names_what_was_expected(parse: object, text: str, said: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(said)) as raised:
        parse(text)  # type: ignore[operator]
    assert repr(text) in str(raised.value)
