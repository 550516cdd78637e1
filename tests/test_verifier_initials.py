"""A person's name with other initials than the evidence writes: with an initial where a
sentence spells the word out it is read as the sentence writes it; spelling out an
initial the sentence gives, it says more than the sentence, and is grounded; never
rejected as absent. Another name with the same last word still is."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, rejected

from graph.verifier.text.initials import has_initial, written_with_initials

QUESTION = "Which president was shot in Dallas in 1963?"


def _store(sentence: str) -> Store:
    store = Store()
    store.add_text("Dallas", sentence)
    return store


@pytest.mark.parametrize("answer", ["John F. Kennedy", "J. F. Kennedy", "J.F. Kennedy"])
def test_an_initial_for_a_word_a_sentence_spells_out_is_read_as_written(answer: str) -> None:
    store = _store("The president John Fitzgerald Kennedy was shot in Dallas in 1963.")
    verdict = check(store, QUESTION, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert verdict["reason"].startswith("'John Fitzgerald Kennedy'")


def test_a_word_spelled_out_for_a_stated_initial_is_grounded() -> None:
    store = _store("The president John F. Kennedy was shot in Dallas in 1963.")
    verdict = check(store, QUESTION, "John Fitzgerald Kennedy")
    grounded(verdict, "'John F. Kennedy' is stated", "spells out an initial")
    assert verdict["evidence_ids"] == ["e1"]


def test_initials_written_apart_are_the_initials_written_together() -> None:
    store = Store()
    store.add_text("The Hobbit", "The Hobbit is a novel by J.R.R. Tolkien.")
    verdict = check(store, "Who wrote The Hobbit?", "J. R. R. Tolkien")
    assert verdict["outcome"] != "rejected" and verdict["reason"].startswith("'J.R.R. Tolkien'")


@pytest.mark.parametrize("answer", ["Joseph P. Kennedy", "J. Kennedy", "Robert F. Kennedy"])
def test_another_name_with_the_same_last_word_is_still_rejected(answer: str) -> None:
    rejected(
        check(_store("The president John F. Kennedy was shot in Dallas in 1963."), QUESTION, answer)
    )


def test_only_names_with_an_initial_are_read_so() -> None:
    assert has_initial("John F. Kennedy") and has_initial("J.R.R. Tolkien")
    assert not has_initial("Crocodile Dundee") and not has_initial("WWII")
    assert written_with_initials("Kennedy", ["John F. Kennedy"]) is None  # one word
    assert written_with_initials("John F.", ["John F. Kennedy"]) is None  # ends in an initial
