"""Through the CLI, in its own process: a model that reads the right pages and then
finishes with a wrong span from them is told what is missing and ends unverified."""

from __future__ import annotations

import json
from pathlib import Path

from cli_utils import run_cli

QUESTION = "Both Never Cry Wolf and Big Hero 6 films were released by what label?"
REPLIES = [
    "Thought: I need the studio of Big Hero 6.\nAction: Search[Big Hero 6 (film)]",
    "Thought: And the studio of Never Cry Wolf.\nAction: Search[Never Cry Wolf (film)]",
    "Thought: Don Hall is named on the page.\nAction: Finish[Don Hall]",
]


def test_a_wrong_span_from_the_right_pages_ends_unverified(tmp_path: Path) -> None:
    script = tmp_path / "wrong_span.json"
    script.write_text(json.dumps(REPLIES), encoding="utf-8")
    done = run_cli(
        "ask",
        QUESTION,
        "--model",
        f"scripted:{script}",
        "--db",
        str(tmp_path / "e.sqlite3"),
        "--json",
    )
    assert done.returncode == 3, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "unverified" and result["stop_reason"] == "verifier_rejected"
    finishes = [step for step in result["trajectory"] if step["action"] == "Finish"]
    assert len(finishes) == 3 and all(step["kind"] == "unsupported" for step in finishes)
    told = finishes[0]["observation"]
    assert "not supported" in told and "a label (an organisation)" in told
    assert not result["verdict"]["supported"] and result["verdict"]["grounding"] == "none"
    assert "Don Hall" in result["answer"] and result["answer"] != "Don Hall"
    assert {row["title"] for row in result["evidence"]} == {
        "Big Hero 6 (film)",
        "Never Cry Wolf (film)",
    }


NOMINATED = "What prize did Amy Winehouse's debut album win?"
NOMINATED_REPLIES = [
    "Thought: I need Amy Winehouse's debut album.\nAction: Search[Amy Winehouse]",
    "Thought: The page names Frank and the Mercury Prize.\nAction: Finish[Mercury Prize]",
]


def test_a_prize_the_evidence_only_nominates_for_ends_unverified(tmp_path: Path) -> None:
    # "Winehouse's debut album, "Frank" (2003), ... was nominated for the Mercury Prize."
    script = tmp_path / "nominated.json"
    script.write_text(json.dumps(NOMINATED_REPLIES + NOMINATED_REPLIES[1:] * 2), encoding="utf-8")
    done = run_cli(
        "ask",
        NOMINATED,
        "--model",
        f"scripted:{script}",
        "--db",
        str(tmp_path / "e.sqlite3"),
        "--json",
    )
    assert done.returncode == 3, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "unverified" and result["stop_reason"] == "verifier_rejected"
    assert "denied" in result["verdict"]["reason"]
