"""A date answers the event the question dates, a number counts or measures what the
question asks about: each rule and trap on real snapshot sentences."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, stated, supported

from graph.verifier import GROUNDING_STATED

PODESTA = "In what year did the former chairman of the 2016 Clinton campaign found a firm in D.C.?"
JUXTAPOZ = (
    "When was the low-brow art magazine of which George Petros was a contributing editor of"
    " founded?"
)


@pytest.fixture
def store() -> Store:
    return Store()


def test_a_date_is_tied_to_the_event_the_question_dates(store: Store) -> None:
    store.add("Podesta Group", 0, 1, 2)  # 1: "founded in 1988"; 2: "reorganized in January 2007"
    store.add("John Podesta", 0)  # "(born January 8, 1949) is ... former chairman of the 2016 ..."
    verdict = check(store, PODESTA, "1988")
    supported(verdict, GROUNDING_STATED, ["e2"])
    assert "nearest 'founded'" in verdict["reason"]
    grounded(check(store, PODESTA, "2007"), "does not say the event", "'found'")
    grounded(check(store, PODESTA, "1949"), "does not say the event")


def test_a_word_for_the_same_event_dates_it(store: Store) -> None:
    store.add("George Petros", 0, 1, 2, 3)  # 0: "(born ..., January 11, 1955, ...)"
    store.add("Juxtapoz", 0)  # "... is a magazine created in 1994 by ..."
    verdict = check(store, JUXTAPOZ, "1994")
    supported(verdict, GROUNDING_STATED, ["e5"])
    assert "nearest 'created'" in verdict["reason"]
    grounded(check(store, JUXTAPOZ, "1955"), "does not say the event the question asks the date of")
    grounded(check(store, JUXTAPOZ, "1984"), "another year there sits nearer to 'founded'")


def test_the_year_of_a_work_dates_its_release(store: Store) -> None:
    store.add("The Departed", 0, 1)  # "... is a 2006 American crime drama film ..."; "the 2002 ..."
    question = "When was The Departed released?"
    verdict = check(store, question, "2006")
    supported(verdict, GROUNDING_STATED, ["e1"])
    assert "the year of what the sentence describes ('a 2006 american" in verdict["reason"]
    grounded(check(store, question, "2002"), "does not say the event", "('released')")


def test_a_life_span_written_without_its_dash_is_read(store: Store) -> None:
    ids = store.add("Tupac Shakur", 0)  # "(born ...; June 16, 1971September 13, 1996)"
    question = "When did Tupac Shakur die?"
    stated(check(store, question, "September 13, 1996"), ids)
    stated(check(store, question, "1996"), ids)
    grounded(check(store, question, "1971"), "another year there sits nearer to 'died'")


def test_a_count_stands_next_to_what_it_counts(store: Store) -> None:
    store.add("Monument, Kansas", 0, 1)  # 1: "... along U.S. Route 40 west of Oakley."
    store.add("Oakley, Kansas", 0, 1, 2)  # 2: "... the city population was 2,045."
    question = "What is the population of the city that Monument is west of?"
    verdict = check(store, question, "2,045")
    supported(verdict, GROUNDING_STATED, ["e5"])
    assert "the number nearest 'population'" in verdict["reason"]  # "2,045" is not a year
    wrong = check(store, question, "40")
    grounded(wrong, "does not say what the question counts ('population')")


def test_a_measure_stands_next_to_its_unit(store: Store) -> None:
    store.add("Empire State Building", 0, 1)  # "102-story ... West 33rd"; "a total of 1454 ft tall"
    question = "How tall is the Empire State Building with its antenna?"
    supported(check(store, question, "1454 ft"), GROUNDING_STATED, ["e2"])
    grounded(check(store, question, "33"), "no unit of it stands next to '33'")
