"""A stated answer must answer this question: the right class of thing, tied to what the
question asks. Each trap is a wrong span from the right page, on real snapshot sentences."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, rejected, stated, supported

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


def test_a_name_of_the_wrong_class_is_rejected_when_a_strong_source_says_so(store: Store) -> None:
    store.add("Big Hero 6 (film)", 0, 1, 2, 3)  # 3: "... Alan Tudyk, James Cromwell, ..."
    store.add("Never Cry Wolf (film)", 0, 1, 2, 3)
    verdict = check(store, LABEL, "James Cromwell")  # a person only by its given name: a guess
    grounded(verdict, "a label (an organisation)", "a person (guess")
    assert verdict["missing"] == ["that 'James Cromwell' is a label (an organisation)"]
    rejected(check(store, LABEL, "Don Hall"), "lexicon")  # "... is an American film director"
    supported(check(store, LABEL, "Walt Disney Pictures"), GROUNDING_STATED, ["e1"])


def test_the_words_around_a_name_say_what_it_is(store: Store) -> None:
    store.add("Lolita (1962 film)", 0, 1)  # "... film directed by Stanley Kubrick."
    store.add("Ray Stark", 0, 1)
    grounded(check(store, SCREENPLAY, "Stanley Kubrick", lexicon=False), "directed by")
    supported(check(store, SCREENPLAY, "Lolita"), GROUNDING_STATED, ["e1"])


def test_a_year_does_not_name_an_event(store: Store) -> None:
    store.add("Dirkie Chamberlain", 0, 1, 2)  # 2: "... at the 2010 and 2014 Commonwealth Games."
    store.add("2012 Summer Olympics", 0)
    rejected(check(store, EVENT, "2010"), "a year, not a name")
    assert check(store, EVENT, "2012 Summer Olympics")["supported"]


def test_a_wrong_year_from_the_same_sentence_is_grounded(store: Store) -> None:
    ids = store.add("Fannie Lee Chaney", 0)  # "(September 4, 1921 – May 22, 2007) was ..."
    question = "When did Fannie Lee Chaney die?"
    verdict = check(store, question, "2007")
    stated(verdict, ids)
    stated(check(store, question, "May 22, 2007"), ids)
    wrong = check(store, question, "1921")
    grounded(wrong, "another year there sits nearer to 'died'")
    assert wrong["missing"] == ["'1921' as what the question asks about ('die')"]


def test_a_wrong_number_from_the_same_page_is_grounded(store: Store) -> None:
    ids = store.add("15 Penn Plaza", 0, 1)  # "68-story tower" ... "2,050,000 square feet"
    question = "How many stories would 15 Penn Plaza have?"
    supported(check(store, question, "68"), GROUNDING_STATED, ids[:1])
    grounded(check(store, question, "2,050,000"), "does not say what the question counts")


def test_a_pronoun_linked_true_answer_still_verifies(store: Store) -> None:
    ids = store.add("Aqeel Ahmed (cricketer)", 0, 1, 2)  # 2: "He was born in Faisalabad, Punjab."
    question = "In which city was the Pakistani cricketer Aqeel Ahmed born?"
    verdict = check(store, question, "Faisalabad")
    supported(verdict, GROUNDING_STATED, ids[2:])
    assert "nearest 'born'" in verdict["reason"]


def test_a_demonym_names_a_country_only_by_its_people(store: Store) -> None:
    store.add("Georg Klindworth", 0)  # "... was a German diplomat ... in the service of ..."
    store.add("Otto von Bismarck", 0)
    question = "Which present day country was home to Georg Klindworth and Otto von Bismarck?"
    assert check(store, question, "Germany")["supported"]
    grounded(check(store, question, "German"), "a nationality where the question asks")


def test_a_compound_modifier_is_not_a_name(store: Store) -> None:
    store.add("Tumi Inc.", 0, 1)  # "Tumi Holdings, Inc., is a South Plainfield, New Jersey-based"
    question = (
        "Which suitcase manufacturer is named after a Peruvian artifact and has a store in an"
        " urban shopping mall in Time Warner Center in Manhattan?"
    )
    assert check(store, question, "Tumi Holdings, Inc.")["supported"]
    rejected(check(store, question, "New Jersey-based"), "a modifier")


def test_a_romanised_given_name_with_a_hyphen_is_a_name(store: Store) -> None:
    ids = store.add("Train to Busan", 0)  # "... directed by Yeon Sang-ho and starring ..."
    supported(check(store, "Who directed Train to Busan?", "Yeon Sang-ho"), GROUNDING_STATED, ids)


def test_a_number_names_what_the_sentence_numbers(store: Store) -> None:
    store.add("Bart Rowland", 0)  # "... representing District 53 since the February 7, 2012 ..."
    store.add("James Comer (politician)", 1)  # "... from 2000 to 2012."
    question = (
        "Which district did James Comer represent before becoming the Agriculture Commissioner"
        " of Kentucky in 2012?"
    )
    supported(check(store, question, "53"), GROUNDING_STATED, ["e1"])
    rejected(check(store, question, "2000"), "a year, not a name")


def test_a_year_answers_a_question_that_also_asks_what_year(store: Store) -> None:
    store.add("Candy Darling", 0, 1)  # "(November 24, 1944 – March 21, 1974)"
    store.add("The Velvet Underground", 0)  # "... a rock band formed in 1964 ... (... in 1965)."
    question = (
        "What American transgender actress starred in Andy Warhol's films and was a muse of the"
        " protopunk band The Velvet Underground, a rock band formed what year in New York City?"
    )
    supported(check(store, question, "1964"), GROUNDING_STATED, ["e3"])
    grounded(check(store, question, "1965"), "another year there sits nearer to 'formed'")
    grounded(check(store, question, "1944"), "does not say the event")


def test_a_date_answer_may_say_its_event(store: Store) -> None:
    store.add("Den Pobedy", 2)
    ids = store.add("Vladimir Shainsky", 0)  # "(Russian: ... ; born 12 December 1925) is ..."
    question = (
        'When was the composer, who remarked on Den Pobedy that "the song seemed to have turned'
        ' back the time," born?'
    )
    supported(check(store, question, "born 12 December 1925"), GROUNDING_STATED, ids)


def test_whose_asks_for_an_owner_a_country_too(store: Store) -> None:
    store.add("HMS Duncan (D37)", 0)
    ids = store.add("Type 45 destroyer", 0)  # "... built for the United Kingdom's Royal Navy."
    question = (
        'HMS "Duncan" is the sixth and last of the Type 45 destroyer, an advanced class of six'
        " guided missile destroyers built for whose Royal Navy?"
    )
    verdict = check(store, question, "United Kingdom's")
    supported(verdict, GROUNDING_STATED, ids)
    assert "it is a place" in verdict["reason"]
