"""Invariances of the verifier: the gold answer on an episode's evidence, said or stored
another way that changes nothing it means, must keep its outcome.

Each change below is applied to every gold case it fits (`episode_positive`), and the
bench counts the cases whose outcome changed and those that became `rejected` (a right
answer turned away: the worst failure). The changes are phenomena a user or a page
brings, not rewordings the case builder knows (those are the `reworded` kind):

- the question typed all in lower case, all in capitals, after a label ("Question:
  ..."), or with its spaces doubled;
- the answer announced ("The answer is X.", "It was X.", "I believe the answer is
  X.", "**Answer:** X"), hedged ("Probably X"), explained after a blank line or
  "because", as what the question asks for ("The film is X.", "the film X", "X, the
  film" to "What film ...?"), with its
  first letter capitalised ("Role-playing"), a year with the month a stored date gives
  it ("July 1970"), citing its evidence ("X [E1]", "X,
  according to the evidence", "X (source: Wikipedia)"), as a Markdown link, labelled
  "A: X", after reasoning on an answer line, after a chatty lead-in ("Sure! It's X."),
  in a box ("\\boxed{X}"), a number hedged ("about 80,000"), a yes or
  no with its reason ("Yes, as the evidence shows.", "yes as the evidence shows"), a
  name of several words given in lower case, a name given as its stored page's title
  ("Lolita (1962 film)");
- the alternatives of a "..., X or Y?" question swapped; its one comparative reversed
  ("older" -> "younger"), answered by the other alternative;
- three of the stored sentences stored again under new ids, the evidence in another
  order, the gold sentences beside a denied or an injected wrong answer (the
  `negated` and `injected` cases' evidence), and every sentence of the question's
  other context pages stored after the episode's (an agent that also read the pages
  that do not answer it), the sentences stored without their page titles, as an
  MCP tool's lines are (`tools.mcp.evidence`), with or without the call in their
  source, with a web page's soft hyphens and zero-width spaces (in the answer too),
  with its names in HTML, Markdown or wikitext links, and with digits grouped by thin spaces
  instead of commas (in the answer too).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from graph.evaluation.invariance_evidence import (
    Case,
    Change,
    answer_broken,
    as_markup,
    beside,
    broken,
    reordered,
    stored_again,
    thin_grouped,
    tool_calls,
    untitled,
    with_other_pages,
)
from graph.evaluation.verifier_outcomes import GOLD_KIND, outcome_of
from graph.verifier.text.number_folds import MONTHS
from tools.base import Evidence, Verdict

Verify = Callable[[Case, str, str, Sequence[Evidence]], Verdict]

_PAIR = re.compile(r",\s*([A-Z\"][^,?]*?) or ([A-Z\"][^,?]*?)\s*\?\s*$")
_NUMBER = re.compile(r"\d[\d,.]*")
# Words a name's initials leave out ("Bureau of Investigation": BI).
_SMALL_WORDS = frozenset(("of", "the", "and", "for", "in", "on", "at", "de", "&"))
# The noun a "What film ...?" or "which club ...?" question asks for.
_ASKED_NOUN = re.compile(r"\b(?:[Ww]hat|[Ww]hich) ([a-z]{3,})\b")
_NOT_NOUNS = frozenset(
    ["the", "was", "were", "are", "did", "does", "has", "had", "can", "could", "would", "will"]
)
_NAME_OR_NUMBER = re.compile(r"[^\W_a-z]")
_MONTHS = frozenset(month.capitalize() for month in MONTHS)
INVARIANCE_LINE = (
    "{name:<{width}} {cases:>5} cases  outcome changed {changed:>4}  newly rejected {rejected:>3}"
)


def _asked(retyped: Callable[[str], str]) -> Change:
    """The question typed another way ("Question: ...", in capitals)."""

    def change(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
        return retyped(case["question"]), case["answer"], case["evidence"]

    return change


def _as_asked(said: str) -> Change:
    """A name or number said with the noun the question asks for ("The film is X.")."""

    def change(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
        asked = _ASKED_NOUN.search(case["question"])
        answer = case["answer"]
        if asked is None or asked[1] in _NOT_NOUNS or not _NAME_OR_NUMBER.match(answer):
            return None
        return case["question"], said.format(noun=asked[1], answer=answer), case["evidence"]

    return change


def _said(said: str) -> Change:
    """The answer said in a frame ("Probably {}")."""

    def change(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]]:
        return case["question"], said.format(case["answer"]), case["evidence"]

    return change


def _with_month(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """A year given with the month a stored date puts it in: "July 1970" for 1970 where a
    sentence says "born 30 July 1970"."""
    year = case["answer"].strip()
    if not (year.isdecimal() and len(year) == 4):
        return None
    dated = re.compile(rf"\b(?:\d{{1,2}} ([A-Z][a-z]+)|([A-Z][a-z]+) \d{{1,2}},) {year}\b")
    for record in case["evidence"]:
        found = dated.search(str(record.get("text") or ""))
        if found is not None and (found[1] or found[2]) in _MONTHS:
            return case["question"], f"{found[1] or found[2]} {year}", case["evidence"]
    return None


def _first_capitalised(
    case: Case, _: Mapping[str, Case]
) -> tuple[str, str, Sequence[Evidence]] | None:
    answer = case["answer"]
    if not answer[:1].islower() or answer.casefold() in ("yes", "no"):
        return None
    return case["question"], answer[0].upper() + answer[1:], case["evidence"]


def _cited(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """The answer citing the stored sentence it rests on: "Tromsø [E3]"."""
    if not case["evidence"]:
        return None
    return case["question"], f"{case['answer']} [{case['evidence'][0]['id']}]", case["evidence"]


def _hedged(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    if not _NUMBER.fullmatch(case["answer"]):
        return None
    return case["question"], f"about {case['answer']}", case["evidence"]


def _explained(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    if case["answer"].casefold() not in ("yes", "no"):
        return None
    return (
        case["question"],
        f"{case['answer'].capitalize()}, as the evidence shows.",
        case["evidence"],
    )


def _explained_unstopped(
    case: Case, _: Mapping[str, Case]
) -> tuple[str, str, Sequence[Evidence]] | None:
    if case["answer"].casefold() not in ("yes", "no"):
        return None
    return case["question"], f"{case['answer']} as the evidence shows", case["evidence"]


def _lower_name(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    answer = case["answer"]
    if len(answer.split()) < 2 or answer.islower() or _NUMBER.match(answer):
        return None
    return case["question"], answer.lower(), case["evidence"]


def _with_initials(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """A name of two capitalised words or more with its initials after it: "Federal Bureau
    of Investigation (FBI)"."""
    answer = case["answer"]
    words = [word for word in answer.split() if word.casefold() not in _SMALL_WORDS]
    if len(words) < 2 or not all(word[:1].isupper() and word.isalpha() for word in words):
        return None
    return case["question"], f"{answer} ({''.join(word[0] for word in words)})", case["evidence"]


