"""A scripted reader of the built-in HotpotQA questions that reads the gold sentences.

`hotpot_reader_model` (`--model graph.evaluation.oracles:hotpot_reader_model`) searches
each supporting page, looks up each supporting sentence that Search does not show (with a
keyword whose first match is that sentence), then finishes with the gold answer, and
finishes with it again when the answer is sent back. It measures what the verifier does
with right answers through the real graph: every episode should end `verified` or
`grounded`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from langchain_core.messages import BaseMessage

from graph.core.scripted import ScriptedReActModel, question_of
from graph.core.trajectory import one_line
from graph.evaluation.hotpot import load_questions
from tools.wikipedia.base import Page
from tools.wikipedia.environment import SEARCH_SENTENCES
from tools.wikipedia.lookup import broad_keyword_hint, find_matches
from tools.wikipedia.snapshot import shared_snapshot

_WORD = re.compile(r"[^\W\d_][\w'-]{3,}")
UNKNOWN = "Thought: I do not know this question.\nAction: Finish[unknown]"


def keyword_for(page: Page, index: int) -> str | None:
    """A word of the page's sentence `index` whose first Lookup match is that sentence."""
    words = sorted(set(_WORD.findall(page.sentences[index])), key=len, reverse=True)
    for word in words:
        matches = find_matches(page, word)
        if matches[:1] == [index] and broad_keyword_hint(page, word, matches) is None:
            return word
    return None


def reader_script(record: dict[str, object]) -> list[str]:
    """Search every supporting page, Lookup its supporting sentences, then Finish."""
    source = shared_snapshot()
    facts = record["supporting_facts"]
    assert isinstance(facts, list)
    replies: list[str] = []
    for title in dict.fromkeys(str(title) for title, _ in facts):
        replies.append(f"Thought: I need the page {title}.\nAction: Search[{title}]")
        page = source.page(title)
        for fact_title, index in facts:
            if str(fact_title) != title or page is None or not index >= SEARCH_SENTENCES:
                continue
            if index < len(page.sentences) and (keyword := keyword_for(page, int(index))):
                replies.append(f"Thought: the line on {keyword}.\nAction: Lookup[{keyword}]")
    return [*replies, f"Thought: That answers it.\nAction: Finish[{record['answer']}]"]


class HotpotReaderModel(ScriptedReActModel):
    """Reads the gold sentences of a built-in question, then gives its gold answer."""

    count_usage: bool = False

    def script_for(self, messages: Sequence[BaseMessage]) -> list[str]:
        return list(_script_of(question_of(messages)))


@lru_cache(maxsize=1024)
def _script_of(question: str) -> tuple[str, ...]:
    """A question's script, made once (the model asks for it at every turn)."""
    record = hotpot_record(question)
    return (UNKNOWN,) if record is None else tuple(reader_script(record))


def hotpot_reader_model() -> HotpotReaderModel:
    """The gold reader with no cost per call."""
    return HotpotReaderModel()


class HotpotOracleModel(ScriptedReActModel):
    """A scripted reader of the built-in HotpotQA questions, for benchmarks of the harness.

    For a question it knows it searches each supporting page, then answers the
    gold answer (the verifier still decides whether the stored evidence backs
    it); other questions get `Finish[unknown]`. `delay_s` waits per call (a
    remote model), `work_s` burns that much CPU per call (a local one).
    """

    count_usage: bool = False

    def script_for(self, messages: Sequence[BaseMessage]) -> list[str]:
        """Search the gold pages, then answer."""
        record = _hotpot_by_question().get(question_of(messages))
        if record is None:
            return ["Thought: I do not know this question.\nAction: Finish[unknown]"]
        titles = list(dict.fromkeys(str(title) for title, _ in record["supporting_facts"]))
        searches = [f"Thought: I need the page {t}.\nAction: Search[{t}]" for t in titles]
        return [*searches, f"Thought: That answers it.\nAction: Finish[{record['answer']}]"]


_HOTPOT: dict[str, dict[str, Any]] = {}


def _hotpot_by_question() -> dict[str, dict[str, Any]]:
    """The built-in questions by their text (read once)."""
    if not _HOTPOT:
        _HOTPOT.update({one_line(str(q["question"])): q for q in load_questions()})
    return _HOTPOT


def hotpot_record(question: str) -> dict[str, Any] | None:
    """The built-in question with this text, if any."""
    return _hotpot_by_question().get(question)


def hotpot_oracle_model() -> HotpotOracleModel:
    """The HotpotQA oracle with no cost per call."""
    return HotpotOracleModel()


def slow_hotpot_model() -> HotpotOracleModel:
    """The oracle waiting 0.1 s per call, like a model behind an API."""
    return HotpotOracleModel(delay_s=0.1)


def busy_hotpot_model() -> HotpotOracleModel:
    """The oracle computing for 0.1 s of CPU per call, like a model run locally."""
    return HotpotOracleModel(work_s=0.1)
