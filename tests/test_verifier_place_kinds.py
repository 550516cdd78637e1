"""A place of another kind than the one asked (a city for "which river", a cathedral for
"which country") is at most grounded: it is usually the place a two-hop question goes
through. Kinds that may name one another (a county town, a city-state) never differ, and
a name ending in a kind of land or water ("Auburn Hills") says nothing of its kind."""

from __future__ import annotations

import pytest
from verifier_utils import Leads, Store, check, grounded

from graph.verifier.kinds.place_kinds import other_place_kind

LEADS = Leads(
    {
        "Guilin": "Guilin is a prefecture-level city in the northeast of Guangxi, China.",
        "Pont de Grenelle": "The pont de Grenelle is a bridge in Paris, spanning the Seine.",
        "Hertford": "Hertford is the county town of Hertfordshire, England.",
        "Monaco": "Monaco is a sovereign city-state on the French Riviera.",
        "Li River": "The Li River is a river in Guangxi, China.",
        "Ireland": "Ireland is an island in the North Atlantic.",
    }
)


@pytest.mark.parametrize(
    ("answer", "noun", "kind"),
    [
        ("Guilin", "river", "city"),
        ("Pont de Grenelle", "river", "bridge"),
        ("Ireland", "river", "island"),
        ("Vilnius Cathedral", "country", "cathedral"),  # no lead: its name's ending
        ("Oberoi Hotels", "city", "hotel"),
    ],
)
def test_a_place_of_another_kind_is_named_by_its_kind(answer: str, noun: str, kind: str) -> None:
    assert other_place_kind(answer, noun, LEADS) == kind


@pytest.mark.parametrize(
    ("answer", "noun"),
    [
        ("Li River", "river"),
        ("Hertford", "town"),  # a county town is a town
        ("Hertford", "county"),
        ("Monaco", "city"),  # a city-state is a city and a country
        ("Monaco", "country"),
        ("Guilin", "town"),  # a city is a town's kind
        ("Ireland", "country"),  # an island is often a country
        ("Ireland", "island"),
        ("Auburn Hills", "venue"),  # a name ending in a hill, a creek, a lake ...
        ("Herons Creek", "town"),
        ("Guilin", "team"),  # not a place asked: the class check's matter
        ("Unknown Place", "river"),
    ],
)
def test_kinds_that_may_name_one_another_never_differ(answer: str, noun: str) -> None:
    assert other_place_kind(answer, noun, LEADS) is None
    assert other_place_kind(answer, noun, None) is None


QUESTION = (
    "China Southern Airlines Flight 3943 used to fly to an airport in a city situated on the"
    " west bank of which river ?"
)


def test_the_city_a_question_goes_through_is_grounded_and_its_river_verified() -> None:
    store = Store()
    store.search("China Southern Airlines Flight 3943")
    store.search("Guilin")
    grounded(check(store, QUESTION, "Guilin"), "it is a city", "asks for a river")
    verdict = check(store, QUESTION, "the Li River")
    assert verdict["outcome"] == "verified", verdict["reason"]
