"""Comparisons computed from values the pages state in other words: a work's year written
as its adjective, a family by its scientific name, a country by its name, a profession
asked as a "type of work", a "case" by a "decision", "literary" by a writer, a height in
feet against one in metres, a superlative only one page states (not ranked: "the second
tallest"). On real snapshot sentences; an entity without a value leaves the comparison
undecided."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, rejected, supported

from graph.verifier import GROUNDING_COMPUTED, GROUNDING_STATED


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize(
    ("pages", "question", "right", "facts"),
    [
        # "... is a 1992 American documentary film ..." / "... is a 2004 political documentary"
        (
            ("The Panama Deception", "Celsius 41.11"),
            "Were The Panama Deception and Celsius 41.11 released in the same year?",
            "no",
            ("1992", "2004"),
        ),
        # "... in the Cupressaceae (cypress family)." / "... nightshade family, Solanaceae."
        (
            ("Widdringtonia", "Solandra"),
            "Are Widdringtonia and Solandra in the same family?",
            "no",
            ("cupressaceae", "solanaceae"),
        ),
        # "... of the family Rutaceae ..." / "... in the citrus family Rutaceae family."
        (
            ("Adenandra", "Zieria"),
            "Are Adenandra and Zieria in the same family?",
            "yes",
            ("rutaceae",),
        ),
        # "... shrubs or small trees in the family Rhamnaceae." / "... species of orchids."
        (
            ("Ceanothus", "Eulophia"),
            "Are Ceanothus and Eulophia both types of plant?",
            "yes",
            ("plant",),
        ),
        # "... is a decision by the United States Supreme Court ..." / "... was a United
        # States Supreme Court case ..."
        (
            ("Berghuis v. Thompkins", "Brown v. Mississippi"),
            "Are both Berghuis v. Thompkins and Brown v. Mississippi Supreme Court Cases?",
            "yes",
            ("cases, court, supreme",),
        ),
        # "... is an Irish writer." / "... a Canadian journalist who became a best-selling
        # author of historical novels ..."
        (
            ("Patrick McCabe (novelist)", "Thomas B. Costain"),
            "Patrick McCabe and Thomas B. Costain, are in the literary industry?",
            "yes",
            ("literary of literary",),
        ),
        # "... located entirely in India." / "... in eastern Denmark, is a cathedral ..."
        (
            ("Western Ghats", "Roskilde Cathedral"),
            "Western Ghats and Roskilde Cathedral, are located in India?",
            "no",
            ("danish, not india",),
        ),
        # "... was a Soviet mathematician ..." / "... is a Soviet-American computer scientist."
        (
            ("Pavel Urysohn", "Leonid Levin"),
            "Were Pavel Urysohn and Leonid Levin known for the same type of work?",
            "no",
            ("mathematician", "scientist"),
        ),
    ],
)
def test_yes_or_no_is_computed_from_values_stated_otherwise(
    store: Store, pages: tuple[str, str], question: str, right: str, facts: tuple[str, ...]
) -> None:
    ids = [i for page in pages for i in store.add(page, 0)]
    verdict = check(store, question, right)
    supported(verdict, GROUNDING_COMPUTED, ids[:1])
    for fact in facts:
        assert fact in verdict["reason"]
    rejected(check(store, question, "yes" if right == "no" else "no"), "contradicts")


def test_a_page_without_the_value_leaves_the_same_year_undecided(store: Store) -> None:
    store.add("The Panama Deception", 0)
    store.add("Widdringtonia", 0)  # a genus: no year
    question = "Were The Panama Deception and Widdringtonia released in the same year?"
    for answer in ("yes", "no"):
        grounded(check(store, question, answer), "no date is stored for 'widdringtonia'")


def test_heights_in_feet_and_in_metres_compare(store: Store) -> None:
    ids = store.add("Bertelsmann Building", 0)  # "... a 44-story, 733 foot (223 m) office tower"
    ids += store.add("CitySpire Center", 0, 1)  # "... it is 248 meters (814 ft) tall ..."
    question = "Which building is taller, the Bertelsmann Building or CitySpire Center?"
    supported(check(store, question, "CitySpire Center"), GROUNDING_COMPUTED, [ids[0], ids[2]])
    rejected(check(store, question, "Bertelsmann Building"), "contradicts")


def test_a_superlative_one_page_states_decides_when_no_measure_is_stored(store: Store) -> None:
    store.add("Children's National Medical Center", 0)  # "... ranked among the top 10 ..."
    ids = store.add("MedStar Washington Hospital Center", 0)  # "... is the largest private ..."
    question = (
        "Is Children's National Medical Center or MedStar Washington Hospital Center the largest"
        " private hospital in Washington, D.C.?"
    )
    verdict = check(store, question, "MedStar Washington Hospital Center")
    supported(verdict, GROUNDING_STATED, ids)
    assert "states the 'largest private hospital'" in verdict["reason"]
    rejected(check(store, question, "Children's National Medical Center"), "contradicts")


def test_a_ranked_superlative_decides_nothing(store: Store) -> None:
    store.add("Princess Tower", 1)  # "... the second tallest building in Dubai, ... 24th tallest"
    store.add("Tun Mustapha Tower", 1)  # "... it is the second tallest building in the island ..."
    question = "Which is the tallest building, Princess Tower or Tun Mustapha Tower?"
    for answer in ("Princess Tower", "Tun Mustapha Tower"):
        grounded(check(store, question, answer), "cannot be computed")


@pytest.mark.parametrize(
    "ranked",
    ["is among the largest", "is one of the largest", "is the third largest", "is not the largest"],
)
def test_a_superlative_ranked_or_denied_in_the_sentence_decides_nothing(
    store: Store, ranked: str
) -> None:
    store.add("Children's National Medical Center", 0)
    page = store.snapshot.page("MedStar Washington Hospital Center")
    assert page is not None and "is the largest" in page.sentences[0]
    store.add_text(page.title, page.sentences[0].replace("is the largest", ranked))
    question = (
        "Is Children's National Medical Center or MedStar Washington Hospital Center the largest"
        " private hospital in Washington, D.C.?"
    )
    for answer in ("MedStar Washington Hospital Center", "Children's National Medical Center"):
        grounded(check(store, question, answer), "cannot be computed")


def test_a_superlative_stated_for_another_scope_decides_nothing(store: Store) -> None:
    store.add("Children's National Medical Center", 0)
    page = store.snapshot.page("MedStar Washington Hospital Center")
    assert page is not None and "hospital in Washington, D.C." in page.sentences[0]
    store.add_text(page.title, page.sentences[0].replace("in Washington, D.C.", "in Maryland."))
    question = (
        "Is Children's National Medical Center or MedStar Washington Hospital Center the largest"
        " private hospital in Washington, D.C.?"
    )
    for answer in ("MedStar Washington Hospital Center", "Children's National Medical Center"):
        grounded(check(store, question, answer), "cannot be computed")
