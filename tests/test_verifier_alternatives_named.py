"""A question's alternatives as the evidence names them: a comma left out before the
first one does not run the word before it into it, and an answer that names one by
another name the evidence gives (its acronym, an alias in a parenthesis) is grounded,
never rejected as "neither"."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, rejected

from graph.verifier.evidence.stored import stored_items
from graph.verifier.kinds.question import analyse_question
from graph.verifier.kinds.titled_pair import titled_pair

QUESTION = "Which college is located in Elm Hill, Vermont Brook College or Lake University?"


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add_text(
        "Brook College",
        "Brook College (also referred to as BKC) is a private college located in the"
        " village of Elm Hill, Vermont, United States.",
    )
    store.add_text("Lake University", "Lake University is a public university in Ohio.")
    return store


def _pair(store: Store, question: str) -> tuple[tuple[str, ...], ...]:
    q = titled_pair(analyse_question(question), stored_items(store.evidence))
    return tuple(name.tokens for name in q.pair)


def test_an_alternative_is_read_as_the_stored_page_titled_by_its_end(store: Store) -> None:
    assert _pair(store, QUESTION) == (("brook", "college"), ("lake", "university"))
    assert check(store, QUESTION, "Brook College")["outcome"] == "verified"


def test_an_alternative_a_sentence_writes_or_a_connector_joins_stays_whole() -> None:
    store = Store()
    store.add_text("America", "America is a continent.")
    store.add_text("Wells Fargo", "Wells Fargo is a bank founded in 1852.")
    store.add_text("Bank of America", "Bank of America is a bank founded in 1904.", 1)
    question = "Which is older, Bank of America or Wells Fargo?"
    assert _pair(store, question) == (("bank", "of", "america"), ("wells", "fargo"))
    other = Store()
    other.add_text("Brook College", "Brook College is a college.")
    other.add_text("Vermont Brook College", "Vermont Brook College was a college.", 1)
    assert _pair(other, QUESTION)[0] == ("vermont", "brook", "college")


def test_another_name_the_evidence_gives_or_an_acronym_it_writes_is_grounded(
    store: Store,
) -> None:
    grounded(check(store, QUESTION, "BKC"), "another name of 'brook college'")
    # Written nowhere, the initials still name one alternative: grounded on its sentences.
    grounded(check(store, QUESTION, "BC"), "another name of 'brook college'")
    store.add_text("Brook College", "BC's campus lies on a hill above the lake.", 1)
    grounded(check(store, QUESTION, "BC"), "another name of 'brook college'")
    rejected(check(store, QUESTION, "BU"), "is neither")  # the initials of neither


def test_a_name_in_a_parenthesis_that_is_no_alias_still_chooses_neither() -> None:
    store = Store()
    store.add_text("Ann Lee", "Ann Lee (born 1950 in Paris) is a French painter.")
    store.add_text("Bo Ray", "Bo Ray (1948 - 2001) was a Welsh painter.")
    question = "Who was born first, Ann Lee or Bo Ray?"
    rejected(check(store, question, "Paris"), "is neither")
    store.add_text("Ann Lee", "It is a myth that Ann Lee (Anna Leeds) painted.", 1)
    rejected(check(store, question, "Anna Leeds"), "is neither")
