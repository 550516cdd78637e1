"""The ReAct text protocol: `Thought: ...` then `Action: Name[argument]`.

`parse_react_output` never raises on model text: whatever it cannot read
becomes a `ParseFailure` whose message is shown to the model as an
`Invalid action` observation that repeats the grammar.

It runs in linear time on any input. Only the first `MAX_REPLY_CHARS`
characters of a reply are read (an Action past them is not seen, and the
failure says so). Lines are found by a literal search for `action`,
`thought` or `[`, and each candidate is read by scanning forward or back
over runs of one kind of character, so no character is looked at more than
a few times; the few regexes used match one unambiguous run each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

MAX_THOUGHT_CHARS = 2000
MAX_REPLY_CHARS = 32_000

INVALID_ACTION = (
    "Invalid action: {problem}. Write one line 'Thought: <reason>' and then one line "
    "'Action: <Name>[<argument>]' where Name is one of: {names}."
)
NO_ACTION = "no 'Action:' line was found"
NO_ACTION_IN_CAP = "no 'Action:' line was found in the first {limit} characters"
UNKNOWN_ACTION = "'{name}' is not an action"
EMPTY_ARGUMENT = "{name}[...] needs a non-empty argument"
NO_BRACKETS = "the action '{text}' is not of the form Name[argument]"

MARKUP = ">*_`#-"  # quotes, emphasis, headings, bullets, rules, fences
_LINE_PREFIX = re.compile(r"[\s>*_`#-]*")
_NUMBERING = re.compile(r"\d+[.)]")
_NUMBERING_LINE = re.compile(r"[\s>*_`#-]*\d+[.)]\s*")
_LEAD_TO_LABEL = re.compile(r"\s*\**")
_STEP_NUMBER = re.compile(r"\s*\d+")
_NAME = re.compile(r"[A-Za-z_]\w*")
_COLONS = ":："
_LABELS = {
    "action": re.compile("action", re.IGNORECASE),
    "thought": re.compile("thought", re.IGNORECASE),
}
_OPENING = re.compile(r"\[")


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


def _skip(text: str, at: int, chars: str) -> int:
    """The first position from `at` whose character is not one of `chars`."""
    while at < len(text) and text[at] in chars:
        at += 1
    return at


def _skip_blank(text: str, at: int) -> int:
    """The first non-whitespace position from `at` (line breaks included)."""
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def _back(text: str, at: int, keep: Callable[[str], bool]) -> int:
    """The start of the run of characters ending at `at` for which `keep` holds."""
    while at > 0 and keep(text[at - 1]):
        at -= 1
    return at


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _line_end(text: str, at: int) -> int:
    end = text.find("\n", at)
    return len(text) if end < 0 else end


def _candidate_lines(text: str, needle: re.Pattern[str]) -> Iterator[int]:
    """The start of each line that contains `needle`, once (other lines at C speed)."""
    end = -1
    for hit in needle.finditer(text):
        if hit.start() > end:
            end = _line_end(text, hit.start())
            yield text.rfind("\n", 0, hit.start()) + 1


def _climb(text: str, start: int, keep: Callable[[str], bool]) -> int:
    """The start of the run of lines just above `start` for which `keep` holds."""
    while start > 0:
        above = text.rfind("\n", 0, start - 1) + 1
        if not keep(text[above : start - 1]):
            break
        start = above
    return start


def _markup_only(line: str) -> bool:
    return all(char.isspace() or char in MARKUP for char in line)


def _label(text: str, line_start: int, label: str, numbered: bool) -> tuple[int, int] | None:
    """For a `label:` line at `line_start`: (where the label's match starts, where the
    text after the colon starts); None for another line.

    Allowed: markdown before the label (also on lines above), a list number
    (`1.`, when `numbered`), a step number (`Action 3:`), bold marks, a
    full-width colon and line breaks before the colon.
    """
    at = _LINE_PREFIX.match(text, line_start, _line_end(text, line_start)).end()  # type: ignore[union-attr]
    number = _NUMBERING.match(text, at) if numbered else None
    if number:
        at = _skip_blank(text, number.end())
    at = _skip(text, at, "*")
    if not _LABELS[label].match(text, at):
        return None
    label_at = at
    at = _skip(text, at + len(label), "*")
    step = _STEP_NUMBER.match(text, at)
    at = _skip_blank(text, _skip(text, step.end() if step else at, "*"))
    if at >= len(text) or text[at] not in _COLONS:
        return None
    start = _climb(text, line_start, lambda line: not line.strip())
    lead = _LEAD_TO_LABEL.match(text, line_start)
    numbered_above = (
        numbered
        and not number
        and lead is not None
        and lead.end() >= label_at
        and start > 0
        and _NUMBERING_LINE.fullmatch(text, text.rfind("\n", 0, start - 1) + 1, start - 1)
    )
    if numbered_above:
        start = text.rfind("\n", 0, start - 1) + 1
    elif not number:
        start = line_start
    return _climb(text, start, _markup_only), _skip(text, at + 1, "*")


def _find_label(text: str, label: str, numbered: bool) -> tuple[int, int] | None:
    """The first `label:` line: (start of its match, start of the text after the colon)."""
    for line_start in _candidate_lines(text, _LABELS[label]):
        found = _label(text, line_start, label, numbered)
        if found is not None:
            return found
    return None


def _action_body(text: str, body_start: int) -> str:
    """The action's text: its line, plus following lines while a bracket is open."""
    end = text.find("\n", body_start)
    body = text[body_start : len(text) if end < 0 else end].strip()
    if "[" in body and "]" not in body and end >= 0:
        close = text.find("]", end)
        if close != -1:
            body = body + text[end : close + 1]
    return body.strip().strip("*").strip()


