"""A value a sentence pairs by "respectively" with another key than the one the question
asks about does not answer it."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded

from graph.verifier.rules.respectively import paired_elsewhere
from graph.verifier.text.normalise import analyse


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize(
    ("title", "question", "wrong", "right"),
    [
        # "Besides, Australia had reached the finals of the 1975 and 1996 World cups losing
        # to West Indies and Sri Lanka respectively."
        (
            "Australia at the Cricket World Cup",
            "Which team beat Australia in the 1996 Cricket World Cup final?",
            "West Indies",
            "Sri Lanka",
        ),
        # "Also Linkin Park and Paramore released their singles for the film, "Iridescent"
        # and "Monster" respectively."
        (
            "All That You Are (Goo Goo Dolls song)",
            "Which single did Paramore release for the film?",
            "Iridescent",
            "Monster",
        ),
    ],
)
def test_a_value_paired_with_another_key_is_refused(
    store: Store, title: str, question: str, wrong: str, right: str
) -> None:
    store.search(title)
    grounded(check(store, question, wrong), "paired there by 'respectively'")
    assert "respectively" not in check(store, question, right)["reason"]


def test_keys_are_told_apart_by_the_words_they_do_not_share() -> None:
    raw = "The brothers, John Smith and Bob Smith, were born in 1950 and 1960 respectively."
    question = analyse("In what year was Bob Smith born?")
    assert paired_elsewhere(raw, analyse("1950"), question) == ("john smith", "bob smith")
    assert paired_elsewhere(raw, analyse("1960"), question) is None
    ambiguous = analyse("In what year was a Smith born?")
    assert paired_elsewhere(raw, analyse("1950"), ambiguous) is None
