"""A model file for `--model tests/data/prompt_recorder.py:recorder`: the demo replies,
with every prompt's digest appended to `$PROMPT_LOG` ("turn digest" lines); with
`$DIE_AT_TURN` set, the process dies (exit 9) when asked for that turn."""

from __future__ import annotations

import hashlib
import os
from typing import Any

from langchain_core.messages import BaseMessage
from langchain_core.outputs import ChatResult

from graph.testing import DEMO_REPLIES, ScriptedReActModel, turn_index


class PromptRecorder(ScriptedReActModel):
    """Scripted replies that log a digest of each prompt they answer."""

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> ChatResult:
        turn = turn_index(messages)
        if os.environ.get("DIE_AT_TURN") == str(turn):
            os._exit(9)
        prompt = "\n".join(f"{m.type}: {m.content}" for m in messages)
        with open(os.environ["PROMPT_LOG"], "a", encoding="utf-8") as log:
            log.write(f"{turn} {hashlib.sha256(prompt.encode()).hexdigest()}\n")
        return super()._generate(messages, *args, **kwargs)


def recorder() -> PromptRecorder:
    """The recorder on the demo question's replies."""
    return PromptRecorder(responses=DEMO_REPLIES)
