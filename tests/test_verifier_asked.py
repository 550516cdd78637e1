"""The noun a question's "what"/"which" asks for, and whether the answer's own lead says
the answer is one: signals of the learned combiner against bridge entities."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from graph.verifier.kinds.asked import asked_in_lead, asked_next_to, asked_noun
from graph.verifier.text.normalise import analyse


class Leads:
    """A lexicon of fixed leads."""

    def __init__(self, leads: dict[str, str]) -> None:
        self.leads = leads

    def describe(self, name: str) -> Sequence[str]:
        return [self.leads[name]] if name in self.leads else []

    def guess(self, name: str) -> str | None:
        return None

    def __hash__(self) -> int:
        return id(self)


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        ("What position did the receiver of the 2007 Golden Shoe play?", "position"),
        ("The Thoen Stone is on display at a museum in what county?", "county"),
        ("The Challenge is hosted by an athlete from what sport?", "sport"),
        (
            "Which Oscar-nominated film was written by Sooni Taraporevala?",
            "oscar-nominated film"[-4:],
        ),
        ("Who directed Alien?", ""),
        ("What is the capital of France?", ""),
    ],
)
def test_the_asked_noun_ends_the_phrase_after_what_or_which(question: str, noun: str) -> None:
    assert asked_noun(question) == noun


def test_a_lead_that_names_another_kind_is_told_apart_from_none() -> None:
    leads = Leads(
        {
            "Sergio Agüero": "Sergio Agüero is an Argentine professional footballer.",
            "Lawrence County": "Lawrence County is a county in South Dakota.",
        }
    )
    position = "What position did the receiver of the 2007 Golden Shoe play?"
    county = "The Thoen Stone is on display at a museum in what county?"
    assert asked_in_lead(position, "Sergio Agüero", leads) is False
    assert asked_in_lead(county, "Lawrence County", leads) is True
    assert asked_in_lead(county, "Nowhere", leads) is None
    assert asked_in_lead("Who directed Alien?", "Sergio Agüero", leads) is None


def test_the_asked_noun_next_to_the_answer() -> None:
    words = analyse("The stone is kept in Lawrence County, South Dakota.").tokens
    county = "The Thoen Stone is on display at a museum in what county?"
    start = words.index("lawrence")
    assert asked_next_to(county, words, (start, start + 1))
    assert not asked_next_to(county, words, (0, 1))
    assert not asked_next_to("Who is it?", words, (start, start + 1))
