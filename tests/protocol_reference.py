"""The ReAct parser as it was before issue 10 (one regex per line kind), kept as an oracle.

Its regexes backtrack quadratically on long runs of `*` or blank lines, so it
is only run on short inputs: the linear parser in `graph.core.protocol` must read
every one of them the same way.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph.core.protocol import (
    EMPTY_ARGUMENT,
    INVALID_ACTION,
    MAX_THOUGHT_CHARS,
    NO_ACTION,
    NO_BRACKETS,
    UNKNOWN_ACTION,
    ParsedAction,
    ParseFailure,
)

ACTION_LINE = re.compile(
    r"^[\s>*_`#-]*(?:\d+[.)]\s*)?\**action\**(?:\s*\d+)?\**\s*[:：]\**\s*(?P<body>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
THOUGHT_LINE = re.compile(
    r"^[\s>*_`#-]*\**thought\**(?:\s*\d+)?\**\s*[:：]\**\s*(?P<body>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
CALL = re.compile(r"^`*\s*(?P<name>[A-Za-z_][\w]*)\s*\[(?P<arg>.*)\]\s*`*\s*\.?\s*$", re.DOTALL)
BARE_CALL = re.compile(r"^`*\s*(?P<name>[A-Za-z_][\w]*)\s*\[(?P<arg>[^\n]*)\]", re.MULTILINE)


def clean(text: str) -> str:
    return " ".join(text.split())[:MAX_THOUGHT_CHARS]


def reference_parse(text: str, action_names: Iterable[str]) -> ParsedAction | ParseFailure:
    """The pre-issue-10 `parse_react_output`."""
    names = {name.casefold(): name for name in action_names}
    listing = ", ".join(sorted(names.values(), key=str.casefold))
    found = ACTION_LINE.search(text)
    if found is None:
        bare = BARE_CALL.search(text)
        if bare is None or bare.group("name").casefold() not in names:
            return ParseFailure(
                clean(text), INVALID_ACTION.format(problem=NO_ACTION, names=listing)
            )
        body, start = bare.group(0), bare.start()
    else:
        body, start = found.group("body").strip(), found.start()
        if "[" in body and "]" not in body:
            close = text[found.end() :].find("]")
            if close != -1:
                body = body + text[found.end() :][: close + 1]
        body = body.strip().strip("*").strip()
    thoughts = list(THOUGHT_LINE.finditer(text, 0, start))
    thought = clean(text[thoughts[0].start("body") : start] if thoughts else text[:start])
    call = CALL.match(body)
    if call is None:
        shown = body if len(body) <= 80 else body[:77] + "..."
        problem = NO_BRACKETS.format(text=shown) if body else NO_ACTION
        return ParseFailure(thought, INVALID_ACTION.format(problem=problem, names=listing))
    canonical = names.get(call.group("name").casefold())
    if canonical is None:
        problem = UNKNOWN_ACTION.format(name=call.group("name"))
        return ParseFailure(thought, INVALID_ACTION.format(problem=problem, names=listing))
    argument = " ".join(call.group("arg").split())
    if not argument:
        problem = EMPTY_ARGUMENT.format(name=canonical)
        return ParseFailure(thought, INVALID_ACTION.format(problem=problem, names=listing))
    return ParsedAction(thought=thought, name=canonical, argument=argument)
