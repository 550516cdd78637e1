"""Argument types the benchmarks' command lines share: each gives argparse one line
naming what it expected."""

from __future__ import annotations

import argparse


def whole_number(text: str) -> int:
    """A whole number, 0 or more."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number 0 or more, got {text!r}")
    return value


def positive_number(text: str) -> int:
    """A whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number 1 or more, got {text!r}")
    return value


def folds(text: str) -> tuple[int, list[int]]:
    """`K[,K...]/N`: folds K out of N, each in 0..N-1."""
    kept, _, count = text.partition("/")
    try:
        chosen = (int(count), [int(k) for k in kept.split(",")])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected K[,K...]/N, got {text!r}") from None
    if chosen[0] < 1 or not all(0 <= k < chosen[0] for k in chosen[1]):
        raise argparse.ArgumentTypeError(f"folds must lie in 0..N-1, got {text!r}")
    return chosen
