"""`verify_answer` called with the wrong kind of input says what is wrong, naming the
evidence item, instead of failing deep inside with a KeyError or AttributeError."""

from __future__ import annotations

from typing import Any

import pytest

from graph.verifier import verify_answer

STORED: dict[str, Any] = {
    "id": "e1",
    "text": "Daniel Craig (born 2 March 1968) is an English actor.",
    "tool": "Search",
    "source": {"title": "Daniel Craig", "sentence_index": 0},
    "facts": {},
    "retrieved_at": "2026-12-06T00:00:00Z",
}


@pytest.mark.parametrize(
    ("item", "said"),
    [
        ({key: value for key, value in STORED.items() if key != "id"}, "KeyError('id')"),
        ({key: value for key, value in STORED.items() if key != "text"}, "KeyError('text')"),
        (STORED | {"source": "Daniel Craig"}, "AttributeError"),
        (STORED | {"text": None}, "its text is NoneType"),
        ("Daniel Craig was born in 1968.", "AttributeError"),
    ],
)
def test_evidence_that_is_not_stored_evidence_is_named(item: Any, said: str) -> None:
    with pytest.raises(ValueError, match=r"^evidence item 1 is not stored evidence") as raised:
        evidence: list[Any] = [STORED, item]
        verify_answer("When was Daniel Craig born?", "1968", evidence)
    assert said in str(raised.value)


def test_a_question_or_answer_that_is_no_string_is_named() -> None:
    evidence: list[Any] = [STORED]
    with pytest.raises(TypeError, match="must be strings, not str and int"):
        verify_answer("When was Daniel Craig born?", 1968, evidence)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="not NoneType and str"):
        verify_answer(None, "1968", evidence)  # type: ignore[arg-type]


def test_well_formed_evidence_with_a_missing_title_still_verifies() -> None:
    evidence: list[Any] = [STORED | {"source": {}}]
    assert verify_answer("When was Daniel Craig born?", "1968", evidence)["supported"]
