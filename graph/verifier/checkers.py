"""The verifier's edge: one `Checker` interface for the rules alone, the judge alone, and
the rules then the judge, so the agent asks one object and charges what it spent.

A check returns a `Judgement` (`graph.verifier.judge`): the verdict, the judge's tokens,
whether a model was called, and a note when the judge left the verdict as it was. An
`Allowance` says what a check may spend on the judge: calls and seconds left, and the
words to give when no call is left.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from graph.verifier.judge import JUDGE_TIMEOUT_S, Judgement, asks_judge, judge, judge_unaffordable
from graph.verifier.verdicts import GROUNDING_STATED, ground
from graph.verifier.verify import verify_answer
from tools.base import Evidence, Verdict

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

RulesFunction = Callable[[str, str, Sequence[Evidence]], Verdict]
REASON_UNCHECKED = "{answer!r} was not checked by the rules; the judge is asked about it."


@dataclass(frozen=True, slots=True)
class Allowance:
    """What a check may spend on model calls: `calls` and `seconds` left, and
    `exhausted`, the words for why no call is left."""

    calls: int = sys.maxsize
    seconds: float = JUDGE_TIMEOUT_S
    exhausted: str = ""


UNLIMITED = Allowance()


class Checker(Protocol):
    """Decides a proposed final answer against the stored evidence."""

    def check(
        self,
        question: str,
        answer: str,
        evidence: Sequence[Evidence],
        allowance: Allowance = UNLIMITED,
    ) -> Judgement:
        """The verdict on `answer`, and what deciding it cost."""
        ...


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules alone (an environment's, or `verify_answer`): no model is called."""

    rules: RulesFunction = verify_answer

    def check(
        self,
        question: str,
        answer: str,
        evidence: Sequence[Evidence],
        allowance: Allowance = UNLIMITED,
    ) -> Judgement:
        return Judgement(self.rules(question, answer, evidence), called=False)


@dataclass(frozen=True, slots=True)
class Judge:
    """The judge alone: asked whether the evidence states the answer, citing it all."""

    model: BaseChatModel

    def check(
        self,
        question: str,
        answer: str,
        evidence: Sequence[Evidence],
        allowance: Allowance = UNLIMITED,
    ) -> Judgement:
        ids = [item["id"] for item in evidence]
        unchecked = ground(ids, REASON_UNCHECKED.format(answer=answer), [], GROUNDING_STATED)
        return self.confirm(question, answer, unchecked, evidence, allowance)

    def confirm(
        self,
        question: str,
        answer: str,
        checked: Verdict,
        evidence: Sequence[Evidence],
        allowance: Allowance = UNLIMITED,
    ) -> Judgement:
        """The judge's word on a verdict it is asked about (`asks_judge`), within the
        allowance; any other verdict stands, with no call."""
        if not asks_judge(checked):
            return Judgement(checked, called=False)
        if allowance.calls <= 0:
            return judge_unaffordable(checked, allowance.exhausted)
        timeout = max(0.0, min(JUDGE_TIMEOUT_S, allowance.seconds))
        return judge(self.model, question, answer, checked, evidence, timeout_s=timeout)


@dataclass(frozen=True, slots=True)
class RulesThenJudge:
    """The rules, then the judge on what they ground or verify by statement alone."""

    rules: Rules
    judge: Judge

    def check(
        self,
        question: str,
        answer: str,
        evidence: Sequence[Evidence],
        allowance: Allowance = UNLIMITED,
    ) -> Judgement:
        checked = self.rules.check(question, answer, evidence).verdict
        return self.judge.confirm(question, answer, checked, evidence, allowance)


def checker_for(rules: RulesFunction, model: BaseChatModel | None) -> Checker:
    """The rules, then the judge when there is a judge model."""
    return Rules(rules) if model is None else RulesThenJudge(Rules(rules), Judge(model))
