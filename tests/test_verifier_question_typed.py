"""A question keeps its verdicts however a user types it: after a label ("Question:
..."), with runs of spaces, or all in capitals (read in lower case, then given the
evidence's capitals). A yes/no question behind a label was read as asking for a name,
and a question in capitals lost its names, so right answers were rejected."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check

from graph.verifier.text.question_text import as_asked


@pytest.mark.parametrize(
    ("typed", "asked"),
    [
        ("Question: Are X and Y both bands?", "Are X and Y both bands?"),
        ("Please answer: Who?", "Who?"),
        ("Q - who?", "who?"),
        ("  What  country   of origin?", "What country of origin?"),
        ("WHO DIRECTED THE PRESTIGE?", "who directed the prestige?"),
        ("Q-Tip is who?", "Q-Tip is who?"),  # a name, no label
        ("Questions of Travel is a book by whom?", "Questions of Travel is a book by whom?"),
        ("Answer: ", "Answer: "),  # nothing after the label
        ("1999?", "1999?"),
    ],
)
def test_a_typed_question_is_read_as_asked(typed: str, asked: str) -> None:
    assert as_asked(typed) == asked


@pytest.fixture
def store() -> Store:
    store = Store()
    store.add_text("Monaco (band)", "Monaco were an English band formed in 1990.")
    store.add_text("Cloud Control", "Cloud Control are an Australian indie band.")
    store.add_text("Christopher Nolan", "Christopher Nolan directed The Prestige in 2006.")
    return store


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Are Monaco and Cloud Control both bands?", "yes"),
        ("Who directed The Prestige?", "Christopher Nolan"),
        ("In what year did Christopher Nolan direct The Prestige?", "2006"),
    ],
)
@pytest.mark.parametrize(
    "typed",
    ["{}", "Question: {}", "Please answer: {}", "{}\n", "UPPER", "SPACED"],
)
def test_a_retyped_question_keeps_the_verdict(
    store: Store, question: str, answer: str, typed: str
) -> None:
    if typed == "UPPER":
        retyped = question.upper()
    elif typed == "SPACED":
        retyped = "  " + question.replace(" ", "   ")
    else:
        retyped = typed.format(question)
    plain = check(store, question, answer)
    given = check(store, retyped, answer)
    assert plain["outcome"] == "verified", plain["reason"]
    assert given["outcome"] == plain["outcome"], given["reason"]
