"""The verifier's rules, each checked on real sentences from the offline snapshot."""

from __future__ import annotations

import copy

import pytest
from verifier_utils import Store, check, grounded, rejected, stated, supported

from graph.verifier import (
    GROUNDING_COMPUTED,
    GROUNDING_STATED,
)


@pytest.fixture
def store() -> Store:
    return Store()


# Normalisation and containment


def test_case_punctuation_and_articles_do_not_matter(store: Store) -> None:
    ids = store.add("Crocodile Dundee", 0)
    question = "What film did Peter Best make in 1986 that was set in the Australian Outback?"
    verdict = check(store, question, "the CROCODILE Dundee!")
    supported(verdict, GROUNDING_STATED, ids)
    assert "is stated in stored sentence" in verdict["reason"]


def test_the_page_title_is_the_subject_of_a_pronoun_sentence(store: Store) -> None:
    ids = store.add("Aqeel Ahmed (cricketer)", 2)  # "He was born in Faisalabad, Punjab."
    verdict = check(store, "Which Pakistani cricketer was born in Faisalabad?", "Aqeel Ahmed")
    supported(verdict, GROUNDING_STATED, ids)
    assert "Aqeel Ahmed (cricketer)" in verdict["reason"]


def test_an_answer_no_sentence_states_names_what_is_missing(store: Store) -> None:
    store.add("Crocodile Dundee", 0, 1)
    verdict = check(store, "Who starred in Crocodile Dundee?", "Russell Crowe")
    rejected(verdict, "No stored sentence states")
    assert verdict["missing"] == ["Russell Crowe"]


# Numbers, dates and units


@pytest.mark.parametrize(
    "answer", ["July 30, 1970", "30 July 1970", "30th of July 1970", "1970-07-30"]
)
def test_dates_compare_in_any_common_form(store: Store, answer: str) -> None:
    ids = store.add("Christopher Nolan", 0)  # "... born 30 July 1970) is ..."
    supported(check(store, "When was Christopher Nolan born?", answer), GROUNDING_STATED, ids)


def test_a_different_date_is_rejected_with_the_stored_value(store: Store) -> None:
    store.add("Christopher Nolan", 0)
    verdict = check(store, "When was Christopher Nolan born?", "July 30, 1971")
    rejected(verdict, "1970")


def test_scaled_numbers_equal_their_digits(store: Store) -> None:
    ids = store.add("AdSense", 4)  # "Google earned US $3.4 billion"
    question = "How much did Google earn through AdSense in Q1 2014?"
    stated(check(store, question, "$3,400,000,000"), ids)
    penn = store.add("15 Penn Plaza", 1)  # "2,050,000 square feet"
    question = "How many square feet of floor space would 15 Penn Plaza have?"
    supported(check(store, question, "2.05 million square feet"), GROUNDING_STATED, penn)


def test_units_compare_by_their_abbreviations(store: Store) -> None:
    ids = store.add("Aba Tenna Dejazmach Yilma International Airport", 0, 1)  # "5 km northwest"
    question = "How far from the city center is Dire Dawa International Airport?"
    supported(check(store, question, "5 kilometres"), GROUNDING_STATED, ids[1:])


# Paraphrased spans and multi-part answers


def test_a_span_of_a_longer_place_name_is_contained(store: Store) -> None:
    ids = store.add("Allister Brimble", 0)  # "born 1970 in Westminster, London"
    question = "Where was the video game composer Allister Brimble born?"
    stated(check(store, question, "Westminster, London"), ids)


def test_reordered_words_of_a_close_span_are_a_paraphrase(store: Store) -> None:
    ids = store.add("Allister Brimble", 0)
    question = "Where was the video game composer Allister Brimble born?"
    stated(check(store, question, "London, Westminster"), ids)


def test_each_part_of_an_answer_may_come_from_its_own_sentence(store: Store) -> None:
    ids = store.add("Crocodile Dundee", 0, 1, 2)
    question = "Which actor and actress star in the film Crocodile Dundee?"
    verdict = check(store, question, "Paul Hogan and Linda Kozlowski")
    stated(verdict, ids[1:])


def test_a_part_no_sentence_states_is_the_missing_part(store: Store) -> None:
    store.add("Crocodile Dundee", 0, 1, 2)
    question = "Which actor and actress star in the film Crocodile Dundee?"
    verdict = check(store, question, "Paul Hogan and Meryl Streep")
    rejected(verdict, "Meryl Streep")
    assert verdict["missing"] == ["Meryl Streep"]


def test_a_plural_common_noun_matches_its_singular(store: Store) -> None:
    store.add("Antonín Dvořák", 0)
    store.add("Giuseppe Verdi", 0)
    question = "Antonín Dvořák and Giuseppe Verdi were both what?"
    verdict = check(store, question, "composers", question_type="comparison")
    assert verdict["supported"], verdict["reason"]
    assert verdict["grounding"] == GROUNDING_STATED


# Yes/no and comparison questions


DIRECTORS = "Are King Vidor and Géza von Cziffra both film directors?"


@pytest.mark.parametrize("question_type", [None, "comparison"])
def test_yes_no_is_computed_from_evidence_about_each_entity(
    store: Store, question_type: str | None
) -> None:
    ids = store.add("King Vidor", 0) + store.add("Géza von Cziffra", 0)
    verdict = check(store, DIRECTORS, "yes", question_type=question_type)
    supported(verdict, GROUNDING_COMPUTED, ids)
    assert "Computed from the stored evidence" in verdict["reason"]
    rejected(check(store, DIRECTORS, "no", question_type=question_type), "contradicts")


