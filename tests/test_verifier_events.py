"""A date its sentence writes right after the word of another event (a birth in "(born
11 November 1953)") is that event's date, not the one the question asks for. Checked
with the learned combiner the agent uses (the hand rules alone refuse these already)."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, stated

from graph.verifier import verify_answer
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from graph.verifier.score.combiner import load_combiner
from tools.base import Verdict


@pytest.fixture
def store() -> Store:
    return Store()


def combined(store: Store, question: str, answer: str) -> Verdict:
    """The verdict the agent gives: the snapshot lexicon and the learned combiner."""
    decider = load_combiner().full
    lexicon = snapshot_lexicon()
    return verify_answer(question, answer, store.evidence, lexicon=lexicon, decider=decider)


@pytest.mark.parametrize(
    ("title", "question", "answer"),
    [
        # "Andrew John Partridge (born 11 November 1953) is an English singer, ... who
        # co-founded the rock band XTC."
        ("Andy Partridge", "In what year did Andy Partridge co-found the rock band XTC?", "1953"),
        # "Rich Christiano (born October 2, 1956) is an American filmmaker, who has directed,
        # produced and written many Christian films."
        ("Rich Christiano", "In what year did Rich Christiano direct his first film?", "1956"),
        # "Phillip Jerome Hellmuth Jr. (born July 16, 1964) is an American professional poker
        # player who has won a record fourteen World Series of Poker bracelets."
        ("Phil Hellmuth", "When did Phil Hellmuth win a World Series of Poker bracelet?", "1964"),
        # "Jacques Tourneur (] ; November 12, 1904 – December 19, 1977) was a French film
        # director known for the classic film noir "Out of the Past" ..."
        ("Jacques Tourneur", "In what year did Jacques Tourneur direct Out of the Past?", "1977"),
    ],
)
def test_a_date_of_another_event_is_refused(
    store: Store, title: str, question: str, answer: str
) -> None:
    store.add(title, 0)
    grounded(combined(store, question, answer))


def test_the_event_it_dates_is_still_answered(store: Store) -> None:
    ids = store.add("Andy Partridge", 0)
    born = "In what year was Andy Partridge born?"
    stated(combined(store, born, "1953"), ids)
    stated(check(store, born, "1953"), ids)
    ids = store.add("Jacques Tourneur", 0)
    question = "In what year did Jacques Tourneur die?"
    stated(combined(store, question, "1977"), ids)
