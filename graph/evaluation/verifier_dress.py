"""Hard negatives dressed as a model may dress any answer: in quotes, in Markdown
emphasis, typed all in lower case, announced ("I believe the answer is X."), with its
first letter capitalised. The verifier must verify a dressed wrong answer no
more often than the same answer as written; a quoted or lower-case span once skipped
the learned combiner and the name rules (it had no capital), so it passed more than
twice as often. For each dress, the bench counts the hard negatives of the kinds below
that it changes, those verified as written and those verified dressed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from graph.evaluation.verifier_outcomes import outcome_of
from tools.base import Evidence, Verdict

Verify = Callable[[Mapping[str, Any], str, str, Sequence[Evidence]], Verdict]

DRESSES: dict[str, Callable[[str], str]] = {
    "quoted": lambda answer: f'"{answer}"',
    "emphasised (Markdown)": lambda answer: f"**{answer}**",
    "lower case": str.lower,
    "announced twice": lambda answer: f"I believe the answer is {answer}.",
    "hedged": lambda answer: f"Probably {answer}",
    "first letter capitalised": lambda answer: answer[:1].upper() + answer[1:],
}
DRESSED_KINDS = ("span_swap", "bridge_entity", "bridge_page_span", "partial_name", "extended_name")
DRESS_LINE = (
    "{name:<{width}} {cases:>5} cases  verified as written {verified:>4}  dressed {dressed:>4}"
)


def dressed_negatives(
    cases: Iterable[Mapping[str, Any]], verdicts: Iterable[Mapping[str, Any]], verify: Verify
) -> dict[str, dict[str, int]]:
    """Per dress: the hard negatives it changes, how many of them are verified as written,
    and how many dressed. `verdicts` holds each case's verdict, in the order of `cases`;
    `verify(case, question, answer, evidence)` checks one dressed case."""
    negatives = [
        (case, verdict)
        for case, verdict in zip(cases, verdicts, strict=True)
        if case["case"] in DRESSED_KINDS
    ]
    figures: dict[str, dict[str, int]] = {}
    for name, dress in DRESSES.items():
        counts = {"cases": 0, "verified": 0, "dressed": 0}
        for case, verdict in negatives:
            dressed = dress(case["answer"])
            if dressed == case["answer"]:
                continue
            after = verify(case, case["question"], dressed, case["evidence"])
            counts["cases"] += 1
            counts["verified"] += outcome_of(verdict) == "verified"
            counts["dressed"] += outcome_of(after) == "verified"
        figures[name] = counts
    return figures


def format_dressed(figures: Mapping[str, Mapping[str, int]]) -> list[str]:
    """One line per dress."""
    width = max(map(len, figures), default=0)
    return [DRESS_LINE.format(name=name, width=width, **counts) for name, counts in figures.items()]