def _as_titled(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """The answer as a stored page's title writes it, disambiguation and all."""
    answer = case["answer"]
    titles = sorted(
        {str((record.get("source") or {}).get("title") or "") for record in case["evidence"]}
    )
    titled = [title for title in titles if title.startswith(f"{answer} (")]
    return (case["question"], titled[0], case["evidence"]) if titled else None


def _swapped(case: Case, _: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    question = case["question"]
    pair = _PAIR.search(question)
    if pair is None:
        return None
    swapped = f"{question[: pair.start(1)]}{pair[2]} or {pair[1]}{question[pair.end(2) :]}"
    return swapped, case["answer"], case["evidence"]


_OPPOSITES = {
    **dict.fromkeys(("older", "oldest"), "younger"),
    **dict.fromkeys(("younger", "youngest"), "older"),
    "earlier": "later",
    "later": "earlier",
    "larger": "smaller",
    "smaller": "larger",
    "bigger": "smaller",
    "longer": "shorter",
    "taller": "shorter",
    "higher": "lower",
    "lower": "higher",
    "more": "fewer",
}


def _reversed(case: Case, others: Mapping[str, Case]) -> tuple[str, str, Sequence[Evidence]] | None:
    """The one comparative of a choice reversed ("older" -> "younger"): the other
    alternative (the `choice_swap` case's answer) becomes the right answer."""
    other = others.get(f"choice_swap:{case['id']}")
    words = [w for w in re.findall(r"\w+", case["question"]) if w.casefold() in _OPPOSITES]
    if other is None or len(words) != 1:
        return None
    question = re.sub(rf"\b{words[0]}\b", _OPPOSITES[words[0].casefold()], case["question"])
    return question, other["answer"], case["evidence"]


CHANGES: dict[str, Change] = {
    "question in lower case": _asked(str.lower),
    "question in capitals": _asked(str.upper),
    "question after a label ('Question: ...')": _asked("Question: {}".format),
    "question with its spaces doubled": _asked(lambda question: question.replace(" ", "  ")),
    "answer announced": _said("The answer is {}."),
    "answer said in a sentence ('It was X.')": _said("It was {}."),
    "announced twice ('I believe the answer is X.')": _said("I believe the answer is {}."),
    "labelled in bold ('**Answer:** X')": _said("**Answer:** {}"),
    "hedged ('Probably X')": _said("Probably {}"),
    "explained below it ('X', a blank line, a reason)": _said("{}\n\nThe evidence states it."),
    "as what is asked ('The film is X.')": _as_asked("The {noun} is {answer}."),
    "named by what is asked ('the film X')": _as_asked("the {noun} {answer}"),
    "what is asked after it ('X, the film')": _as_asked("{answer}, the {noun}"),
    "its reason after it ('X because ...')": _said("{} because the evidence says so."),
    "first letter capitalised ('Role-playing')": _first_capitalised,
    "a year with its stated month ('July 1970')": _with_month,
    "answer citing its evidence ('[E1]')": _cited,
    "answer with its source ('X, according to ...')": _said("{}, according to the evidence"),
    "answer with its source named ('X (source: Wikipedia)')": _said("{} (source: Wikipedia)"),
    "answer as a Markdown link": _said("[{}](https://en.wikipedia.org/wiki/Answer)"),
    "answer labelled ('A: X')": _said("A: {}"),
    "reasoning, then an answer line": _said("The stored sentences say so.\nFinal answer: {}"),
    "a chatty lead-in ('Sure! It's X.')": _said("Sure! It's {}."),
    "in a box ('\\boxed{X}')": _said("\\boxed{{{}}}"),
    "number hedged ('about')": _hedged,
    "yes/no with its reason": _explained,
    "yes/no with its reason, no stop": _explained_unstopped,
    "name in lower case": _lower_name,
    "name as its page's title": _as_titled,
    "name with its initials ('X (XY)')": _with_initials,
    "alternatives swapped": _swapped,
    "comparison reversed, other answer": _reversed,
    "sentences stored twice": stored_again,
    "evidence reordered": reordered,
    "beside a denied wrong answer": beside("negated"),
    "beside an injected wrong answer": beside("injected"),
    "beside the other context pages": with_other_pages,
    "without page titles (a tool's lines)": untitled,
    "as a tool call's lines (MCP)": tool_calls,
    "with a web page's soft hyphens and zero-width spaces": broken,
    "answer with zero-width spaces": answer_broken,
    "names in HTML, Markdown or wikitext links": as_markup,
    "digits grouped by thin spaces": thin_grouped,
}


def invariance(
    cases: Iterable[Case], verdicts: Mapping[str, Mapping[str, Any]], verify: Verify
) -> dict[str, dict[str, int]]:
    """Per change: the gold cases it fits, how many changed outcome, and how many were
    rejected that were not before. `verdicts` holds each gold case's verdict by id;
    `verify(case, question, answer, evidence)` checks one changed case."""
    listed = list(cases)
    others = {f"{case['case']}:{case['id']}": case for case in listed}
    gold = [case for case in listed if case["case"] == GOLD_KIND and case["id"] in verdicts]
    figures: dict[str, dict[str, int]] = {}
    for name, change in CHANGES.items():
        counts = {"cases": 0, "changed": 0, "rejected": 0}
        for case in gold:
            changed = change(case, others)
            if changed is None:
                continue
            before = outcome_of(verdicts[case["id"]])
            after = outcome_of(verify(case, *changed))
            counts["cases"] += 1
            counts["changed"] += after != before
            counts["rejected"] += after == "rejected" != before
        figures[name] = counts
    return figures


def format_invariance(figures: Mapping[str, Mapping[str, int]]) -> list[str]:
    """One line per change, the names in a column as wide as the longest."""
    width = max(map(len, figures), default=0)
    return [
        INVARIANCE_LINE.format(name=name, width=width, **counts) for name, counts in figures.items()
    ]
