"""The ReAct text parser: tolerant of form, never raising on content."""

from __future__ import annotations

import pytest

from graph.protocol import ParsedAction, ParseFailure, parse_react_output

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
