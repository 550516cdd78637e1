"""Scripted chat models that emit ReAct text, for tests, demos and benchmarks.

A scripted model is stateless: it picks its reply from how many observations
the prompt already holds, so an episode resumed in another process gets the
same reply the first process would have.

`graph.core.library_demo` is imported inside `library_demo_model`: at the top it would
add about 0.26 s (the library's SQLAlchemy) to every test or benchmark that imports this
module for the Wikipedia models (python -X importtime).
"""

from __future__ import annotations

import re
from typing import Any

from graph.core.scripted import (
    MAX_SCRIPT_BYTES,
    SCRIPT_KEYS,
    PolicyReActModel,
    ScriptedReActModel,
    burn_cpu,
    load_script,
    question_of,
    turn_index,
)
from tools.wikipedia.lookup import broad_keyword_hint, find_matches
from tools.wikipedia.snapshot import shared_snapshot

__all__ = [
    "DEMO_QUESTION",
    "DEMO_REPLIES",
    "MAX_SCRIPT_BYTES",
    "SCRIPT_KEYS",
    "TOUR_QUESTION",
    "PolicyReActModel",
    "ScriptedReActModel",
    "burn_cpu",
    "demo_model",
    "library_demo_model",
    "load_script",
    "question_of",
    "tour_replies",
    "tour_settings",
    "turn_index",
]

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
    (`graph.core.library_demo.next_turn`), so it resumes in any process.
    """
    from graph.core.library_demo import next_turn

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
