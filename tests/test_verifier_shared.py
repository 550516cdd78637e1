"""What the verifier keeps across answers (per evidence, per question, per sentence) never
changes a verdict: in any order, from fresh caches, and from several threads at once."""

from __future__ import annotations

import importlib
import pkgutil
import random
import re
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import graph.verifier
from graph.evaluation.hotpot import load_questions
from graph.evaluation.verifier_cases import build_cases, pages_of
from graph.verifier import verify_answer
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from graph.verifier.read.relation import FAR, distance
from graph.verifier.score.combiner import load_combiner
from graph.verifier.text.clean import INVISIBLE, SHOWN, clean
from graph.verifier.text.normalise import alternation, fold_each, fold_plain, may_hold_number
from tools.base import Verdict

QUESTIONS = 30


def _clear_kept() -> None:
    """Empty every cache the verifier's modules keep."""
    for info in pkgutil.walk_packages(graph.verifier.__path__, "graph.verifier."):
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    questions = load_questions(None)[:QUESTIONS]
    return list(build_cases(questions, pages_of(questions)))


def _verdict(case: dict[str, Any]) -> Verdict:
    return verify_answer(
        case["question"],
        case["answer"],
        case["evidence"],
        lexicon=snapshot_lexicon(),
        decider=load_combiner().full,
    )


def test_verdicts_do_not_depend_on_what_was_verified_before(cases: list[dict[str, Any]]) -> None:
    _clear_kept()
    in_order = [_verdict(case) for case in cases]
    _clear_kept()
    backwards = [_verdict(case) for case in reversed(cases)][::-1]
    assert backwards == in_order
    assert [_verdict(case) for case in cases] == in_order


def test_threads_verifying_at_once_get_the_verdicts_of_one_thread(
    cases: list[dict[str, Any]],
) -> None:
    _clear_kept()
    alone = [_verdict(case) for case in cases]
    _clear_kept()
    with ThreadPoolExecutor(max_workers=4) as pool:
        together = list(pool.map(_verdict, cases * 2))
    assert together == alone * 2


def test_the_shown_table_drops_exactly_the_format_and_invisible_characters() -> None:
    assert clean("Pa\u00adrís\u200b\u0600") == "París"
    assert clean("Pаrís") == "París"  # a Cyrillic "а"
    assert clean("Москва") == "Москва"
    assert clean("Pa\u034fris\ufe0f\u3164") == "Paris"  # grapheme joiner, selector, filler
    every = "".join(chr(code) for code in range(0x30000) if not 0xD800 <= code < 0xE000)
    shown = "".join(
        char for char in every if unicodedata.category(char) != "Cf" and not INVISIBLE.match(char)
    )
    assert every.translate(SHOWN) == shown


@pytest.mark.parametrize(
    ("text", "may"),
    [
        ("born in 1990", True),
        ("Twenty men", True),
        ("one of them", True),
        ("the ONE", True),
        ("someone else", False),
        ("nobody", False),
        ("٣ items", True),
    ],
)
def test_a_text_may_hold_a_number_with_a_digit_or_a_number_word(text: str, may: bool) -> None:
    assert may_hold_number(text) is may


def test_folding_texts_together_folds_each_as_alone() -> None:
    texts = [
        "O'Brien's U.S. tour",
        "Nyköping Airport – Skavsta",
        "two\nlines. Here",
        "",
        "STRASSE ﬁre",
        "Ⅻ Kelvin ’quoted’",
        "plain ascii. text",
    ]
    for order in (texts, texts[::-1], [t for t in texts if t.isascii()], []):
        assert fold_each(order) == [fold_plain(text) for text in order]


def test_a_trie_alternation_matches_the_words_of_the_plain_one() -> None:
    words = ["ten", "tenth", "two", "twelve", "a", "once", "one"]
    trie = re.compile(rf"\b(?:{alternation(words)})\b", re.IGNORECASE)
    plain = re.compile(rf"\b(?:{'|'.join(words)})\b", re.IGNORECASE)
    texts = [*words, "Tenth man", "tent", "ten-th", "twelfth", "a", "an", "ONE", "one's", "on"]
    assert [bool(trie.search(text)) for text in texts] == [
        bool(plain.search(text)) for text in texts
    ]


def _distance_by_counting(
    positions: tuple[tuple[int, str], ...],
    span: tuple[int, int],
    skipped: tuple[int, ...],
    cost: int,
) -> int:
    start, end = span
    gaps = [
        (1 + sum(1 for j in range(i + 1, start) if j not in skipped))
        if i < start
        else (1 + sum(1 for j in range(end, i) if j not in skipped)) * cost
        for i, _ in positions
        if not start <= i < end
    ]
    return min(gaps, default=FAR)


def test_distance_counts_the_tokens_between_less_the_skipped_ones() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        size = rng.randint(1, 40)
        cues = {rng.randrange(size) for _ in range(rng.randint(0, 5))}
        positions = tuple((index, "cue") for index in sorted(cues))  # in token order
        start = rng.randrange(size)
        span = (start, min(size, start + rng.randint(1, 4)))
        skipped = tuple(sorted(rng.sample(range(size), rng.randint(0, min(size, 10)))))
        cost = rng.choice((1, 2))
        assert distance(positions, span, skipped, cost) == _distance_by_counting(
            positions, span, skipped, cost
        )
