"""The verifier bench's invariances: a gold answer said or stored another way keeps its
outcome, and each change is applied as documented."""

from __future__ import annotations

from typing import Any

import pytest

from graph.evaluation.verifier_dress import dressed_negatives
from graph.evaluation.verifier_invariance import CHANGES, invariance
from tools.base import Evidence, Verdict

EVIDENCE: list[Evidence] = [
    {
        "id": f"e{n}",
        "text": text,
        "tool": "Search",
        "source": {"title": "Page", "sentence_index": n},
        "facts": {},
        "retrieved_at": "2017-10-01T00:00:00Z",
    }
    for n, text in enumerate(["First sentence.", "Second sentence.", "Third sentence."])
]


def gold(question: str, answer: str) -> dict[str, Any]:
    return {
        "id": "q1",
        "case": "episode_positive",
        "type": "bridge",
        "question": question,
        "answer": answer,
        "evidence": EVIDENCE,
    }


@pytest.mark.parametrize(
    ("name", "question", "answer", "changed"),
    [
        ("question in lower case", "Who Is It?", "X", ("who is it?", "X")),
        ("answer announced", "Who?", "Ann Lee", ("Who?", "The answer is Ann Lee.")),
        ("number hedged ('about')", "How many?", "80,000", ("How many?", "about 80,000")),
        ("number hedged ('about')", "Who?", "Ann Lee", None),
        ("yes/no with its reason", "Is it?", "no", ("Is it?", "No, as the evidence shows.")),
        ("yes/no with its reason, no stop", "Is it?", "no", ("Is it?", "no as the evidence shows")),
        ("name in lower case", "Who?", "Ann Lee", ("Who?", "ann lee")),
        ("name in lower case", "Who?", "Cher", None),
        (
            "alternatives swapped",
            "Which is older, Ann or Bo?",
            "Bo",
            ("Which is older, Bo or Ann?", "Bo"),
        ),
    ],
)
def test_each_change_says_the_answer_another_way(
    name: str, question: str, answer: str, changed: tuple[str, str] | None
) -> None:
    result = CHANGES[name](gold(question, answer), {})
    assert (result[:2] if result else None) == changed


def test_a_name_is_given_as_its_stored_page_titles_it() -> None:
    titled: list[Evidence] = [{**EVIDENCE[0], "source": {"title": "Ann Lee (singer)"}}]
    case = gold("Who?", "Ann Lee") | {"evidence": titled}
    assert CHANGES["name as its page's title"](case, {}) == ("Who?", "Ann Lee (singer)", titled)
    assert CHANGES["name as its page's title"](gold("Who?", "Ann Lee"), {}) is None


def test_the_stored_changes_keep_every_sentence() -> None:
    case = gold("Who?", "Ann Lee")
    _, _, twice = CHANGES["sentences stored twice"](case, {})  # type: ignore[misc]
    assert [e["text"] for e in twice] == [e["text"] for e in EVIDENCE] * 2
    assert len({e["id"] for e in twice}) == 6
    _, _, reordered = CHANGES["evidence reordered"](case, {})  # type: ignore[misc]
    assert sorted(e["id"] for e in reordered) == ["e0", "e1", "e2"]
    beside = {"negated:q1": {"evidence": EVIDENCE[:1]}}
    assert CHANGES["beside a denied wrong answer"](case, beside) == (
        "Who?",
        "Ann Lee",
        EVIDENCE[:1],
    )
    assert CHANGES["beside an injected wrong answer"](case, beside) is None


def test_the_other_context_pages_are_stored_after_the_episode() -> None:
    case = gold("Who?", "Ann Lee")
    other_page = [{**EVIDENCE[0], "id": "e9", "source": {"title": "Other", "sentence_index": 0}}]
    wider = case | {"context_evidence": EVIDENCE + other_page}
    beside_pages = CHANGES["beside the other context pages"]
    assert beside_pages(wider, {}) == ("Who?", "Ann Lee", EVIDENCE + other_page)
    assert beside_pages(case, {}) is None
    assert beside_pages(case | {"context_evidence": EVIDENCE}, {}) is None


def test_without_titles_each_page_is_one_tool_calls_lines() -> None:
    other_page = [{**EVIDENCE[0], "id": "e9", "source": {"title": "Other", "sentence_index": 4}}]
    case = gold("Who?", "Ann Lee") | {"evidence": EVIDENCE + other_page}
    _, _, lines = CHANGES["without page titles (a tool's lines)"](case, {})  # type: ignore[misc]
    assert [e["source"] for e in lines] == [{"sentence_index": i} for i in (0, 1, 2, 0)]
    assert [e["text"] for e in lines] == [e["text"] for e in case["evidence"]]


