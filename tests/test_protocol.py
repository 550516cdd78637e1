"""The ReAct text parser: tolerant of form, never raising on content."""

from __future__ import annotations

import random
import time

import pytest
from protocol_reference import reference_parse

from graph.core.protocol import MAX_REPLY_CHARS, ParsedAction, ParseFailure, parse_react_output

NAMES = ["Search", "Lookup", "Finish", "get_open_hours"]


@pytest.mark.parametrize(
    ("text", "name", "argument", "thought"),
    [
        (
            "Thought: open it\nAction: Search[Christopher Nolan]",
            "Search",
            "Christopher Nolan",
            "open it",
        ),
        ("Thought 3: again\nAction 3: search[ Nolan ]", "Search", "Nolan", "again"),
        ("**Thought:** bold\n**Action:** Lookup[born]", "Lookup", "born", "bold"),
        ("```\nThought: fenced\nAction: Search[A]\n```", "Search", "A", "fenced"),
        (
            "Sure! Here is my step.\nThought: t\nAction: Finish[1970]\nThanks.",
            "Finish",
            "1970",
            "t",
        ),
        ("Thought: two\nAction: Search[First]\nAction: Search[Second]", "Search", "First", "two"),
        ("Thought: bare\nSearch[Bare Call]", "Search", "Bare Call", "bare"),
        (
            'Thought: json\nAction: get_open_hours[{"branch": "West",\n "date": "2026-09-26"}]',
            "get_open_hours",
            '{"branch": "West", "date": "2026-09-26"}',
            "json",
        ),
        ("Thought: full width\nAction： Finish[yes]", "Finish", "yes", "full width"),
    ],
)
def test_reads_the_first_action(text: str, name: str, argument: str, thought: str) -> None:
    parsed = parse_react_output(text, NAMES)
    assert parsed == ParsedAction(thought=thought, name=name, argument=argument)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("I think the answer is probably London.", "no 'Action:' line"),
        ("Thought: x\nAction: Fly[London]", "'Fly' is not an action"),
        ("Thought: x\nAction: Search[]", "needs a non-empty argument"),
        ("Thought: x\nAction: Search[   ]", "needs a non-empty argument"),
        ("Thought: x\nAction: Search Nolan", "not of the form Name[argument]"),
        ("", "no 'Action:' line"),
        ("x" * 50_000, "no 'Action:' line"),
    ],
)
def test_unreadable_output_becomes_a_failure_that_teaches_the_grammar(
    text: str, problem: str
) -> None:
    parsed = parse_react_output(text, NAMES)
    assert isinstance(parsed, ParseFailure)
    assert parsed.message.startswith("Invalid action: ")
    assert problem in parsed.message
    assert "Action: <Name>[<argument>]" in parsed.message
    assert len(parsed.thought) <= 2000


PATHOLOGICAL = {
    "stars": "*" * 80_000,
    "dashes": "-" * 80_000,
    "hashes": "#" * 80_000,
    "quotes": ">" * 80_000,
    "spaces": " " * 80_000,
    "star lines": "*\n" * 40_000,
    "blank lines": "\n" * 80_000,
    "open brackets": "[" * 80_000,
    "bracket pairs": "[]" * 40_000,
    "unclosed bracket": "Action: Search[" + "x" * 80_000,
    "unclosed on many lines": "Action: Search[" + "x\n" * 40_000,
    "stars after the label": "Action" + "*" * 80_000,
    "label lines": "Action\n" * 11_000,
    "numbering lines": "1.\n" * 26_000,
    "calls without lines": "a[" * 40_000,
    "spaces after a call": "Action: Search[x]" + " " * 30_000 + "y",
    "spaces before the bracket": "Search" + " " * 80_000 + "[x]",
    "markdown soup": ">*_`#- \n" * 10_000,
}


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_parsing_is_linear_on_inputs_that_made_the_regexes_backtrack(text: str) -> None:
    """An 80 KB line of `*` took 32 s with the old regexes; linear parsing takes
    milliseconds, so a whole second is a bound no linear parser can miss."""
    started = time.perf_counter()
    parsed = parse_react_output(text, NAMES)
    assert time.perf_counter() - started < 1.0
    assert isinstance(parsed, ParseFailure) and parsed.message.startswith("Invalid action: ")


def test_only_the_first_characters_of_a_reply_are_read_and_the_failure_says_so() -> None:
    late = "x" * MAX_REPLY_CHARS + "\nAction: Search[Too late]"
    parsed = parse_react_output(late, NAMES)
    assert isinstance(parsed, ParseFailure)
    assert f"in the first {MAX_REPLY_CHARS} characters" in parsed.message
    early = "Thought: t\nAction: Search[In time]\n" + "chatter " * 10_000
    assert parse_react_output(early, NAMES) == ParsedAction("t", "Search", "In time")


def test_reads_every_short_reply_as_the_regex_parser_did() -> None:
    rng = random.Random(10)
    pieces = [
        "Thought",
        "Action",
        "action",
        "ACTION 2",
        ":",
        "：",
        "*",
        "**",
        "-",
        "#",
        ">",
        "`",
        "```",
        " ",
        "\n",
        "\n",
        "\t",
        "\r",
        "\u3000",
        "1.",
        "3)",
        "Search",
        "Lookup",
        "Finish",
        "Fly",
        "get_open_hours",
        "[",
        "]",
        "x y",
        "{",
        "}",
        ".",
        "_",
        "é",
    ]
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 16)))
        assert parse_react_output(text, NAMES) == reference_parse(text, NAMES), repr(text)
