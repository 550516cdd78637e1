"""A question that ranks what it asks for ("her debut album", "the first film in the
series") is not answered by a span its sentence ranks otherwise."""

from __future__ import annotations

import pytest
from verifier_utils import Store, check, grounded, supported

from graph.verifier import GROUNDING_STATED
from graph.verifier.rules.ranks import question_rank


@pytest.fixture
def store() -> Store:
    return Store()


@pytest.mark.parametrize(
    ("title", "question", "answer"),
    [
        # "100 Proof is the third studio album by American country music artist Kellie Pickler."
        ("100 Proof (album)", "What was Kellie Pickler's debut studio album?", "100 Proof"),
        ("100 Proof (album)", "What was Kellie Pickler's second studio album?", "100 Proof"),
        # "Dancing on the Ceiling is the third solo studio album by Lionel Richie, ..."
        (
            "Dancing on the Ceiling",
            "What is the first studio album by Lionel Richie?",
            "Dancing on the Ceiling",
        ),
        # "Casino Royale (2006) is the twenty-first spy film in the Eon Productions ..."
        (
            "Casino Royale (2006 film)",
            "Which was the first film in the James Bond series?",
            "Casino Royale",
        ),
    ],
)
def test_an_answer_ranked_otherwise_is_refused(
    store: Store, title: str, question: str, answer: str
) -> None:
    store.search(title)
    grounded(check(store, question, answer), "ranked there as number")


def test_the_rank_asked_for_is_accepted(store: Store) -> None:
    ids = store.add("100 Proof (album)", 0)
    question = "What was Kellie Pickler's third studio album?"
    supported(check(store, question, "100 Proof"), GROUNDING_STATED, ids)


def test_each_answer_takes_the_rank_nearest_it(store: Store) -> None:
    store.add_text(
        "Amy Winehouse",
        "Her debut album, Frank (2003), was followed by her second album, Back to Black.",
    )
    question = "What was Amy Winehouse's debut album?"
    grounded(check(store, question, "Back to Black"), "ranked there as number 2")
    assert "ranked" not in check(store, question, "Frank")["reason"]


@pytest.mark.parametrize(
    "question",
    [
        "What role did Barry Watson play in 7th Heaven?",
        "Who was born first, Carlos Castaneda or Lu Xun?",
        "Who was the 34th President of the United States?",
    ],
)
def test_an_ordinal_inside_a_name_or_an_adverb_ranks_nothing(question: str) -> None:
    assert question_rank(question) is None