def _bare_call(text: str) -> tuple[int, str, str] | None:
    """The first `Name[...]` that starts a line (after backticks and blanks):
    (where it starts, its text through the last `]` of the bracket's line, the name)."""
    for opening in (hit.start() for hit in _OPENING.finditer(text)):
        name_end = _back(text, opening, str.isspace)
        name_start = _back(text, name_end, _is_word)
        if not _NAME.fullmatch(text, name_start, name_end):
            continue
        blank = _back(text, name_start, str.isspace)
        ticks = _back(text, blank, lambda char: char == "`")
        if ticks == 0 or text[ticks - 1] == "\n":
            start = ticks
        elif "\n" in text[blank:name_start]:
            start = text.index("\n", blank) + 1
        else:
            continue
        closing = text.rfind("]", opening, _line_end(text, opening))
        if closing > opening:
            return start, text[start : closing + 1], text[name_start:name_end]
    return None


def _call(body: str) -> tuple[str, str] | None:
    """`Name[argument]` (in optional backticks, a final period allowed): (name, argument)."""
    name = _NAME.match(body, _skip_blank(body, _skip(body, 0, "`")))
    if name is None:
        return None
    opening = _skip_blank(body, name.end())
    tail = body.rstrip()
    tail = tail[:-1].rstrip() if tail.endswith(".") else tail
    tail = tail.rstrip("`").rstrip()
    if not body.startswith("[", opening) or not tail.endswith("]") or len(tail) <= opening + 1:
        return None
    return name.group(), tail[opening + 1 : -1]


def _clean_thought(text: str) -> str:
    thought = " ".join(text.split())
    return thought[:MAX_THOUGHT_CHARS]


def _thought_of(text: str, action_start: int) -> str:
    found = _find_label(text[:action_start], "thought", numbered=False)
    return _clean_thought(text[found[1] if found else 0 : action_start])


def parse_react_output(text: str, action_names: Iterable[str]) -> ParsedAction | ParseFailure:
    """Read the first action from a model turn.

    Tolerates numbering (`Thought 3:`), case (`search[...]`), markdown
    emphasis or fences around the lines, chatter before and after, and
    several actions (the first one wins). Names are matched case-insensitively
    against `action_names` and returned in their canonical spelling.
    """
    names = {name.casefold(): name for name in action_names}
    listing = ", ".join(sorted(names.values(), key=str.casefold))
    capped = len(text) > MAX_REPLY_CHARS
    text = text[:MAX_REPLY_CHARS]
    action = _find_label(text, "action", numbered=True)
    if action is None:
        bare = _bare_call(text)
        if bare is None or bare[2].casefold() not in names:
            missing = NO_ACTION_IN_CAP.format(limit=MAX_REPLY_CHARS) if capped else NO_ACTION
            return ParseFailure(
                _clean_thought(text), INVALID_ACTION.format(problem=missing, names=listing)
            )
        start, body, _ = bare
    else:
        start, body = action[0], _action_body(text, _skip_blank(text, action[1]))
    thought = _thought_of(text, start)
    call = _call(body)
    if call is None:
        shown = body if len(body) <= 80 else body[:77] + "..."
        problem = NO_BRACKETS.format(text=shown) if body else NO_ACTION
        return ParseFailure(thought, INVALID_ACTION.format(problem=problem, names=listing))
    canonical = names.get(call[0].casefold())
    if canonical is None:
        problem = UNKNOWN_ACTION.format(name=call[0])
        return ParseFailure(thought, INVALID_ACTION.format(problem=problem, names=listing))
    argument = " ".join(call[1].split())
    if not argument:
        problem = EMPTY_ARGUMENT.format(name=canonical)
        return ParseFailure(thought, INVALID_ACTION.format(problem=problem, names=listing))
    return ParsedAction(thought=thought, name=canonical, argument=argument)
