"""A span a sentence writes only inside a quoted title of a work names that work, not
the person, place or year the question asks for; other quoted names stay."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, not_verified, supported

from graph.verifier import GROUNDING_STATED


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize(
    ("title", "question", "answer"),
    [
        # "... first released on Wings' 1978 album "London Town"."
        ("Deliver Your Children", "Where was the song Deliver Your Children recorded?", "London"),
        # "... for The Madden Brothers' first studio album "Greetings from California"."
        ("Dear Jane (song)", "Which state are The Madden Brothers from?", "California"),
        # "... appears on their live album "MTV Unplugged in New York"."
        ("Lori Goldston", "In which city was Nirvana's live album recorded?", "New York"),
        # "... album "London Town"." and "the B-side of the "London Town" single."
        ("I'm Carrying", "In which city was the album with I'm Carrying recorded?", "London"),
    ],
)
def test_a_place_only_inside_a_quoted_title_is_refused(
    store: Store, title: str, question: str, answer: str
) -> None:
    store.search(title)
    verdict = check(store, question, answer)
    not_verified(verdict)
    assert "quoted title" in verdict["reason"] or "longer name" in verdict["reason"]


def test_the_title_itself_answers_a_question_for_a_work(store: Store) -> None:
    ids = store.add("Deliver Your Children", 0)
    question = "On which Wings album was Deliver Your Children first released?"
    supported(check(store, question, "London Town"), GROUNDING_STATED, ids)


def test_a_quoted_name_with_no_work_noun_is_no_title(store: Store) -> None:
    # "Founded in 1976 it plays in Segunda División B – Group 1, holding home games at
    # "Estadio Cerro del Espino", with a capacity of 3,376 seats."
    store.search("CF Rayo Majadahonda")
    question = "Where does CF Rayo Majadahonda play its home games?"
    assert "quoted title" not in check(store, question, "Estadio Cerro del Espino")["reason"]
