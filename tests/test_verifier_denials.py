"""Spans a stored sentence states only to deny or hedge them: a falsity adverb after the
span, a claim ("rumoured"), and a nomination when the question asks what was won."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, rejected, stated, supported

from graph.verifier import GROUNDING_STATED


@pytest.fixture
def store() -> Store:
    return Store()


def test_a_name_called_so_erroneously_is_denied(store: Store) -> None:
    # "It has sometimes been called Livingstone's tree erroneously."
    store.search("Big Tree at Victoria Falls")
    question = "What is the Big Tree at Victoria Falls also called?"
    rejected(check(store, question, "Livingstone's tree"), "denied")


@pytest.mark.parametrize(
    ("title", "question", "nominated"),
    [
        # "... was nominated for the Mercury Prize."
        ("Amy Winehouse", "What prize did Amy Winehouse's debut album win?", "Mercury Prize"),
        # "It was nominated for an Academy Award for Best Documentary Feature."
        (
            "Adam Clayton Powell (film)",
            "What award did the film Adam Clayton Powell win?",
            "Academy Award",
        ),
        # "She was nominated for a Screen Actors Guild Award for her role in ..."
        (
            "Amy Aquino",
            "Which award did Amy Aquino win for her role in Picket Fences?",
            "Screen Actors Guild Award",
        ),
    ],
)
def test_a_nomination_does_not_answer_what_was_won(
    store: Store, title: str, question: str, nominated: str
) -> None:
    store.search(title)
    rejected(check(store, question, nominated), "denied")


def test_what_was_won_and_what_was_nominated_in_one_sentence(store: Store) -> None:
    # "The song was nominated for the Record of the Year and ... at the 39th Annual Grammy
    # Awards, and won an MTV Video Music Award for Best Alternative Video."
    ids = store.add("1979 (song)", 0, 5)
    won = "MTV Video Music Award for Best Alternative Video"
    rejected(check(store, "What did the song 1979 win?", "Record of the Year"), "denied")
    stated(check(store, "What did the song 1979 win?", won), ids[1:])
    asked = "What was the song 1979 nominated for at the 39th Annual Grammy Awards?"
    supported(check(store, asked, "Record of the Year"), GROUNDING_STATED, ids[1:])


def test_a_claim_only_rumoured_is_not_stated(store: Store) -> None:
    store.add_text(
        "John Smith (actor)", "John Smith is an American actor, rumoured to be born in 1970."
    )
    rejected(check(store, "In what year was John Smith born?", "1970"), "denied")
    store.add_text("Lift Off (song)", "The song was rumored to be released as the lead single.")
    asked = "Which single was rumored to be released from the album?"
    assert "denied" not in check(store, asked, "lead single")["reason"]


def test_what_only_some_sources_say_is_not_stated(store: Store) -> None:
    # "The Gibson Victory was an electric guitar produced by Gibson Guitars from 1981 until
    # 1983 (although some sources say production lasted until 1984)."
    store.add("Gibson Victory", 0)
    question = "Until what year was the Gibson Victory electric guitar produced?"
    rejected(check(store, question, "1984"), "denied")


def test_a_belief_once_held_is_not_stated_unless_asked(store: Store) -> None:
    store.add_text(
        "Acme", "Acme is an American company, once believed to have been founded by Bob Jones."
    )
    rejected(check(store, "Who founded Acme?", "Bob Jones"), "denied")
    asked = "Who was once believed to have founded Acme?"
    assert "denied" not in check(store, asked, "Bob Jones")["reason"]


def test_a_former_name_does_not_answer_what_is_so_now(store: Store) -> None:
    # "The Mercury Prize, formerly called the Mercury Music Prize, is an annual music prize
    # awarded for the best album from the United Kingdom and Ireland."
    ids = store.add("Mercury Prize", 0)
    now = "What is the name of the annual music prize for the best album from the UK and Ireland?"
    rejected(check(store, now, "Mercury Music Prize"), "denied")
    supported(check(store, now, "Mercury Prize"), GROUNDING_STATED, ids)
    for then in (
        "What was the Mercury Prize formerly called?",
        "What was the annual music prize for the best album from the UK and Ireland called?",
    ):
        assert "denied" not in check(store, then, "Mercury Music Prize")["reason"]


def test_a_former_stage_name_is_not_the_name_used_now(store: Store) -> None:
    # "Andrew Dennis Biersack (born December 26, 1990), formerly known as Andy Six, ..."
    store.search("Andy Biersack")
    question = "What name does Andrew Dennis Biersack perform under?"
    rejected(check(store, question, "Andy Six"), "denied")
