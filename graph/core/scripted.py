"""Scripted chat models that emit ReAct text: replies from a script, by turn (see
`graph.testing` for the demo and tour scripts built on them).

A scripted model is stateless: it picks its reply from how many observations the prompt
already holds, so an episode resumed in another process gets the same reply the first
process would have.
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

from graph.core.trajectory import one_line

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


def burn_cpu(seconds: float) -> int:
    """Compute for `seconds` of this thread's CPU time; returns a checksum of the work."""
    deadline = time.thread_time() + seconds
    total = 0
    while time.thread_time() < deadline:
        total = sum(i * i for i in range(2_000)) % 1_000_003 + total % 7
    return total
