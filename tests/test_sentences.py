"""The shipped sentence splitter against the hard-case corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tools.wikipedia.sentences import split_sentences

CASES = json.loads((Path(__file__).parent / "data" / "sentence_cases.json").read_text("utf-8"))
REQUIRED_CATEGORIES = {
    "abbreviation",
    "initials",
    "numbers",
    "quotes_brackets",
    "ellipsis",
    "cjk",
    "mixed",
}


def test_corpus_is_large_and_covers_every_kind_of_hard_case() -> None:
    assert len(CASES) >= 40
    assert {case["category"] for case in CASES} >= REQUIRED_CATEGORIES
    assert len({case["id"] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[case["id"] for case in CASES])
def test_corpus_case_splits_as_expected(case: dict[str, object]) -> None:
    assert split_sentences(str(case["text"]), str(case["lang"])) == case["sentences"]


def test_seed_regex_fails_most_of_the_corpus() -> None:
    """The corpus is hard: the seed's splitter gets well under half of it right."""
    seed_right = sum(
        re.split(r"(?<=[.!?])\s+", " ".join(case["text"].split())) == case["sentences"]
        for case in CASES
    )
    assert seed_right / len(CASES) < 0.5


def test_blank_text_has_no_sentences() -> None:
    assert split_sentences("") == []
    assert split_sentences(" \n\n  \t") == []


def test_headings_and_paragraphs_of_an_extract_are_separate_sentences() -> None:
    text = (
        "Nolan was born in London.\n\n"
        "== Early life ==\nNolan grew up in Highgate.  He read English."
    )
    assert split_sentences(text) == [
        "Nolan was born in London.",
        "== Early life ==",
        "Nolan grew up in Highgate.",
        "He read English.",
    ]


def test_chinese_wikipedia_language_code() -> None:
    assert split_sentences("诺兰是导演。他出生于伦敦！", lang="zh") == [
        "诺兰是导演。",
        "他出生于伦敦！",
    ]
