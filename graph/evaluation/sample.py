"""A scripted stand-in for a model, for the sample report: it reads the gold answers.

`SampleModel` answers every method's prompt from a hash of (question, method,
seed, purpose): right half the time, wrong otherwise; as an agent it searches
the gold supporting articles first, and one episode in five it keeps
searching without ever finishing; told that its Finish is unsupported, it
switches to the gold answer half the time. Its figures show what a
comparison report looks like; they are never a language model's accuracy.

    react-agent bench qa --model graph.evaluation.sample:sample_model --out runs/sample
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from langchain_core.messages import BaseMessage

from graph.core.trajectory import one_line
from graph.evaluation.hotpot import load_questions
from graph.testing import ScriptedReActModel, question_of

RIGHT = 0.5
STALL = 0.2
CORRECTS = 0.5


@lru_cache(maxsize=1)
def gold_by_question() -> dict[str, dict[str, Any]]:
    """The built-in HotpotQA records by question text, on one line as prompts show it."""
    return {one_line(record["question"]): record for record in load_questions()}


def _unit(*parts: object) -> float:
    """A number in [0, 1) fixed by `parts`."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def prompt_kind(messages: Sequence[BaseMessage]) -> str:
    """Which method's prompt this is: standard, cot, act or react."""
    system = str(messages[0].content) if messages else ""
    if "Observation" in system:
        return "react" if "\nThought 1:" in system else "act"
    return "cot" if "Thought:" in system else "standard"


def wrong_answer(record: dict[str, Any]) -> str:
    """A plausible wrong answer: the other of yes/no, else a distractor article's title."""
    answer = record["answer"]
    if answer.lower() in ("yes", "no"):
        return "no" if answer.lower() == "yes" else "yes"
    gold_titles = {title for title, _ in record["supporting_facts"]}
    others = [t for t in record.get("context_titles", []) if t not in gold_titles and t != answer]
    return others[0] if others else "unknown"


class SampleModel(ScriptedReActModel):
    """Scripted replies for every method of the comparison (see the module docstring)."""

    seed: int = 0

    @property
    def _llm_type(self) -> str:
        return "scripted-sample"

    def script_for(self, messages: Sequence[BaseMessage]) -> list[str]:
        """The whole episode's replies for this question, method and seed."""
        question = question_of(messages)
        record = gold_by_question().get(question)
        if record is None:
            raise ValueError(f"the sample model only knows the built-in questions: {question!r}")
        kind = prompt_kind(messages)
        right = _unit(record["_id"], kind, self.seed, "right") < RIGHT
        final = record["answer"] if right else wrong_answer(record)
        if kind == "standard":
            return [f"Answer: {final}"]
        if kind == "cot":
            return [f"Thought: Let's think step by step. (scripted)\nAnswer: {final}"]
        actions = self._actions(record, kind, final)
        if kind == "act":
            return [f"Action: {action}" for action in actions]
        return [
            f"Thought: (scripted) step {number}.\nAction: {action}"
            for number, action in enumerate(actions, start=1)
        ]

    def _actions(self, record: dict[str, Any], kind: str, final: str) -> list[str]:
        """Search the supporting articles, then Finish (and Finish again if sent back)."""
        titles = list(dict.fromkeys(title for title, _ in record["supporting_facts"]))
        actions = [f"Search[{title}]" for title in titles]
        if _unit(record["_id"], kind, self.seed, "stall") < STALL:
            return actions + [
                f"Search[{t}]" for t in record.get("context_titles", []) if t not in titles
            ]
        fixes = _unit(record["_id"], kind, self.seed, "fix") < CORRECTS
        return [*actions, f"Finish[{final}]", f"Finish[{record['answer'] if fixes else final}]"]


def sample_model() -> SampleModel:
    """The `--model graph.evaluation.sample:sample_model` factory."""
    return SampleModel()