def test_as_tool_calls_each_page_is_one_calls_lines() -> None:
    other_page = [{**EVIDENCE[0], "id": "e9", "source": {"title": "Other", "sentence_index": 4}}]
    case = gold("Who?", "Ann Lee") | {"evidence": EVIDENCE + other_page}
    _, _, lines = CHANGES["as a tool call's lines (MCP)"](case, {})  # type: ignore[misc]
    calls = [(e["source"]["args"], e["source"]["sentence_index"]) for e in lines]
    assert calls == [({"page": 0}, 0), ({"page": 0}, 1), ({"page": 0}, 2), ({"page": 1}, 0)]
    assert all("title" not in e["source"] for e in lines)
    assert [e["text"] for e in lines] == [e["text"] for e in case["evidence"]]


def test_a_web_pages_invisible_breaks_are_put_in_the_texts_and_the_answer() -> None:
    case = gold("Who?", "Ann Leeson")
    _, answer, evidence = CHANGES["with a web page's soft hyphens and zero-width spaces"](case, {})  # type: ignore[misc]
    assert answer == "Ann Leeson"
    for stored, broken in zip(EVIDENCE, evidence, strict=True):
        assert broken["text"].replace("\u00ad", "").replace("\u200b", "") == stored["text"]
        assert "\u200b" in broken["text"]
    broken_answer = CHANGES["answer with zero-width spaces"]
    assert broken_answer(case, {}) == ("Who?", "Ann \u200bLeeson", EVIDENCE)
    assert broken_answer(gold("Who?", "Ann"), {}) is None


NAMES = ("Ann Lee", "Bo Ray", "Old Town")
BOLD = "'" * 3


def test_names_are_put_in_html_and_markdown_links() -> None:
    evidence = [{**EVIDENCE[0], "text": "Ann Lee met Bo Ray in Old Town."}] * 3
    _, _, linked = CHANGES["names in HTML, Markdown or wikitext links"](
        gold("Who?", "Ann Lee") | {"evidence": evidence}, {}
    )  # type: ignore[misc]
    html = ['<a href="/wiki/{}" class="mw">{}</a>'.format(n.replace(" ", "_"), n) for n in NAMES]
    markdown = ["[{}](/wiki/{})".format(n, n.replace(" ", "_")) for n in NAMES]
    wikitext = [BOLD + f"[[{n} (page)|{n}]]" + BOLD for n in NAMES]
    assert [record["text"] for record in linked] == [
        "{} met {} in {}.".format(*html),
        "{} met {} in {}.".format(*markdown),
        "{} met {} in {}.".format(*wikitext),
    ]


def test_digits_are_grouped_by_thin_spaces_where_commas_group_them() -> None:
    grouped = CHANGES["digits grouped by thin spaces"]
    stated = [{**EVIDENCE[0], "text": "It seats 86,112 in 2015."}]
    case = gold("How many?", "86,112") | {"evidence": stated}
    changed = grouped(case, {})
    assert changed is not None
    assert changed[1] == "86\u202f112" and changed[2][0]["text"] == "It seats 86\u202f112 in 2015."
    assert grouped(gold("Who?", "Ann Lee"), {}) is None


def test_a_reversed_comparison_is_answered_by_the_other_alternative() -> None:
    case = gold("Which is older, Ann or Bo?", "Bo")
    others = {"choice_swap:q1": {"answer": "Ann"}}
    reverse = CHANGES["comparison reversed, other answer"]
    assert reverse(case, others) == ("Which is younger, Ann or Bo?", "Ann", EVIDENCE)
    assert reverse(gold("Which came first, Ann or Bo?", "Bo"), others) is None
    assert reverse(case, {}) is None


def test_a_changed_outcome_and_a_new_rejection_are_counted() -> None:
    case = gold("Who?", "Ann Lee")

    def verify(_: Any, question: str, answer: str, evidence: Any) -> Verdict:
        outcome = "rejected" if answer.startswith("The answer") else "verified"
        return {"outcome": outcome, "supported": outcome == "verified"}  # type: ignore[typeddict-item]

    figures = invariance([case], {"q1": {"outcome": "verified"}}, verify)
    assert figures["answer announced"] == {"cases": 1, "changed": 1, "rejected": 1}
    assert figures["name in lower case"] == {"cases": 1, "changed": 0, "rejected": 0}
    assert figures["number hedged ('about')"]["cases"] == 0


def test_a_dressed_negative_is_counted_when_verified_dressed_or_as_written() -> None:
    cases = [
        {**gold("Who?", "Ann Lee"), "case": "span_swap"},
        {**gold("Who?", "ann"), "case": "partial_name"},
        {**gold("Who?", "Ann Lee"), "case": "absent"},
    ]

    def verify(_: Any, question: str, answer: str, evidence: Any) -> Verdict:
        outcome = "verified" if answer.islower() else "grounded"
        return {"outcome": outcome, "supported": outcome == "verified"}  # type: ignore[typeddict-item]

    verdicts = [{"outcome": "grounded"}, {"outcome": "verified"}, {"outcome": "rejected"}]
    figures = dressed_negatives(cases, verdicts, verify)
    assert figures["lower case"] == {"cases": 1, "verified": 0, "dressed": 1}
    assert figures["quoted"] == {"cases": 2, "verified": 1, "dressed": 1}
    with pytest.raises(ValueError):
        dressed_negatives(cases, verdicts[:2], verify)
