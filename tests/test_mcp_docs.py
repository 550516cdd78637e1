"""docs/mcp.md's terminal transcripts match real runs with the example notes server,
offline, in a fresh working directory and state directory (as a newcomer's would be)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp_utils import newcomer_dir
from transcripts import Session, Step, transcripts

pytestmark = pytest.mark.slow  # the docs' transcripts are in the slow tier

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "mcp.md"
TRANSCRIPTS = transcripts(PAGE.read_text(encoding="utf-8"))
UNSET = ("REACT_AGENT_DB", "REACT_AGENT_MODEL", "GROQ_API_KEY", "OPENAI_API_KEY")


def test_the_page_shows_a_verified_read_and_an_approved_write() -> None:
    commands = " ".join(step.command for steps in TRANSCRIPTS for step in steps)
    assert "--env mcp --mcp" in commands and " --approve" in commands
    assert " audit " in commands


@pytest.mark.parametrize("steps", TRANSCRIPTS, ids=[f"block{n}" for n in range(len(TRANSCRIPTS))])
def test_docs_transcript_matches_a_real_run(steps: list[Step], tmp_path: Path) -> None:
    state, work = tmp_path / "state", newcomer_dir(tmp_path / "work")
    env = {k: v for k, v in os.environ.items() if k not in UNSET} | {"XDG_STATE_HOME": str(state)}
    session = Session(work, env, str(state))
    for step in steps:
        problem = session.check(step, session.run(step))
        assert not problem, problem
