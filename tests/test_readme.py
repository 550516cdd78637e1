"""The terminal transcripts (```console blocks) of the README and the documentation
pages match real runs, offline.

They are the demo near the top of the README and the library approval round trips
(the README's approval, and `docs/approvals.md`'s approval, rejection and edit);
each runs in a fresh working directory and state directory, so it starts as a
newcomer's would. See `transcripts.py` for the format and what is normalised.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from transcripts import Session, Step, transcripts

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# docs/mcp.md's transcripts start an MCP server from the working directory's `.venv`:
# `test_mcp_docs` runs them in a newcomer's directory that has one.
PAGES = [README, *sorted(p for p in (ROOT / "docs").glob("*.md") if p.name != "mcp.md")]


def _all_transcripts() -> list[tuple[Path, list[Step]]]:
    """Every page's transcripts, each once (a page may repeat the README's)."""
    found: list[tuple[Path, list[Step]]] = []
    for page in PAGES:
        for steps in transcripts(page.read_text(encoding="utf-8")):
            if all(steps != seen for _, seen in found):
                found.append((page, steps))
    return found


FOUND = _all_transcripts()
TRANSCRIPTS = [steps for _, steps in FOUND]
# The README's transcripts are in the fast tier; the documentation's in the slow one.
CASES = [
    pytest.param(steps, id=f"{page.stem}-{n}", marks=[] if page == README else [pytest.mark.slow])
    for n, (page, steps) in enumerate(FOUND)
]
UNSET = ("REACT_AGENT_DB", "REACT_AGENT_MODEL", "GROQ_API_KEY", "OPENAI_API_KEY")


def _commands(steps: list[Step]) -> str:
    return " ".join(step.command for step in steps)


def test_the_readme_shows_the_demo_and_every_decision() -> None:
    everything = " ".join(_commands(steps) for steps in TRANSCRIPTS)
    assert "--model graph.testing:demo_model" in _commands(TRANSCRIPTS[0])
    for decision in ("--approve", "--reject", "--edit"):
        assert f" {decision} " in everything + " "
    assert "--model graph.testing:library_demo_model" in everything


@pytest.mark.parametrize("steps", CASES)
def test_readme_transcript_matches_a_real_run(steps: list[Step], tmp_path: Path) -> None:
    state = tmp_path / "state"
    work = tmp_path / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in UNSET} | {"XDG_STATE_HOME": str(state)}
    session = Session(work, env, str(state))
    for step in steps:
        problem = session.check(step, session.run(step))
        assert not problem, problem
