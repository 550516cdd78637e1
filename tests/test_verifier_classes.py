"""What a question asks for and what an answer is: the head of the wh-phrase, not a name
before it; a known city, country or state (a country is no town); a period named by its
years; a name's ending or a neighbouring capitalised word that belongs to another name.
On real snapshot sentences."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, rejected, supported

from graph.verifier import GROUNDING_STATED, verify_answer
from graph.verifier.kinds.answer_types import expected_class
from graph.verifier.kinds.classes import classify
from graph.verifier.kinds.descriptions import described_class
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from graph.verifier.score.combiner import load_combiner
from graph.verifier.text.categories import EVENT, ORGANISATION, PERSON, PLACE, WORK
from graph.verifier.text.normalise import analyse


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize(
    ("question", "noun", "classes", "proper"),
    [
        ("Which Soviet Union dictator did he work for?", "dictator", {PERSON}, False),
        (
            "What former 1985 Scottish League Cup Final player managed it?",
            "player",
            {PERSON},
            False,
        ),
        (
            "What a World Series of Poker Ladies' Event bracelet winner starred?",
            "winner",
            {PERSON},
            False,
        ),
        ("Which World Cup did he play in?", "cup", {EVENT}, True),
        ("What 2001 novel won the prize?", "novel", {WORK}, False),
        ("Which band artist sang it?", "artist", {ORGANISATION, PERSON}, False),
        # A relative "where" ends the phrase: the battle, not the Japanese armies.
        (
            "What battle where Japanese armies attacked Imphal ended in 1944?",
            "battle",
            {EVENT},
            False,
        ),
    ],
)
def test_the_class_comes_from_the_head_of_the_wh_phrase(
    question: str, noun: str, classes: set[str], proper: bool
) -> None:
    expected = expected_class(question)
    assert (expected.noun, set(expected.classes), expected.proper) == (noun, classes, proper)


@pytest.mark.parametrize(
    ("question", "noun", "classes"),
    [
        ("Name the country which adopted The Union Jack as a flag?", "country", {PLACE}),
        ("Name a band that played at Live Aid.", "band", {ORGANISATION}),
        ("The city which hosted the Olympic Games is in which country?", "country", {PLACE}),
        ("The first film which Warner Bros. made starred who?", "who", {PERSON, ORGANISATION}),
    ],
)
def test_a_relative_which_after_a_noun_asks_nothing_and_name_the_noun_asks_it(
    question: str, noun: str, classes: set[str]
) -> None:
    expected = expected_class(question)
    assert (expected.noun, set(expected.classes)) == (noun, classes)


def test_a_name_after_a_relative_which_is_not_what_the_question_asks(store: Store) -> None:
    store.add_text("Union Jack", "The Union Jack is the national flag of the United Kingdom.")
    store.add_text("Union Jack", "It is a ceremonial flag in Canada by resolution.", 1)
    for question in (
        "Name the country which adopted the Union Jack as a ceremonial flag?",
        "name the country which adopted the union jack as a ceremonial flag?",
    ):
        assert check(store, question, "Canada")["outcome"] != "rejected", question


def test_a_person_answers_a_question_whose_phrase_opens_with_a_name(store: Store) -> None:
    ids = store.add("Stanislav Redens", 0)  # "... mass repressions under Joseph Stalin."
    store.add("Joseph Stalin", 0)
    question = "Which Soviet Union dictator did secret police officer Stanislav Redens work for?"
    supported(check(store, question, "Joseph Stalin"), GROUNDING_STATED, ids)


def test_a_known_place_answers_where_whatever_else_bears_its_name(store: Store) -> None:
    store.add("Ardbeg distillery", 1)
    ids = store.add("LVMH", 0)  # "... headquartered in Paris."
    question = "Where are the headquarters of the company that owns the Ardbeg Distillery?"
    lexicon = snapshot_lexicon()
    found = classify(analyse("Paris"), "Paris", [], [], lexicon)
    assert found.known == {PLACE, WORK}  # the snapshot's "Paris" is a sitcom
    assert found.fits(expected_class(question)) is True
    assert found.fits(expected_class("Who owns the Ardbeg Distillery?")) is False
    verdict = verify_answer(
        question, "Paris", store.evidence, lexicon=lexicon, decider=load_combiner().full
    )
    supported(verdict, GROUNDING_STATED, ids)
    assert "a large city" in verdict["reason"]


def test_where_something_is_sited_asks_for_a_place_not_an_organisation(store: Store) -> None:
    store.search("Aixam")  # "... US based Polaris Industries announced ... acquired Aixam-Mega."
    store.search("Polaris Industries")  # "Polaris is based in Roseau, Minnesota, USA."
    question = "Where is the company that purchased Aixam based in?"
    rejected(check(store, question, "Polaris Industries"), "asks for somewhere (a place)")
    assert check(store, question, "Roseau, Minnesota")["outcome"] == "verified"
    for sited in (question, "The publisher is based where?", "Where is its headquarters?"):
        assert expected_class(sited).classes == {PLACE}, sited
    for other in (
        "Where did she study?",
        "Who wrote the tale the film where he starred is based on?",
    ):
        assert expected_class(other).classes != {PLACE}, other


def test_a_country_for_its_team_is_never_rejected(store: Store) -> None:
    store.add_text(
        "2018 FIFA World Cup Final",
        "The 2018 FIFA World Cup Final was won by France, who beat Croatia 4-2 in Moscow.",
    )
    verdict = check(store, "Which team won the 2018 FIFA World Cup Final?", "France")
    assert verdict["outcome"] != "rejected", verdict["reason"]
    assert check(store, "Which country won the 2018 FIFA World Cup Final?", "France")["supported"]


def test_a_body_for_a_person_is_never_rejected(store: Store) -> None:
    store.add_text(
        "Yellow (Coldplay song)",
        "Yellow is a song recorded by the British band Coldplay at Rockfield Studios in Wales.",
    )
    for question in ("Which artist recorded Yellow?", "Yellow was recorded by which musician?"):
        verdict = check(store, question, "Coldplay")  # a band, by the snapshot's lexicon
        assert verdict["outcome"] != "rejected", question
        assert "Coldplay" in verdict["reason"]
    # A place for a person is still the wrong kind (and a person for a label: see
    # test_verifier_relations).
    rejected(check(store, "Which musician recorded Yellow?", "Wales"), "a musician (a person)")


def test_a_season_goes_by_its_years(store: Store) -> None:
    store.add("John Francis Daley", 1)
    ids = store.add(
        "Freaks and Geeks", 0
    )  # "... aired on NBC during the 1999–2000 television season."
    question = (
        "John Francis Daley played high school freshman Sam Weir on a show that aired during"
        " what television season?"
    )
    supported(check(store, question, "1999–2000"), GROUNDING_STATED, ids)
    rejected(check(store, "What television network aired Freaks and Geeks?", "1999"), "a year")


@pytest.mark.parametrize(
    ("title", "index", "question", "answer"),
    [
        # "... the 2002 "Spider-Man" film.": not a person by its ending "man"
        (
            "Stan Lee's Mutants, Monsters &amp; Marvels",
            5,
            "What film included the documentary Stan Lee's Mutants, Monsters & Marvels?",
            "Spider-Man",
        ),
        # "(... as The Arrival of a Train at La Ciotat Station, Arrival of a Train at La
        # Ciotat (US) ...) is an 1895 French short ... documentary film": "Station" ends
        # another name, so it does not make the film a place
        (
            "L'Arrivée d'un train en gare de La Ciotat",
            0,
            "Which 1895 French short documentary film was directed by Auguste and Louis Lumière?",
            "Arrival of a Train at La Ciotat",
        ),
    ],
)
def test_a_word_of_a_name_does_not_say_what_it_is(
    store: Store, title: str, index: int, question: str, answer: str
) -> None:
    ids = store.add(title, index)
    supported(check(store, question, answer), GROUNDING_STATED, ids)


def test_a_country_or_a_state_is_a_place_but_not_one_within_it(store: Store) -> None:
    store.add("Mykolas Dluskis", 1)  # "From 1788 onwards he was a priest at Vilnius Cathedral."
    ids = store.add(
        "Vilnius Cathedral", 4
    )  # "... is the main Roman Catholic Cathedral of Lithuania."
    question = "In which country was Mykolas Dluskis a priest in 1788?"
    lexicon = snapshot_lexicon()
    verdict = verify_answer(
        question, "Lithuania", store.evidence, lexicon=lexicon, decider=load_combiner().full
    )
    supported(verdict, GROUNDING_STATED, ids)
    assert "a country or a state" in verdict["reason"]
    for place in ("Lithuania", "Kentucky"):
        found = classify(analyse(place), place, [], [], lexicon)
        assert found.fits(expected_class("Where was he from?")) is True
        assert found.fits(expected_class("In which town was he a priest?")) is False
        assert found.fits(expected_class("Which stadium did they play in?")) is False
    city = classify(analyse("New York"), "New York", [], [], lexicon)  # a state and a city
    assert city.fits(expected_class("In which city is the stadium?")) is True
    for name in ("Victoria", "Washington"):  # a state, and as often a city or a person
        assert not classify(analyse(name), name, [], [], lexicon).region


@pytest.mark.parametrize(
    ("name", "kinds"),
    [
        ("World War I", {EVENT}),  # a closing numeral: the word before says what it is
        ("World War II", {EVENT}),
        ("The Closer I Get", {WORK}),  # "I" inside a name: a title's word
        ("Rocky II", set()),
    ],
)
def test_a_closing_roman_numeral_is_no_title_word(name: str, kinds: set[str]) -> None:
    assert set(classify(analyse(name), name, [], [], None).known) == kinds


def test_a_closing_numeral_before_a_full_stop_is_still_a_numeral() -> None:
    name = "During World War II."
    assert set(classify(analyse(name), name, [], [], None).known) == {EVENT}


@pytest.mark.parametrize(
    ("description", "noun"),
    [
        (
            "Walter Darwin Coy (1909 – 1974) was an American stage, radio, film, and,"
            " principally, television actor, originally from Great Falls, Montana.",
            "actor",
        ),
        ("Ann Lee is a British film, television and theatre actress.", "actress"),
        ("Jim Al-Khalili is a British theoretical physicist, author and broadcaster.", "physicist"),
        ("Jaws is a 1975 film, directed by Steven Spielberg.", "film"),
        ("Holm is a village, and the seat of Holm County.", "village"),
    ],
)
def test_a_list_of_words_that_modify_a_noun_is_read_to_the_noun(
    description: str, noun: str
) -> None:
    described = described_class(description)
    assert described is not None and described[1] == noun


def test_an_actor_of_film_and_television_is_a_person_who_narrates(store: Store) -> None:
    store.add("Gunmen from Laredo", 0)  # "... which stars Robert Knapp, ... and Walter Coy."
    store.add("Walter Coy", 0, 1)  # "... an American stage, radio, film, and, principally,
    question = 'Gunmen from Laredo starred which narrator of "Frontier"?'  # television actor"
    assert check(store, question, "Walter Coy")["outcome"] != "rejected"
