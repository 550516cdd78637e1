"""An aside in parentheses that only says the answer again (another writing, its
initials, its measure in another unit, the years of what it names) is no part of the
answer to check; any other aside still is."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, rejected

from graph.verifier.answer_aside import without_aside

WAR = "In which war was Paul Tibbets a pilot?"
COUNTRY = "In which country was Barack Obama born?"
AGENCY = "Which agency did Clarice Starling work for?"


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add_text("Paul Tibbets", "Paul Tibbets was a pilot in World War II.")
    store.add_text("Barack Obama", "Barack Obama was born in Honolulu, in the United States.")
    store.add_text(
        "Clarice Starling", "Clarice Starling worked for the Federal Bureau of Investigation."
    )
    store.add_text("Eiffel Tower", "The Eiffel Tower is 300 metres tall.")
    return store


@pytest.mark.parametrize(
    ("question", "answer", "as_stated"),
    [
        (WAR, "World War II (WWII)", "'World War II'"),
        (WAR, "WWII (World War II)", "'World War II'"),
        (WAR, "the Second World War (WWII)", "'World War II'"),
        (WAR, "World War II (1939–1945)", "'World War II'"),
        (COUNTRY, "United States (USA)", "'United States'"),
        (COUNTRY, "U.S.A", "'United States'"),
        (AGENCY, "Federal Bureau of Investigation (FBI)", "'Federal Bureau of Investigation'"),
    ],
)
def test_an_aside_that_says_the_answer_again_is_left_out(
    store: Store, question: str, answer: str, as_stated: str
) -> None:
    verdict = check(store, question, answer)
    assert verdict["outcome"] == "verified", verdict["reason"]
    assert verdict["reason"].startswith(as_stated)


@pytest.mark.parametrize("answer", ["300 m (984 ft)", "984 feet (300 m)"])
def test_a_measure_with_its_conversion_is_not_rejected(store: Store, answer: str) -> None:
    verdict = check(store, "How tall is the Eiffel Tower?", answer)
    assert verdict["outcome"] != "rejected", verdict["reason"]


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (WAR, "World War II (Korea)"),  # a claim of its own, stated nowhere
        (WAR, "Korean War (1950–1953)"),  # the years go, the name is still checked
        (COUNTRY, "United States (UK)"),  # another country's initials
        ("How tall is the Eiffel Tower?", "300 m (1,200 ft)"),  # no conversion of it
    ],
)
def test_an_aside_that_says_anything_else_is_still_checked(
    store: Store, question: str, answer: str
) -> None:
    rejected(check(store, question, answer))


def test_the_years_stay_when_a_date_is_asked() -> None:
    assert without_aside("World War II (1939–1945)", asks_date=True) == "World War II (1939–1945)"
    assert without_aside("World War II (1939–1945)", asks_date=False) == "World War II"
    assert without_aside("Lolita (1962 film)", asks_date=False) == "Lolita (1962 film)"
    assert without_aside("Pet Sounds (1966)", asks_date=False) == "Pet Sounds"


@pytest.mark.parametrize(
    ("answer", "name"),
    [
        ("Giorgio de Chirico (GC)", "Giorgio de Chirico"),  # a particle left out
        ("Giorgio de Chirico (GDC)", "Giorgio de Chirico"),  # or kept
        ("The One Ring Roleplaying Game (ORRG)", "The One Ring Roleplaying Game"),
        ("League Two (LT)", "League Two"),  # a number word is a word, not a figure
        ("Bank of Oregon (BO)", "Bank of Oregon"),
        ("United States (UK)", "United States (UK)"),  # another name's initials
        ("Giorgio de Chirico (GDCX)", "Giorgio de Chirico (GDCX)"),  # a letter too many
    ],
)
def test_initials_follow_the_words_of_the_name(answer: str, name: str) -> None:
    assert without_aside(answer, asks_date=False) == name


def test_a_long_reply_is_read_whole_and_never_recurses_deep() -> None:
    many = "of " * 5000 + "World War (WW)"  # a reply, not a name: no aside is read
    assert without_aside(many, asks_date=False) == many
    named = " ".join(["Word"] * 40) + " (WWWWWWWW)"  # more words than a name's initials
    assert without_aside(named, asks_date=False) == named


def test_an_aside_after_a_preposition_and_a_name_is_left_out(store: Store) -> None:
    verdict = check(store, WAR, "during WWII (Second World War)")
    assert verdict["outcome"] == "verified" and verdict["reason"].startswith("'World War II'")
