"""A stored page of another work of the name the question asks about (another kind, or
the same kind of another year) states nothing about it, unless the sentence itself
names the asked work."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, supported

from graph.verifier import GROUNDING_STATED
from graph.verifier.kinds.namesakes import Described, in_question, is_namesake
from graph.verifier.text.normalise import analyse


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize(
    ("title", "question", "answer"),
    [
        # "Cat People is a 1942 horror film produced by Val Lewton and directed by Jacques
        # Tourneur."
        ("Cat People (1942 film)", "Who directed the 1982 film Cat People?", "Jacques Tourneur"),
        # "Breakfast on Pluto is a 2005 British-Irish comedy-drama film written and directed
        # by Neil Jordan ..."
        ("Breakfast on Pluto (film)", "Who wrote the novel Breakfast on Pluto?", "Neil Jordan"),
        # "Breakfast on Pluto is a 1998 novel by Patrick McCabe."
        ("Breakfast on Pluto", "In what year was the film Breakfast on Pluto released?", "1998"),
    ],
)
def test_an_answer_only_a_namesake_states_is_refused(
    store: Store, title: str, question: str, answer: str
) -> None:
    store.search(title)
    grounded(check(store, question, answer), "another work of the name")


def test_the_asked_work_beside_its_namesake_still_answers(store: Store) -> None:
    store.search("Cat People (1942 film)")
    ids = store.add("Cat People (1982 film)", 0)
    question = "Who directed the 1982 film Cat People?"
    supported(check(store, question, "Paul Schrader"), GROUNDING_STATED, ids)
    grounded(check(store, question, "Jacques Tourneur"), "another work of the name")


def test_a_namesake_the_question_itself_mentions_may_be_a_hop(store: Store) -> None:
    store.search("Breakfast on Pluto")
    question = "Who wrote the novel on which the film Breakfast on Pluto is based?"
    assert "another work" not in check(store, question, "Patrick McCabe")["reason"]


def test_a_namesake_sentence_that_names_the_asked_work_counts(store: Store) -> None:
    # "It is the soundtrack to the 1992 film "This Is My Life" directed by Nora Ephron and
    # starring Julie Kavner ..." on the page of Carly Simon's album.
    store.search("This Is My Life (Carly Simon album)")
    question = "Who starred in the 1992 film This Is My Life?"
    assert check(store, question, "Julie Kavner")["supported"]
    asked = "What American film actress also starred in the 1992 film This Is My Life?"
    grounded(check(store, asked, "Carly Simon"), "another work of the name")


def test_a_year_describes_a_name_only_with_a_kind_of_work() -> None:
    question = analyse("Until 2006, the Nissan Sentra was a rebadged export version of a car")
    asked = in_question(question, analyse("Nissan Sentra"))
    assert asked == Described(None, None)
    assert not is_namesake(question, asked, Described(None, "1982"))


def test_a_kind_not_written_right_before_the_name_describes_something_else(
    store: Store,
) -> None:
    # "... first released on Wings' 1978 album "London Town"." (a song's page)
    store.search("Deliver Your Children")
    question = "Which Wings album first released Deliver Your Children?"
    assert in_question(analyse(question), analyse("Deliver Your Children")) == Described(None, None)
    assert "another work" not in check(store, question, "London Town")["reason"]
