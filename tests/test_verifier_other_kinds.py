"""A place or a work of another kind than the one asked (a city for "which river", a
cathedral for "which country", an episode for "what song", a character for "which
movie") is at most grounded: it is usually what a two-hop question goes through. Kinds
that may name one another (a county town, a city-state, a sitcom for "which show")
never differ, and a name ending in a kind of land or water ("Auburn Hills") or a work's
name says nothing of its kind."""

from __future__ import annotations

import pytest
from verifier_utils import Leads, Store, check, grounded

from graph.verifier.kinds.other_kinds import PLACE, WORK, OtherKind, other_kind

LEADS = Leads(
    {
        "Guilin": "Guilin is a prefecture-level city in the northeast of Guangxi, China.",
        "Pont de Grenelle": "The pont de Grenelle is a bridge in Paris, spanning the Seine.",
        "Hertford": "Hertford is the county town of Hertfordshire, England.",
        "Monaco": "Monaco is a sovereign city-state on the French Riviera.",
        "Li River": "The Li River is a river in Guangxi, China.",
        "Ireland": "Ireland is an island in the North Atlantic.",
        "Pilot Episode": '"Pilot Episode" is the tenth episode of the third season of a sitcom.',
        "El Dorado": "El Dorado is a 1966 American Western film produced by Howard Hawks.",
        "Yondu": "Yondu is a fictional character appearing in American comic books.",
        "Seinfeld": "Seinfeld is an American television sitcom.",
        "Wicked": "Wicked is a musical with music and lyrics by Stephen Schwartz.",
        "Lemonade": "Lemonade is the sixth studio album and second visual album by Beyonce.",
        "Yesterday": "Yesterday is a song by the Beatles.",
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
    assert other_kind(answer, noun, LEADS, PLACE) == OtherKind(kind, PLACE)


@pytest.mark.parametrize(
    ("answer", "noun", "kind"),
    [
        ("Pilot Episode", "song", "episode"),
        ("El Dorado", "novel", "film"),
        ("Yondu", "movie", "character"),
        ("Seinfeld", "film", "sitcom"),
        ("Yesterday", "albums", "song"),
    ],
)
def test_a_work_of_another_kind_is_named_by_its_kind(answer: str, noun: str, kind: str) -> None:
    assert other_kind(answer, noun, LEADS, WORK) == OtherKind(kind, WORK)
    assert other_kind(answer, noun, LEADS, PLACE) is None


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
        ("El Dorado", "movie"),  # a movie is a film
        ("Seinfeld", "show"),  # a show is a series or a stage work
        ("Wicked", "show"),
        ("Lemonade", "record"),  # no kind of work the table knows
        ("Song of the South", "book"),  # a work's name says nothing of its kind
        ("Yondu", "person"),  # not a place or a work asked: the class check's matter
    ],
)
def test_kinds_that_may_name_one_another_never_differ(answer: str, noun: str) -> None:
    for family in (PLACE, WORK):
        assert other_kind(answer, noun, LEADS, family) is None
        assert other_kind(answer, noun, None, family) is None


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


SONG_QUESTION = "What song debuted in the October 27, 1999 episode of South Park?"


def test_the_episode_a_question_goes_through_is_grounded_and_its_song_verified() -> None:
    store = Store()
    store.search("Korn's Groovy Pirate Ghost Mystery")
    store.search("Falling Away from Me")
    episode = check(store, SONG_QUESTION, "Korn's Groovy Pirate Ghost Mystery")
    grounded(episode, "it is an episode", "asks for a song", "a work the question goes through")
    verdict = check(store, SONG_QUESTION, "Falling Away from Me")
    assert verdict["outcome"] == "verified", verdict["reason"]
