"""The noun a question's "what"/"which" asks for, whether the answer's own lead says the
answer is one, a named thing offered for a kind of thing, and an answer two named pages
state: signals of the learned combiner against bridge entities and wrong spans."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from verifier_utils import Store

from graph.verifier import verify_answer
from graph.verifier.kinds.asked import asked_in_lead, asked_next_to, asked_noun
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.score.combiner import Decision
from graph.verifier.score.signals import SIGNALS, signals
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


class SignalRecorder:
    """A decider that accepts every answer and keeps the signals it was given."""

    def __init__(self) -> None:
        self.seen: dict[str, float] = {}

    def decide(self, check: Check, found: Found, reading: Reading) -> Decision:
        self.seen = dict(zip(SIGNALS, signals(check, found, reading), strict=True))
        return Decision(True)


def _signal(name: str, question: str, answer: str, store: Store) -> float:
    recorder = SignalRecorder()
    verify_answer(question, answer, store.evidence, lexicon=snapshot_lexicon(), decider=recorder)
    assert recorder.seen, f"{answer!r} never reached the combiner"
    return recorder.seen[name]


def test_a_named_person_offered_for_a_kind_of_thing_is_grounded() -> None:
    """The bridge entity of "What position did the author of ... have?" is a person (its
    own lead says so), and a position is no person: it is grounded before any score. The
    position itself, a title, is scored, and so is the person where a person is asked."""
    store = Store()
    store.search("Inside the Third Reich")
    store.search("Albert Speer")
    position = "What position in Nazi Germany did the author of Inside the Third Reich have?"
    verdict = verify_answer(position, "Albert Speer", store.evidence, lexicon=snapshot_lexicon())
    assert verdict["outcome"] == "grounded"
    assert "names a person, and the question asks for a position" in verdict["reason"]
    title = "Reich Minister of Armaments and War Production"
    assert _signal("class_fits", position, title, store) == 0.0
    assert _signal("class_fits", "Who wrote Inside the Third Reich?", "Albert Speer", store) == 1.0


def test_an_answer_stated_on_two_named_pages_is_a_signal() -> None:
    """What two named things have in common is stated on the page of each ("Bundestag is a
    Berlin U-Bahn station", "The Reichstag ... is a historic edifice in Berlin"); a span
    on one of them only is not."""
    store = Store()
    store.search("Bundestag (Berlin U-Bahn)")
    store.search("Reichstag building")
    question = "What city does Bundestag and Reichstag building have in common?"
    assert _signal("named_pages_both", question, "Berlin", store) == 1.0
    assert _signal("named_pages_both", question, "Bonn", store) == 0.0
