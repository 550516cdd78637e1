"""A right answer written otherwise than the evidence writes it: an honorific before a
name, another writing of the same name ("St." for "Saint", "Corp." for "Corporation",
"WWII" for "World War II", "USA" for "United States", a date in figures), a qualifier
after a comma that no sentence states. The first two are read as the evidence writes
them; the third is grounded, never rejected."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, rejected

from graph.verifier.text.normalise import analyse
from graph.verifier.text.variants import variants
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
    store.add_text("Paul Tibbets", "Paul Tibbets was a pilot in World War II.")
    store.add_text("Windows", "Windows is developed by the Microsoft Corporation.")
    store.add_text("Dolly Parton", "Dolly Parton (born 19 January 1946) is a singer.")
    store.add_text("Gordon Brown", "Gordon Brown studied at the University of Edinburgh.")
    store.add_text("Sherlock Holmes", "Sherlock Holmes lives at 221B Baker Street in London.")
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
        ("Who wrote the song Yesterday?", "Doctor Paul McCartney", "'Paul McCartney'"),
        ("In which war was Paul Tibbets a pilot?", "WWII", "'World War II'"),
        ("In which war was Paul Tibbets a pilot?", "the Second World War", "'World War II'"),
        ("In which war was Paul Tibbets a pilot?", "World War 2", "'World War II'"),
        ("In which country was Barack Obama born?", "USA", "'United States'"),
        ("In which country was Barack Obama born?", "U.S.", "'United States'"),
        ("Which company develops Windows?", "Microsoft Corp.", "'Microsoft Corporation'"),
        ("When was Dolly Parton born?", "19/01/1946", "'19 January 1946'"),
        ("Where does Sherlock Holmes live?", "221B Baker St.", "'221B Baker Street'"),
        ("When was Dolly Parton born?", "01/19/1946", "'19 January 1946'"),
    ],
)
def test_an_answer_is_read_as_the_evidence_writes_it(
    store: Store, question: str, answer: str, as_stated: str
) -> None:
    verdict = check(store, question, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert verdict["reason"].startswith(as_stated)


def test_initials_of_a_stated_name_no_table_lists_are_grounded_on_it() -> None:
    store = Store()
    store.add_text("Yale", "Yale University is in New Haven, Connecticut.")
    verdict = check(store, "In which city is Yale University?", "NH")
    assert verdict["outcome"] == "grounded", verdict["reason"]
    assert "initials of 'New Haven'" in verdict["reason"] and verdict["evidence_ids"]


@pytest.mark.parametrize("answer", ["US", "United States"])
def test_the_longest_writing_a_sentence_states_is_read(answer: str) -> None:
    store = Store()
    store.add_text(
        "Great Lakes", "The lakes are shared by Canada and the United States of America."
    )
    verdict = check(store, "Which country shares the Great Lakes with Canada?", answer)
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert verdict["reason"].startswith("'United States of America'")


def test_a_writing_that_may_name_something_else_is_not_read_as_the_stated_name() -> None:
    store = Store()
    store.add_text("Queen Anne", "Anne became the first monarch of the United Kingdom.")
    question = "Of which kingdom was Anne the first monarch?"
    assert check(store, question, "UK")["outcome"] == "verified"
    rejected(check(store, question, "Great Britain"))  # a kingdom before the United Kingdom
    rejected(check(store, question, "America"))


def test_another_war_is_never_verified_as_a_writing_of_the_stated_one(store: Store) -> None:
    verdict = check(store, "In which war was Paul Tibbets a pilot?", "WWI")
    assert verdict["outcome"] != "verified", verdict["reason"]


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
        ("In which war was Paul Tibbets a pilot?", "Korean War"),
        ("In which city was Chuck Berry born?", "Saint Paul"),  # another saint
        ("When was Dolly Parton born?", "19/02/1946"),  # neither reading is the stated date
    ],
)
def test_what_the_evidence_does_not_state_is_still_rejected(
    store: Store, question: str, answer: str
) -> None:
    rejected(check(store, question, answer))


def test_an_acronym_of_two_stated_names_is_read_as_neither() -> None:
    store = Store()
    store.add_text("Noam Chomsky", "Noam Chomsky was born in Philadelphia, in East Oak Lane.")
    store.add_text("Noam Chomsky", "He taught at East Oxford Lyceum.", 1)
    rejected(check(store, "Where was Noam Chomsky born?", "E.O.L."))


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


@pytest.fixture
def figures() -> Store:
    store = Store()
    store.add_text("Brexit", "In the Brexit referendum, 51.9 per cent of voters backed leaving.")
    store.add_text("Roman Empire", "The Western Roman Empire fell in 476 AD.")
    store.add_text("Trinity College", "Trinity College was founded by Henry VIII in 1546.")
    store.add_text("Mira Nair", "Mira Nair studied in Delhi for three and a half years.")
    return store


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("What percent of voters in the Brexit referendum backed leaving?", "51.9%"),
        ("When did the Western Roman Empire fall?", "476 CE"),
        ("When did the Western Roman Empire fall?", "AD 476"),
        ("Which king founded Trinity College?", "King Henry VIII"),
    ],
)
def test_a_value_or_name_said_otherwise_is_verified(
    figures: Store, question: str, answer: str
) -> None:
    verdict = check(figures, question, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]


def test_a_half_in_words_is_the_same_number_as_in_figures(figures: Store) -> None:
    question = "For how many years did Mira Nair study in Delhi?"
    for answer in ("three and a half years", "3.5 years", "3.5"):
        verdict = check(figures, question, answer)
        assert verdict["outcome"] != "rejected" and verdict["evidence_ids"], verdict["reason"]
    assert analyse("Two and a Half Men").tokens == analyse("2.5 men").tokens


def test_an_era_that_changes_the_year_is_kept() -> None:
    assert analyse("44 BC").tokens == ("44", "bc") and analyse("476 AD").tokens == ("476",)
    assert analyse("The CE marking").tokens == ("ce", "marking")


def test_an_abbreviation_of_two_words_is_read_as_the_one_a_sentence_states() -> None:
    assert {"Saint Olaf College", "Street Olaf College"} <= set(variants("St. Olaf College"))
    assert not set(variants("St. Olaf College", spell_out=False))


@pytest.mark.parametrize(
    ("question", "answer", "as_stated"),
    [
        ("In which war was Paul Tibbets a pilot?", "during WWII", "'World War II'"),
        ("In which war was Paul Tibbets a pilot?", "World War Two", "'World War II'"),
        ("In which city was Chuck Berry born?", "from St. Louis", "'St. Louis'"),
    ],
)
def test_a_preposition_before_a_name_is_no_part_of_it(
    store: Store, question: str, answer: str, as_stated: str
) -> None:
    verdict = check(store, question, answer)
    assert verdict["outcome"] != "rejected" and verdict["reason"].startswith(as_stated)


def test_a_preposition_leaves_no_common_word_a_name() -> None:
    store = Store()
    store.add_text("Etta James", "It was the last album she recorded, in 1960.")
    rejected(check(store, "Which song did Etta James record in 1960?", "At Last"))


@pytest.mark.parametrize(
    ("answer", "stated", "missing"),
    [
        ("St. Louis, Missouri, USA", "'St. Louis, Missouri'", ["USA"]),  # the last comma
        ("the University of Edinburgh in Scotland", "'the University of Edinburgh'", []),
    ],
)
def test_a_stated_name_qualified_by_a_place_is_grounded(
    answer: str, stated: str, missing: list[str]
) -> None:
    store = Store()
    store.add_text("Chuck Berry", "Chuck Berry was born in St. Louis, Missouri.")
    store.add_text("Gordon Brown", "Gordon Brown studied at the University of Edinburgh.", 1)
    store.add_text("Gordon Brown", "Gordon Brown was born in Scotland.", 2)
    verdict = check(store, "Where was Chuck Berry born, and where did Gordon Brown study?", answer)
    assert verdict["outcome"] == "grounded" and verdict["reason"].startswith(stated)
    assert verdict["missing"] == missing


def test_a_title_with_in_is_no_qualified_name() -> None:
    store = Store()
    store.add_text("Lover Come Back", "It starred Doris Day, who read The Stars.")
    rejected(check(store, "Which novel was the film based on?", "The Stars in Their Courses"))


def test_initials_leave_out_a_generational_suffix() -> None:
    store = Store()
    store.add_text("March on Washington", "The March on Washington was held in 1963.")
    store.add_text("March on Washington", "It was led by Martin Luther King Jr. and others.", 1)
    verdict = check(store, "Who led the 1963 March on Washington?", "MLK")
    assert verdict["outcome"] == "grounded", verdict["reason"]
    assert "initials of 'Martin Luther King Jr'" in verdict["reason"]
    assert check(store, "Who led the 1963 March on Washington?", "MK")["outcome"] == "rejected"


def test_an_initial_for_a_first_name_a_page_title_writes_is_read_as_that_name() -> None:
    store = Store()
    store.add_text("Tim Conway", 'Thomas Daniel "Tim" Conway (born 1933) is an American actor.')
    store.add_text("Tim Conway", 'He is known for his role in "McHale\'s Navy".', 1)
    question = "What actor starred in McHale's Navy?"
    verdict = check(store, question, "T. Conway")
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert verdict["reason"].startswith("'Tim Conway' is stated")


def test_an_initial_a_is_no_article() -> None:
    store = Store()
    store.add_text("Jagdish Mali", "Jagdish Mali is an Indian film photographer.")
    store.add_text(
        "Antara Mali", "Antara Mali is an Indian film actress, the daughter of Jagdish Mali."
    )
    question = "Jagdish Mali is father to which Bollywood actress?"
    verdict = check(store, question, "A. Mali")
    assert verdict["outcome"] != "rejected", verdict["reason"]
    assert "'Antara Mali'" in verdict["reason"]
