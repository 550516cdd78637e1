"""A stated answer must answer this question: the right class of thing, tied to what the
question asks. Each trap is a wrong span from the right page, on real snapshot sentences."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, rejected, supported

from graph.verifier import GROUNDING_STATED

LABEL = "Both Never Cry Wolf and Big Hero 6 films were released by what label?"
SCREENPLAY = "Which screenplay was written by Vladimir Nabokov and produced by Ray Stark?"
EVENT = (
    "Formally the Games of the XXX Olympiad what sports event did Dirkie Chamberlain"
    " represent her country?"
)


@pytest.fixture
def store() -> Store:
    return Store()


def test_a_name_from_the_same_page_of_the_wrong_class_is_rejected(store: Store) -> None:
    store.add("Big Hero 6 (film)", 0, 1, 2, 3)  # 3: "... Alan Tudyk, James Cromwell, ..."
    store.add("Never Cry Wolf (film)", 0, 1, 2, 3)
    verdict = check(store, LABEL, "James Cromwell")
    rejected(verdict, "a label (an organisation)", "a person")
    assert verdict["missing"] == ["that 'James Cromwell' is a label (an organisation)"]
    rejected(check(store, LABEL, "Don Hall"), "lexicon")  # "... is an American film director"
    supported(check(store, LABEL, "Walt Disney Pictures"), GROUNDING_STATED, ["e1"])


def test_the_words_around_a_name_say_what_it_is(store: Store) -> None:
    store.add("Lolita (1962 film)", 0, 1)  # "... film directed by Stanley Kubrick."
    store.add("Ray Stark", 0, 1)
    rejected(check(store, SCREENPLAY, "Stanley Kubrick", lexicon=False), "directed by")
    supported(check(store, SCREENPLAY, "Lolita"), GROUNDING_STATED, ["e1"])


def test_a_year_does_not_name_an_event(store: Store) -> None:
    store.add("Dirkie Chamberlain", 0, 1, 2)  # 2: "... at the 2010 and 2014 Commonwealth Games."
    store.add("2012 Summer Olympics", 0)
    rejected(check(store, EVENT, "2010"), "a year, not a name")
    assert check(store, EVENT, "2012 Summer Olympics")["supported"]


def test_a_wrong_year_from_the_same_sentence_is_rejected(store: Store) -> None:
    ids = store.add("Fannie Lee Chaney", 0)  # "(September 4, 1921 – May 22, 2007) was ..."
    question = "When did Fannie Lee Chaney die?"
    verdict = check(store, question, "2007")
    supported(verdict, GROUNDING_STATED, ids)
    assert "nearest 'died'" in verdict["reason"]
    supported(check(store, question, "May 22, 2007"), GROUNDING_STATED, ids)
    wrong = check(store, question, "1921")
    rejected(wrong, "another year there sits nearer to 'died'")
    assert wrong["missing"] == ["'1921' as what the question asks about ('die')"]


def test_a_wrong_number_from_the_same_page_is_rejected(store: Store) -> None:
    ids = store.add("15 Penn Plaza", 0, 1)  # "68-story tower" ... "2,050,000 square feet"
    question = "How many stories would 15 Penn Plaza have?"
    supported(check(store, question, "68"), GROUNDING_STATED, ids[:1])
    rejected(check(store, question, "2,050,000"), "does not say what the question counts")


def test_a_pronoun_linked_true_answer_still_verifies(store: Store) -> None:
    ids = store.add("Aqeel Ahmed (cricketer)", 0, 1, 2)  # 2: "He was born in Faisalabad, Punjab."
    question = "In which city was the Pakistani cricketer Aqeel Ahmed born?"
    verdict = check(store, question, "Faisalabad")
    supported(verdict, GROUNDING_STATED, ids[2:])
    assert "nearest 'born'" in verdict["reason"]
