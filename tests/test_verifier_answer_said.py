"""A right answer keeps its verdict however a model says it: after several announcements
("I believe the answer is X."), as what the question asks for ("The film is X."), or
with its first letter capitalised ("Role-playing"). Each of these once turned the right
answer away as "not stated" (the verifier bench's invariances count them)."""

from __future__ import annotations

import time

import pytest
from verifier_utils import Store, check

from graph.verifier.answer_asked import without_hedge, without_subject
from graph.verifier.answer_forms import core_answer
from graph.verifier.evidence.stored import stored_items
from graph.verifier.text.casing import as_written_in_sentence_case


@pytest.mark.parametrize(
    ("said", "answer"),
    [
        ("I believe the answer is Tromsø.", "Tromsø"),
        ("Based on the evidence, I think the answer is Tromsø.", "Tromsø"),
        ("According to the stored evidence, Tromsø", "Tromsø"),
        ("So, the answer is Tromsø", "Tromsø"),
        ("Therefore, Tromsø.", "Tromsø"),
        ("The correct answer would be Tromsø", "Tromsø"),
        ("So, I Said", "So, I Said"),  # "So," alone announces nothing: a title
        ("Answer:", ""),  # an announcement and nothing else: an empty answer
        ("The year is 1956.", "The year is 1956"),  # a subject: `without_subject`
        ("in May 1956", "May 1956"),
        ("in the year 1551", "1551"),
        ("**Answer:** Tromsø", "Tromsø"),
        ("__Answer__: Tromsø", "Tromsø"),
        ("The answer is: Tromsø", "Tromsø"),
        ("Tromsø, I think.", "Tromsø"),
        ("Tromsø\n\nThe evidence says so.", "Tromsø"),
        ("Tromsø\nExplanation: E3 says so.", "Tromsø"),
        ("\n\nTromsø", "Tromsø"),
        ("Zack Morris (the character)", "Zack Morris"),
        ("Tromsø; the evidence says so.", "Tromsø"),
        ("Tromsø because E3 says so", "Tromsø"),
        ("Tromsø, because E3 says so.", "Tromsø"),
        ("Blood Sweat &amp; Tears", "Blood Sweat &amp; Tears"),
        ("Because of Winn-Dixie", "Because of Winn-Dixie"),
        ("Rocky (1976)", "Rocky (1976)"),
        ("during his 1990 tour", "during his 1990 tour"),  # no date after "during"
    ],
)
def test_announcements_are_dropped_one_after_another(said: str, answer: str) -> None:
    assert core_answer(said) == answer


@pytest.mark.parametrize(
    ("question", "said", "answer"),
    [
        ("What film did Peter Best score?", "The film is Crocodile Dundee.", "Crocodile Dundee"),
        ("In what year was Ken Russell born?", "The year is 1927.", "1927"),
        ("What is the middle name of the actor?", "His middle name was Wroughton", "Wroughton"),
        ("Which clubs did he play for?", 'The club is "IK Start".', "IK Start"),
        ("What film did Peter Best score?", "The Film Is Near", "The Film Is Near"),  # a title
        ("What film did Peter Best score?", "The director is Faiman", "The director is Faiman"),
        ("Where was the song released?", "The song was released in Britain", None),  # a clause
        ("What film did Peter Best score?", "the film Crocodile Dundee", "Crocodile Dundee"),
        ("What is the Head Full of Dreams Tour?", "the Province of Buenos Aires", None),
        ("How many songs were on the album?", "11 songs", "11"),
        ("How many songs were on the album?", "3 times", None),
        ("Which character is it?", "Zack Morris, the character", "Zack Morris"),
        ("Which city is it?", "Paris, the capital", None),
    ],
)
def test_a_subject_naming_what_is_asked_is_dropped(
    question: str, said: str, answer: str | None
) -> None:
    assert without_subject(question, core_answer(said)) == (answer or said)


def test_a_hedge_is_dropped_unless_the_evidence_states_the_whole_reply() -> None:
    store = Store()
    store.add_text("Lolita (1962 film)", "Lolita is a 1962 film by Stanley Kubrick.")
    store.add_text("Ram (album)", "It opens with Maybe I'm Amazed, a love song.", 1)
    items = stored_items(store.evidence)
    assert without_hedge("Probably Lolita", items) == "Lolita"
    assert without_hedge("Most likely Lolita.", items) == "Lolita"
    assert without_hedge("Maybe I'm Amazed", items) == "Maybe I'm Amazed"
    assert without_hedge("Probably", items) == "Probably"


SENTENCES = [
    "Fallout is a series of post-apocalyptic role-playing video games.",
    "Paris is the capital of France.",
    "It was directed by Christopher Nolan, and Tromsø hosted it.",
    "He wrote commentaries on Aristotle.",
]


@pytest.mark.parametrize(
    ("said", "read"),
    [
        ("Role-playing", "role-playing"),  # the sentences write it in lower case
        ("Christopher nolan", "Christopher Nolan"),  # their capitals
        ("Tromsø", "Tromsø"),  # written so past a sentence's first word
        ("Paris", "Paris"),  # only a sentence's first word, and never in lower case
        ("Fallout", "Fallout"),  # a stored page's title
        ("Commentaries on", "Commentaries on"),  # a name cut short stays a name
        ("ROLE-PLAYING", "ROLE-PLAYING"),
    ],
)
def test_a_first_capital_is_read_as_the_evidence_writes_the_answer(said: str, read: str) -> None:
    assert as_written_in_sentence_case(said, SENTENCES, ["Fallout (series)"]) == read


@pytest.mark.parametrize(
    "answer",
    [
        "Therefore, " * 16_000 + "x",
        "The film " + "a " * 32_000 + "is X",
        "A" + "b" * 100_000,
        "x\n" + " " * 100_000 + "y",  # a search for " because" from every space took 9 s
        "a" + " \n" * 50_000 + "b",
        "a" + "; " * 100_000,
        ("\n" + " " * 1_000) * 100 + "x",
        "Probably " * 20_000 + "x",
        "1" * 100_000 + " songs!",
    ],
)
def test_hostile_sayings_cost_time_in_proportion_to_their_length(answer: str) -> None:
    started = time.monotonic()
    without_hedge(without_subject("How many songs is it?", core_answer(answer)), [])
    as_written_in_sentence_case(answer, SENTENCES * 100, ["Fallout"])
    assert time.monotonic() - started < 10.0


@pytest.mark.parametrize(
    ("answer", "outcome"),
    [
        ("1970", "verified"),
        ("July 1970", "verified"),  # less precise than the stated date, and in it
        ("in July 1970", "verified"),
        ("August 1970", "rejected"),  # a month no sentence gives the year
        ("July 1971", "rejected"),
    ],
)
def test_a_year_with_its_stated_month_is_placed_in_the_date(answer: str, outcome: str) -> None:
    store = Store()
    store.add_text(
        "Christopher Nolan",
        "Christopher Edward Nolan (born 30 July 1970) is an English-American film director.",
    )
    verdict = check(store, "In what year was the director of Inception born?", answer)
    assert verdict["outcome"] == outcome, verdict["reason"]
