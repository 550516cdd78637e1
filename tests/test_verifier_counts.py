"""Years and numbers tied to what the question asks, where the sentence says it in other
words: a count written "twice", "tracks" for songs, the year of an adaptation; a date
the question gives itself is not the one it asks; a number with no unit of the asked
measure ("Route 309") is neither an answer nor a rival. On real snapshot sentences."""

from __future__ import annotations

from verifier_utils import Store, check, grounded, stated, supported

from graph.verifier import GROUNDING_STATED, verify_answer
from graph.verifier.score.combiner import load_combiner


def test_twice_counts_times() -> None:
    store = Store()
    ids = store.add("John Downer", 0)  # "... was the Premier of South Australia twice, from ..."
    question = "How many times was John Downer Premier of South Australia?"
    stated(check(store, question, "twice"), ids)
    stated(check(store, question, "2"), ids)
    grounded(check(store, question, "1843"))


def test_tracks_count_songs() -> None:
    store = Store()
    store.add("Jocelyn Flores", 0)  # '... from his album "17" (2017).'
    ids = store.add("17 (XXXTentacion album)", 2)  # "It features 11 tracks ..."
    question = 'How many songs are on the XXXTentacion album that included "Jocelyn Flores"?'
    supported(check(store, question, "11"), GROUNDING_STATED, ids)


def test_an_adaptation_dates_the_adapted_work() -> None:
    store = Store()
    store.add("I Am a Camera (film)", 0)  # "... is a British comedy-drama film released in 1955."
    # "... adapted first into the play "I Am a Camera" (1951), then the 1955 film ..."
    ids = store.add("Christopher Isherwood", 2)
    question = "In what year was the film I Am a Camera first adapted as a play?"
    full = load_combiner().full
    verdict = verify_answer(question, "1951", store.evidence, decider=full)
    supported(verdict, GROUNDING_STATED, ids)
    assert "it is the year nearest 'adapted'" in verdict["reason"]
    refused = verify_answer(question, "1955", store.evidence, decider=full)
    assert "another year there sits nearer to 'adapted'" in refused["reason"]


def test_a_date_the_question_gives_is_not_the_one_it_asks() -> None:
    store = Store()
    ids = store.add("The Big Green", 0, 1)  # "The Big Green is a 1995 family sports comedy film"
    store.add("Bug Hall", 0)  # "(born February 4th, 1985) is an American actor."
    question = (
        "What year did an actor born February 4, 1985 star alongside Chauncey Leopardi, and"
        " Patrick Renna in a sports comedy film?"
    )
    supported(check(store, question, "1995"), GROUNDING_STATED, ids[:1])


def test_a_number_without_the_asked_unit_is_no_rival() -> None:
    store = Store()
    # "Pennsylvania Route 309 (PA 309) is a major highway which runs for 134 miles (216 km)"
    ids = store.add("Pennsylvania Route 309", 0, 2)
    store.add("Allentown, Pennsylvania", 0)
    question = "How long is the route that connects Philadelphia to Allentown?"
    full = load_combiner().full
    verdict = verify_answer(question, "134 miles", store.evidence, decider=full)
    supported(verdict, GROUNDING_STATED, ids[:1])
    assert "it is the number nearest 'route'" in verdict["reason"]
    refused = verify_answer(question, "309", store.evidence, decider=full)
    assert not refused["supported"], refused["reason"]
