"""A number stated only as one end of a range, or as where a change started, is not
the value; a range of years is left alone."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, supported

from graph.verifier import GROUNDING_STATED


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize("answer", ["90,000", "100,000"])
def test_one_end_of_an_estimated_range_is_not_the_value(store: Store, answer: str) -> None:
    # "With an estimated population of 90,000 to 100,000 people, Manhattan's Chinatown is
    # also one of the oldest Chinese ethnic enclaves."
    ids = store.add("Chinatown, Manhattan", 0, 2)
    question = "What is the estimated population of Manhattan's Chinatown?"
    grounded(check(store, question, answer), "one end of a range")
    supported(check(store, question, "90,000 to 100,000"), GROUNDING_STATED, ids[1:])


def test_one_end_of_a_dashed_range_is_not_the_value(store: Store) -> None:
    # "It serves approximately 2100-2700 students in grades 9-12 ..."
    store.search("Lincoln High School (San Diego)")
    question = "How many students does Lincoln High School in San Diego serve?"
    grounded(check(store, question, "2100"), "one end of a range")


def test_where_a_change_started_is_not_the_value(store: Store) -> None:
    # "In August 2015 census, the population grew +0.33% from 1,163 to 1,183 inhabitants."
    ids = store.add("San Jose, Viga", 0, 3)
    question = "How many inhabitants did San Jose, Viga have in the August 2015 census?"
    grounded(check(store, question, "1,163"), "one end of a range")
    supported(check(store, question, "1,183"), GROUNDING_STATED, ids[1:])


def test_a_range_of_years_is_left_alone(store: Store) -> None:
    # "The Gibson Victory was an electric guitar produced by Gibson Guitars from 1981 until
    # 1983 ..."; "championships were contested between 1956 and 1963"
    store.add("Gibson Victory", 0)
    verdict = check(store, "From what year was the Gibson Victory produced?", "1981")
    assert "range" not in verdict["reason"]
    store.add_text("Aldar", "Aldar played in the league between 1956 and 1963.")
    verdict = check(store, "In what year did Aldar start playing in the league?", "1956")
    assert "range" not in verdict["reason"]
