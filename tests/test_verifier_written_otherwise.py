"""A right answer written otherwise than the evidence writes it: an honorific before a
name, "St." for "Saint", a qualifier after a comma that no sentence states. The first
two are read as the evidence writes them; the third is grounded, never rejected."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, rejected

from graph.verifier.text.wordstems import cue_stem


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add_text("Yesterday (Beatles song)", "Yesterday is a song written by Paul McCartney.")
    store.add_text("Chuck Berry", "Chuck Berry was born in St. Louis, Missouri.")
    store.add_text("Mount Everest", "Mount Everest was first climbed by Edmund Hillary.")
    store.add_text("Victor Hugo", "Victor Hugo was born in Besançon on 26 February 1802.")
    store.add_text("The Chronic", "The Chronic is the debut album by Dr. Dre.")
    store.add_text("Barack Obama", "Barack Obama was born in Honolulu, in the United States.")
    return store


@pytest.mark.parametrize(
    ("question", "answer", "as_stated"),
    [
        ("Who wrote the song Yesterday?", "Sir Paul McCartney", "'Paul McCartney'"),
        ("Who wrote the song Yesterday?", "Dr. Paul McCartney", "'Paul McCartney'"),
        ("In which city was Chuck Berry born?", "Saint Louis", "'St. Louis'"),
        ("In which city was Chuck Berry born?", "St Louis", "'St Louis'"),
        ("Which mountain did Edmund Hillary climb first?", "Mt. Everest", "'Mount Everest'"),
        ("Whose debut album is The Chronic?", "Dr. Dre", "'Dr. Dre'"),
    ],
)
def test_an_answer_is_read_as_the_evidence_writes_it(
    store: Store, question: str, answer: str, as_stated: str
) -> None:
    verdict = check(store, question, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert verdict["reason"].startswith(as_stated)


@pytest.mark.parametrize("acronym", ["U.S.", "US"])
def test_an_acronym_of_one_stated_name_is_grounded_on_it(store: Store, acronym: str) -> None:
    verdict = check(store, "In which country was Barack Obama born?", acronym)
    assert verdict["outcome"] == "grounded", verdict["reason"]
    assert "initials of 'United States'" in verdict["reason"] and verdict["evidence_ids"]


def test_a_qualifier_no_sentence_states_grounds_the_name(store: Store) -> None:
    verdict = check(store, "In which city was Victor Hugo born?", "Besançon, France")
    assert verdict["outcome"] == "grounded"
    assert "'Besançon' is stated" in verdict["reason"] and "'France'" in verdict["reason"]
    assert verdict["missing"] == ["France"] and verdict["evidence_ids"] == ["e4"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("When was Victor Hugo born?", "26 February, 1803"),  # a date
        ("Who was born in Besançon?", "Victor Hugo, Jean Valjean and Cosette"),  # a list
        ("In which city was Chuck Berry born?", "Paris, France"),  # the name itself absent
        ("Who wrote the song Yesterday?", "Sir Elton John"),  # no honorific saves a wrong name
        ("In which country was Barack Obama born?", "USA"),  # "United States of America" unsaid
    ],
)
def test_what_the_evidence_does_not_state_is_still_rejected(
    store: Store, question: str, answer: str
) -> None:
    rejected(check(store, question, answer))


def test_an_acronym_of_two_stated_names_is_read_as_neither() -> None:
    store = Store()
    store.add_text("Barack Obama", "Barack Obama was born in Honolulu, in the United States.")
    store.add_text("Barack Obama", "He studied at Union Seminary, then at Harvard.", 1)
    rejected(check(store, "In which country was Barack Obama born?", "U.S."))


@pytest.mark.parametrize(
    ("title", "question", "sentence", "answer"),
    [
        (
            "Berlin Wall",
            "When did the Berlin Wall fall?",
            "The Berlin Wall fell on 9 November 1989.",
            "1989",
        ),
        (
            "RMS Titanic",
            "When did the RMS Titanic sink?",
            "The RMS Titanic sank on 15 April 1912 after striking an iceberg.",
            "1912",
        ),
        (
            "Wilbur Smith (aviator)",
            "When did Wilbur Smith first fly?",
            "Wilbur Smith flew his first aircraft in 1911.",
            "1911",
        ),
    ],
)
def test_a_past_form_no_crude_stem_joins_still_ties_the_date(
    title: str, question: str, sentence: str, answer: str
) -> None:
    store = Store()
    store.add_text(title, sentence)
    verdict = check(store, question, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]


def test_past_forms_that_are_also_nouns_are_not_read_as_verbs() -> None:
    assert cue_stem("fell") == cue_stem("fall") and cue_stem("sank") == cue_stem("sink")
    assert cue_stem("saw") != cue_stem("see") and cue_stem("rose") != cue_stem("rise")
