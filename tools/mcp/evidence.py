"""What a tool's answer says, as an observation and as evidence.

Text content is split into sentences with the project's splitter, each stored with
its source (server, tool, arguments, time, sentence index: a call's lines share all
but the index, so the verifier reads them as one page); structured content is
stored as `key: value` lines (nested keys dotted), except a prose value (a sentence
or more), stored as its own sentences: a `body: ` label in front of a sentence only
hides from the verifier what the sentence ties together. A text block that only repeats the
structured content as JSON (as SDK servers send it) is not stored twice. Whether a
sentence addresses the assistant is the verifier's to judge: it counts such text
for nothing (`graph.verifier.instructions`), wherever it was stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from mcp_types import CallToolResult, TextContent

from tools.base import EvidenceDraft
from tools.wikipedia.sentences import split_sentences

MAX_OBSERVATION = 1500
MAX_SENTENCES = 60
TRUNCATED = " [truncated]"
TOOL_ERROR = "{call} reported an error: {text}"
NO_CONTENT = "{call} returned nothing."
OTHER_CONTENT = "[{kind} content not shown]"


def _flat(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    if isinstance(value, Mapping):
        found: list[tuple[str, Any]] = []
        for key, item in value.items():
            found += _flat(item, f"{prefix}.{key}" if prefix else str(key))
        return found
    if isinstance(value, list) and any(isinstance(item, dict | list) for item in value):
        found = []
        for index, item in enumerate(value):
            found += _flat(item, f"{prefix}[{index}]")
        return found
    return [(prefix or "value", value)]


def is_prose(value: str) -> bool:
    """Whether a text value is a sentence or more (words, ending as a sentence does)."""
    words = value.split()
    return len(words) > 3 and value.rstrip()[-1:] in ".!?。"


def structured_lines(value: Any) -> list[str]:
    """`key: value` lines of structured content; a prose value gives its sentences."""
    lines = []
    for key, item in _flat(value):
        if isinstance(item, str) and is_prose(item):
            lines += split_sentences(item)
        elif isinstance(item, str):
            lines.append(f"{key}: {item}")
        else:
            lines.append(f"{key}: {json.dumps(item, ensure_ascii=False)}")
    return lines


def _texts(result: CallToolResult) -> tuple[list[str], list[str]]:
    """The text blocks (those only repeating the structured content left out) and the
    names of other content kinds."""
    texts: list[str] = []
    others: list[str] = []
    structured = result.structured_content
    for block in result.content:
        if not isinstance(block, TextContent):
            others.append(block.type)
            continue
        try:
            decoded = json.loads(block.text)
        except ValueError:
            decoded = None
        if structured is not None and decoded is not None and decoded == structured:
            continue
        texts.append(block.text)
    return texts, others


def render_result(
    result: CallToolResult, call: str, source: Mapping[str, Any]
) -> tuple[str, list[EvidenceDraft]]:
    """The observation of a tool's answer and its evidence (none for a tool error)."""
    texts, others = _texts(result)
    if result.is_error:
        said = " ".join(" ".join(texts).split()) or "no message"
        return TOOL_ERROR.format(call=call, text=said), []
    structured = result.structured_content
    lines: list[str] = []
    for block in texts:
        lines += split_sentences(block)
    wrapped = isinstance(structured, dict) and set(structured) == {"result"} and texts
    if structured is not None and not wrapped:
        lines += structured_lines(structured)
    lines = [line for line in (" ".join(item.split()) for item in lines) if line]
    evidence = [
        EvidenceDraft(
            text=line, tool=str(source["tool"]), source={**source, "sentence_index": i}, facts={}
        )
        for i, line in enumerate(lines[:MAX_SENTENCES])
    ]
    shown = "\n".join([*lines, *(OTHER_CONTENT.format(kind=kind) for kind in others)])
    if not shown:
        return NO_CONTENT.format(call=call), []
    if len(shown) > MAX_OBSERVATION:
        shown = shown[: MAX_OBSERVATION - len(TRUNCATED)].rstrip() + TRUNCATED
    return shown, evidence
