"""A named person, place, body or work offered where the question asks for a kind of
thing (a position, a field, a type of product) is at most grounded; a name the question's
own category noun accepts ("which type of soldier?" -> a person) is not."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded

from graph.verifier.kinds.answer_types import Expected
from graph.verifier.kinds.classes import Classified
from graph.verifier.kinds.kind_asked import kind_asked, named_for_kind
from graph.verifier.text.categories import PERSON, PRODUCT


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What position did the receiver of the 2007 FIFA U-20 Golden Shoe play?", "position"),
        ("Ève Curie's father was a pioneer in what fields?", "field"),
        ("What type of products did Johannes Torpe help design?", "type of products"),
        ("Which kinds of dog are bred there?", "kind of dog"),
        ("Who received the 2007 Golden Shoe?", ""),
        ("Which company did Johannes Torpe work for?", ""),
        ("What type of " + "-" * 5000, ""),  # the word named in a reason is a word
        ("What type of " + "x" * 5000, "type of " + "x" * 40),
    ],
)
def test_a_question_asks_for_a_kind_by_its_noun_or_by_type_of(question: str, kind: str) -> None:
    assert kind_asked(question) == kind


PERSON_BY_LEXICON = Classified({PERSON: ("lexicon", "an Argentine footballer")})


def test_only_a_name_strong_sources_place_outside_what_is_asked_is_for_a_kind() -> None:
    question = "What position did the receiver of the Golden Shoe play?"
    assert named_for_kind(question, Expected(), PERSON_BY_LEXICON) == PERSON
    weak = Classified({PERSON: ("context", "starring")})
    assert named_for_kind(question, Expected(), weak) is None
    product = Classified({PRODUCT: ("lexicon", "a rifle")})
    assert named_for_kind("What type of rifle is it?", Expected(), product) is None
    soldier = "Which type of spear-armed soldier is the mascot?"
    asks_person = Expected(frozenset({PERSON}), "soldier")
    assert named_for_kind(soldier, asks_person, PERSON_BY_LEXICON) is None


QUESTION = "What position did the receiver of the 2007 FIFA U-20 Golden Shoe play?"


def test_the_player_a_question_goes_through_is_grounded_for_his_position() -> None:
    store = Store()
    store.search("2007 FIFA U-20 World Cup")
    store.search("Sergio Agüero")
    grounded(check(store, QUESTION, "Sergio Agüero"), "names a person", "asks for a position")
    assert "names a" not in check(store, QUESTION, "striker")["reason"]
