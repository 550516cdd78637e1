"""Invariances of the stored evidence: the gold answer's evidence stored again, in another
order, beside other sentences, as an MCP tool stores it, or written as a web page writes
it (the answer too, for a web page's invisible hints); see `verifier_invariance`."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from tools.base import Evidence

Case = Mapping[str, Any]
Change = Callable[[Case, Mapping[str, Case]], tuple[str, str, Sequence[Evidence]] | None]


def stored_again(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
    evidence = list(case["evidence"])
    again = [cast(Evidence, {**record, "id": f"again{n}"}) for n, record in enumerate(evidence[:3])]
    return case["question"], case["answer"], evidence + again


def reordered(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
    evidence = list(case["evidence"])
    random.Random(case["id"]).shuffle(evidence)
    return case["question"], case["answer"], evidence


def with_other_pages(
    case: Case, _: Mapping[str, Case]
) -> tuple[str, str, Sequence[Evidence]] | None:
    context = case.get("context_evidence")
    if context is None or len(context) <= len(case["evidence"]):
        return None
    return case["question"], case["answer"], context


def _as_lines(case: Case, with_call: bool) -> tuple[str, str, Sequence[Evidence]]:
    """Each page's sentences as one tool call's lines: no title, numbered from 0, and with
    `with_call` the call in their source (its server, tool and arguments; not the page's
    title)."""
    calls: dict[str, int] = {}
    evidence: list[Evidence] = []
    for record in case["evidence"]:
        page = record["source"].get("title", "")
        calls[page] = calls.get(page, -1) + 1
        source: dict[str, object] = {"sentence_index": calls[page]}
        if with_call:
            source |= {
                "server": "bench",
                "tool": "lookup",
                "args": {"page": list(calls).index(page)},
            }
        evidence.append(cast(Evidence, {**record, "source": source}))
    return case["question"], case["answer"], evidence


def untitled(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
    """Each page's sentences as one tool call's lines, nothing else in their source."""
    return _as_lines(case, with_call=False)


def tool_calls(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
    """Each page's sentences as one MCP tool call's lines, the call in their source."""
    return _as_lines(case, with_call=True)


_LONG_WORD = re.compile(r"(\w{4})(?=\w{3})")


def _with_breaks(text: str) -> str:
    """A web page's invisible hints: a soft hyphen after the fourth letter of each word of
    seven or more, a zero-width space after each space."""
    return _LONG_WORD.sub("\\1\u00ad", text).replace(" ", " \u200b")


def broken(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
    """The stored texts and titles with a web page's invisible hints (`_with_breaks`)."""
    evidence = [
        cast(
            Evidence,
            {
                **record,
                "text": _with_breaks(record["text"]),
                "source": {
                    **record["source"],
                    "title": _with_breaks(record["source"].get("title", "")),
                },
            },
        )
        for record in case["evidence"]
    ]
    return case["question"], case["answer"], evidence


_CAPITALISED_RUN = re.compile(r"\b[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)+")
_GROUPED_DIGITS = re.compile(r"\b\d{1,3}(?:,\d{3})+\b")


def _linked(index: int, text: str) -> str:
    """Each run of capitalised words in an HTML link, a Markdown link or a wikitext link in
    bold (by turns, sentence by sentence), as a tool that returns a page's markup writes
    them."""
    if index % 3 == 1:
        return _CAPITALISED_RUN.sub(
            lambda run: f"[{run[0]}](/wiki/{run[0].replace(' ', '_')})", text
        )
    if index % 3 == 2:
        return _CAPITALISED_RUN.sub(lambda run: f"'''[[{run[0]} (page)|{run[0]}]]'''", text)
    return _CAPITALISED_RUN.sub(
        lambda run: f'<a href="/wiki/{run[0].replace(" ", "_")}" class="mw">{run[0]}</a>', text
    )


def as_markup(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
    """The stored texts with their names in HTML, Markdown or wikitext links (`_linked`)."""
    evidence = [
        cast(Evidence, {**record, "text": _linked(index, record["text"])})
        for index, record in enumerate(case["evidence"])
    ]
    return case["question"], case["answer"], evidence


def _thin(text: str) -> str:
    return _GROUPED_DIGITS.sub(lambda number: number[0].replace(",", "\u202f"), text)


def thin_grouped(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """Digits grouped by narrow no-break spaces instead of commas ("86\u202f112"), in the
    answer and the stored texts, where either groups digits."""
    answer = _thin(case["answer"])
    evidence = [cast(Evidence, {**r, "text": _thin(r["text"])}) for r in case["evidence"]]
    if answer == case["answer"] and evidence == case["evidence"]:
        return None
    return case["question"], answer, evidence


def answer_broken(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """An answer of several words with a zero-width space after each space (copied from a
    web page's text)."""
    answer = case["answer"]
    if " " not in answer.strip():
        return None
    return case["question"], answer.replace(" ", " \u200b"), case["evidence"]


def beside(kind: str) -> Change:
    def change(
        case: Case, others: Mapping[str, Case]
    ) -> tuple[str, str, Sequence[Evidence]] | None:
        other = others.get(f"{kind}:{case['id']}")
        return None if other is None else (case["question"], case["answer"], other["evidence"])

    return change