def test_yes_no_without_evidence_about_one_entity_names_it(store: Store) -> None:
    store.add("King Vidor", 0, 1, 2)
    verdict = check(store, DIRECTORS, "no")
    grounded(verdict, "geza von cziffra")
    assert verdict["missing"] == ["geza von cziffra"]


def test_a_mention_on_another_page_is_not_evidence_about_an_entity(store: Store) -> None:
    store.add("Antonín Dvořák", 1)  # names Bedřich Smetana, on Dvořák's page
    store.add("Giuseppe Verdi", 0)
    question = "Was Bedřich Smetana or Giuseppe Verdi born first?"
    grounded(check(store, question, "Bedřich Smetana"), "bedrich smetana")


def test_a_choice_between_named_alternatives_is_detected_without_a_type(store: Store) -> None:
    ids = store.add("Antonín Dvořák", 0) + store.add("Giuseppe Verdi", 0)
    question = "Which composer was born first, Antonín Dvořák or Giuseppe Verdi?"
    verdict = check(store, question, "Giuseppe Fortunino Francesco Verdi")
    supported(verdict, GROUNDING_COMPUTED, ids)
    assert "1813" in verdict["reason"] and "1841" in verdict["reason"]


def test_an_answer_outside_the_alternatives_is_rejected(store: Store) -> None:
    store.add("Antonín Dvořák", 0, 1)  # sentence 1 names Bedřich Smetana
    store.add("Giuseppe Verdi", 0)
    question = "Which composer was born first, Antonín Dvořák or Giuseppe Verdi?"
    rejected(check(store, question, "Bedřich Smetana"), "choose")


def test_yes_does_not_answer_a_which_question(store: Store) -> None:
    store.add("Antonín Dvořák", 0)
    store.add("Giuseppe Verdi", 0)
    question = "Which composer was born first, Antonín Dvořák or Giuseppe Verdi?"
    rejected(check(store, question, "yes"), "what, which or who")


def test_a_yes_no_question_needs_yes_or_no(store: Store) -> None:
    store.add("King Vidor", 0)
    store.add("Géza von Cziffra", 0)
    rejected(check(store, DIRECTORS, "film director"), "yes or no")


# Contradictions and the form of the answer


@pytest.mark.parametrize(
    ("title", "question", "wrong", "reason_word", "right"),
    [
        # "multi-instrumentalist Saadiq (Darnell Bolden, not to be confused with Raphael Saadiq)"
        (
            "Platinum Pied Pipers",
            "Who is the multi-instrumentalist of Platinum Pied Pipers?",
            "Raphael Saadiq",
            "denied",
            "Darnell Bolden",
        ),
        # "a proposed 68-story tower"
        ("15 Penn Plaza", "How many stories does 15 Penn Plaza have?", "many", "number", "68"),
    ],
)
def test_a_denied_or_ill_formed_answer_is_rejected_and_the_stated_one_accepted(
    store: Store, title: str, question: str, wrong: str, reason_word: str, right: str
) -> None:
    ids = store.add(title, 0)
    rejected(check(store, question, wrong), reason_word)
    stated(check(store, question, right), ids)


def test_a_year_question_needs_a_year(store: Store) -> None:
    store.add("Christopher Nolan", 0)
    rejected(check(store, "In what year was Christopher Nolan born?", "London"), "year")


def test_a_who_question_is_not_answered_by_a_date(store: Store) -> None:
    store.add("King Vidor", 3)  # "The Big Parade" (1925)
    rejected(check(store, "Who directed The Big Parade?", "1925"), "who")


# Traps


def test_a_number_in_an_unrelated_sentence_does_not_support(store: Store) -> None:
    store.add("Christopher Nolan", 1)
    store.add("Allister Brimble", 0)  # "born 1970 in Westminster" - another man
    question = "In what year was Christopher Nolan born?"
    grounded(check(store, question, "1970"), "unrelated")
    ids = store.add("Christopher Nolan", 0)
    verdict = check(store, question, "1970")
    supported(verdict, GROUNDING_STATED, ids)
    assert verdict["evidence_ids"] == ids


def test_a_name_inside_a_longer_name_is_not_stated(store: Store) -> None:
    ids = store.add("Brides (album)", 0)  # "... by English singer Annabel Lamb."
    question = "Which English singer released the album Brides in 1987?"
    rejected(check(store, question, "Ann"))
    rejected(check(store, question, "Ann Lamb"))
    supported(check(store, question, "Annabel Lamb"), GROUNDING_STATED, ids)


@pytest.mark.parametrize("answer", ["", "   ", "the", "?!"])
def test_an_empty_answer_is_rejected(store: Store, answer: str) -> None:
    store.add("Christopher Nolan", 0)
    verdict = check(store, "When was Christopher Nolan born?", answer)
    rejected(verdict, "empty")
    assert verdict["missing"] == []


def test_no_evidence_supports_nothing(store: Store) -> None:
    verdict = check(store, "When was Christopher Nolan born?", "30 July 1970")
    rejected(verdict, "No evidence")
    assert verdict["missing"] == ["30 July 1970"]


def test_the_verifier_is_pure(store: Store) -> None:
    store.add("Christopher Nolan", 0, 1)
    before = copy.deepcopy(store.evidence)
    first = check(store, "When was Christopher Nolan born?", "30 July 1970")
    second = check(store, "When was Christopher Nolan born?", "30 July 1970")
    assert first == second
    assert store.evidence == before
