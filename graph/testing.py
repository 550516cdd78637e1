"""Scripted chat models that emit ReAct text, for tests, demos and benchmarks.

A scripted model is stateless: it picks its reply from how many observations
the prompt already holds, so an episode resumed in another process gets the
same reply the first process would have.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from graph.trajectory import one_line

OBSERVATION_MARK = "Observation "
_OBSERVATION_NUMBER = re.compile(r"Observation (\d+):")
_QUESTION = re.compile(r"^Question: (?P<q>.*)$", re.MULTILINE)


def turn_index(messages: Sequence[BaseMessage]) -> int:
    """How many turns the trajectory in the last message already holds: the number
    of its last `Observation N:` line (steps are numbered 1, 2, ...), read from the
    end so that it costs the same at turn 200 as at turn 2."""
    text = str(messages[-1].content) if messages else ""
    end = len(text)
    while (at := text.rfind(OBSERVATION_MARK, 0, end)) >= 0:
        found = _OBSERVATION_NUMBER.match(text, at)
        if found and (at == 0 or text[at - 1] == "\n"):
            return int(found.group(1))
        end = at
    return 0


def question_of(messages: Sequence[BaseMessage]) -> str:
    """The question of the episode, from the last message, on one line as prompts show it."""
    found = _QUESTION.search(str(messages[-1].content)) if messages else None
    return one_line(found.group("q")) if found else ""


class ScriptedReActModel(BaseChatModel):
    """Replies from a script, by turn: `responses[i]` answers turn i.

    `by_question` maps a question to its own script (used by evaluations);
    past the script's end the last reply repeats. `delay_s` sleeps per call
    and `work_s` computes for that much CPU time per call (to measure
    concurrency). Stop sequences are honoured, and usage is
    reported as a word count so token accounting can be tested
    (`count_usage=False` skips it: benchmarks want a model that costs nothing).
    """

    responses: list[str] = Field(default_factory=list)
    by_question: dict[str, list[str]] = Field(default_factory=dict)
    delay_s: float = 0.0
    work_s: float = 0.0
    count_usage: bool = True

    @property
    def _llm_type(self) -> str:
        return "scripted-react"

    def script_for(self, messages: Sequence[BaseMessage]) -> list[str]:
        """The script that answers this prompt."""
        if self.by_question:
            script = self.by_question.get(question_of(messages), self.responses)
        else:
            script = self.responses
        if not script:
            raise ValueError(f"no script for question {question_of(messages)!r}")
        return script

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.delay_s:
            time.sleep(self.delay_s)
        if self.work_s:
            burn_cpu(self.work_s)
        script = self.script_for(messages)
        text = script[min(turn_index(messages), len(script) - 1)]
        for marker in stop or []:
            if marker in text:
                text = text[: text.index(marker)]
        if not self.count_usage:
            return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])
        prompt_words = sum(len(str(m.content).split()) for m in messages)
        written = len(text.split())
        usage = UsageMetadata(
            input_tokens=prompt_words, output_tokens=written, total_tokens=prompt_words + written
        )
        message = AIMessage(content=text, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])


class PolicyReActModel(ScriptedReActModel):
    """Replies with `policy(prompt)`: a fake model that reacts to what it observed."""

    policy: Callable[[str], str]

    def script_for(self, messages: Sequence[BaseMessage]) -> list[str]:
        """A one-reply script computed from the prompt."""
        return [self.policy(str(messages[-1].content))]


MAX_SCRIPT_BYTES = 16 << 20
SCRIPT_KEYS = frozenset({"responses", "by_question", "delay_s", "work_s"})


def load_script(path: str | Path) -> ScriptedReActModel:
    """A scripted model from a file.

    JSON: a list of replies, or `{"responses": [...], "by_question": {...},
    "delay_s": 0}`. Plain text: replies separated by lines holding only `---`.
    """
    file = Path(path)
    if file.exists() and not file.is_file():
        raise ValueError("not a regular file (a device, pipe or socket)")
    if file.exists() and file.stat().st_size > MAX_SCRIPT_BYTES:
        raise ValueError(f"larger than {MAX_SCRIPT_BYTES >> 20} MiB; a script is a few replies")
    model = _parse_script(file, file.read_text(encoding="utf-8"))
    if not model.responses and not any(model.by_question.values()):
        raise ValueError('it holds no reply; give at least one, e.g. ["Action: Finish[42]"]')
    return model


def _parse_script(file: Path, text: str) -> ScriptedReActModel:
    if file.suffix == ".json":
        data = json.loads(text)
        if isinstance(data, list):
            return ScriptedReActModel(responses=[str(r) for r in data])
        if isinstance(data, Mapping):
            unknown = sorted(set(data) - SCRIPT_KEYS)
            if unknown:
                raise ValueError(f"unknown keys {unknown}; a script may hold {sorted(SCRIPT_KEYS)}")
            return ScriptedReActModel(**data)
        raise ValueError(f"{file}: expected a JSON list or object of replies")
    replies = [part.strip("\n") for part in re.split(r"^---\s*$", text, flags=re.MULTILINE)]
    return ScriptedReActModel(responses=[r for r in replies if r.strip()])


DEMO_QUESTION = "In what year was the director of the film The Prestige born?"
DEMO_REPLIES = [
    "Thought: I need the director of The Prestige first.\nAction: Search[The Prestige (film)]",
    "Thought: The first sentence names the director.\nAction: Lookup[directed]",
    "Thought: The director is Christopher Nolan; I need his birth date.\n"
    "Action: Search[Christopher Nolan]",
    "Thought: He was born on 30 July 1970.\nAction: Finish[1970]",
]


def demo_model() -> ScriptedReActModel:
    """A scripted model that answers `DEMO_QUESTION` (for the README's offline run)."""
    return ScriptedReActModel(responses=DEMO_REPLIES)


def library_demo_model() -> PolicyReActModel:
    """A scripted librarian for `--env library` (the README's offline approval round trip).

    It reads the trajectory in the prompt and picks the next action
    (`graph.library_demo.next_turn`), so it resumes in any process.
    """
    from graph.library_demo import next_turn

    return PolicyReActModel(policy=next_turn)


NOTES_REPLIES = {
    "Who is the release manager of release 2.4?": [
        "Thought: Find the release's note.\nAction: search_notes[release]",
        'Thought: Note 1 is the release; read it.\nAction: get_note[{"note_id": 1}]',
        "Thought: The note names the release manager.\nAction: Finish[Mira Okafor]",
    ],
    "Add a note that the standup moves to 10:00 on Tuesdays; what is its id?": [
        "Thought: Adding a note is a write.\nAction: add_note"
        '[{"title": "Standup", "body": "The standup moves to 10:00 on Tuesdays."}]',
        "Thought: The server says which id it got.\nAction: Finish[4]",
    ],
}


def notes_demo_model() -> ScriptedReActModel:
    """A scripted model for the example notes MCP server's two demo questions
    (`docs/mcp.md`); any other question gets the first one's replies."""
    first = next(iter(NOTES_REPLIES.values()))
    return ScriptedReActModel(responses=first, by_question=NOTES_REPLIES)


TOUR_QUESTION = "Which page does a long tour of the snapshot end on?"
_TOUR_WORD = re.compile(r"[A-Za-z]{6,}")


def _tour_keyword(page: Any) -> str | None:
    """A word that Lookup finds in exactly one sentence of `page`, latest sentence first."""
    from tools.wikipedia.lookup import broad_keyword_hint, find_matches

    for sentence in reversed(page.sentences):
        for word in _TOUR_WORD.findall(sentence):
            matches = find_matches(page, word)
            if len(matches) == 1 and broad_keyword_hint(page, word, matches) is None:
                return word
    return None


def tour_settings(steps: int) -> dict[str, Any]:
    """Run settings under which a `steps`-turn tour runs to its Finish, recorded unverified."""
    return {
        "max_model_turns": steps + 1,
        "max_tool_calls": steps + 1,
        "max_seconds": 3600.0,
        "verify_mode": "record",
    }


def tour_replies(steps: int) -> list[str]:
    """A `steps`-turn script over the offline snapshot: Search a page, Lookup a word
    on it, Search the next page, ... (distinct pages, no repeats), then Finish on
    the last page's title. Deterministic: the pages are taken in snapshot order."""
    from tools.wikipedia.snapshot import shared_snapshot

    if steps < 2:
        raise ValueError("a tour needs at least 2 steps (one Search and the Finish)")
    source = shared_snapshot()
    replies: list[str] = []
    last = ""
    for title in source.titles():
        if len(replies) >= steps - 1:
            break
        page = source.page(title) if "[" not in title and "]" not in title else None
        keyword = _tour_keyword(page) if page is not None else None
        if keyword is None:
            continue
        last = title
        replies.append(f"Thought: open page {len(replies) + 1}\nAction: Search[{title}]")
        if len(replies) < steps - 1:
            replies.append(f"Thought: look up {keyword}\nAction: Lookup[{keyword}]")
    return [*replies, f"Thought: done\nAction: Finish[{last}]"]


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


def burn_cpu(seconds: float) -> int:
    """Compute for `seconds` of this thread's CPU time; returns a checksum of the work."""
    deadline = time.thread_time() + seconds
    total = 0
    while time.thread_time() < deadline:
        total = sum(i * i for i in range(2_000)) % 1_000_003 + total % 7
    return total


_HOTPOT: dict[str, dict[str, Any]] = {}


def _hotpot_by_question() -> dict[str, dict[str, Any]]:
    """The built-in questions by their text (read once)."""
    if not _HOTPOT:
        from graph.evaluation.hotpot import load_questions

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
