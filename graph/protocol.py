"""The ReAct text protocol: `Thought: ...` then `Action: Name[argument]`.

`parse_react_output` never raises on model text: whatever it cannot read
becomes a `ParseFailure` whose message is shown to the model as an
`Invalid action` observation that repeats the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

MAX_THOUGHT_CHARS = 2000

INVALID_ACTION = (
    "Invalid action: {problem}. Write one line 'Thought: <reason>' and then one line "
    "'Action: <Name>[<argument>]' where Name is one of: {names}."
)
NO_ACTION = "no 'Action:' line was found"
UNKNOWN_ACTION = "'{name}' is not an action"
EMPTY_ARGUMENT = "{name}[...] needs a non-empty argument"
NO_BRACKETS = "the action '{text}' is not of the form Name[argument]"

_ACTION_LINE = re.compile(
    r"^[\s>*_`#-]*(?:\d+[.)]\s*)?\**action\**(?:\s*\d+)?\**\s*[:：]\**\s*(?P<body>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_THOUGHT_LINE = re.compile(
    r"^[\s>*_`#-]*\**thought\**(?:\s*\d+)?\**\s*[:：]\**\s*(?P<body>.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_CALL = re.compile(r"^`*\s*(?P<name>[A-Za-z_][\w]*)\s*\[(?P<arg>.*)\]\s*`*\s*\.?\s*$", re.DOTALL)
_BARE_CALL = re.compile(r"^`*\s*(?P<name>[A-Za-z_][\w]*)\s*\[(?P<arg>[^\n]*)\]", re.MULTILINE)


@dataclass(frozen=True)
class ParsedAction:
    """A well-formed action: canonical name and the raw bracket argument."""

    thought: str
    name: str
    argument: str


@dataclass(frozen=True)
class ParseFailure:
    """Model output that is not a valid action; `message` is for the model."""

    thought: str
    message: str


def _clean_thought(text: str) -> str:
    thought = " ".join(text.split())
    return thought[:MAX_THOUGHT_CHARS]


def _thought_of(text: str, action_start: int) -> str:
    thoughts = list(_THOUGHT_LINE.finditer(text, 0, action_start))
    if thoughts:
        first = thoughts[0]
        return _clean_thought(text[first.start("body") : action_start])
    return _clean_thought(text[:action_start])


def _action_body(text: str, match: re.Match[str]) -> str:
    """The action's text: its line, plus following lines while a bracket is open."""
    body = match.group("body").strip()
    if "[" in body and "]" not in body:
        rest = text[match.end() :]
        close = rest.find("]")
        if close != -1:
            body = body + rest[: close + 1]
    return body.strip().strip("*").strip()


def parse_react_output(text: str, action_names: Iterable[str]) -> ParsedAction | ParseFailure:
    """Read the first action from a model turn.

    Tolerates numbering (`Thought 3:`), case (`search[...]`), markdown
    emphasis or fences around the lines, chatter before and after, and
    several actions (the first one wins). Names are matched case-insensitively
    against `action_names` and returned in their canonical spelling.
    """
    names = {name.casefold(): name for name in action_names}
    listing = ", ".join(sorted(names.values(), key=str.casefold))
    action_match = _ACTION_LINE.search(text)
    if action_match is None:
        bare = _BARE_CALL.search(text)
        if bare is None or bare.group("name").casefold() not in names:
            return ParseFailure(
                _clean_thought(text), INVALID_ACTION.format(problem=NO_ACTION, names=listing)
            )
        body, start = bare.group(0), bare.start()
    else:
        body, start = _action_body(text, action_match), action_match.start()
    thought = _thought_of(text, start)
    call = _CALL.match(body)
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
