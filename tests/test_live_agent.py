"""The agent on the live source, pointed at a local fake of the MediaWiki Action API."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from mediawiki_server import FakeMediaWiki, FakePage

from graph.cli import main
from tools.wikipedia.snapshot import iter_snapshot

QUESTION = "Where was Christopher Nolan born?"
REPLIES = [
    "Thought: Open his article.\nAction: Search[Christopher Edward Nolan]",
    "Thought: The lead gives no birthplace; the early life section should.\n"
    "Action: Lookup[early life]",
    "Thought: He was born in Westminster, London.\nAction: Finish[Westminster, London]",
]


def nolan_page() -> FakePage:
    lead = next("".join(s) for t, s in iter_snapshot() if t == "Christopher Nolan")
    extract = (
        lead + "\n\n\n== Early life ==\nNolan was born in Westminster, London, and grew up in "
        "Highgate. His father was British and his mother American.\n\n\n"
        "== Career ==\nHis first feature was Following (1998)."
    )
    return FakePage("Christopher Nolan", extract)


@pytest.fixture
def wiki(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeMediaWiki]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    with FakeMediaWiki([nolan_page()], {"Christopher Edward Nolan": "Christopher Nolan"}) as server:
        yield server


def ask(wiki: FakeMediaWiki, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    script = tmp_path / "script.json"
    script.write_text(json.dumps(REPLIES))
    code = main(
        [
            "ask",
            QUESTION,
            "--model",
            f"scripted:{script}",
            "--db",
            str(tmp_path / "episodes.sqlite3"),
            "--source",
            "live",
            "--wiki-api-url",
            wiki.url,
            "--json",
        ]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 0, result
    return result


def test_live_episode_follows_the_redirect_finds_the_section_and_verifies(
    wiki: FakeMediaWiki, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = ask(wiki, tmp_path, capsys)
    search, lookup = result["trajectory"][0], result["trajectory"][1]
    assert '"Christopher Edward Nolan" redirects to "Christopher Nolan".' in search["observation"]
    assert lookup["observation"].startswith("(Result 1 / ")
    assert "born in Westminster, London" in lookup["observation"]
    assert result["status"] == "verified"
    assert result["evidence"][0]["title"] == "Christopher Nolan"
    assert result["wikipedia"] == {"requests": wiki.request_count(), "cache_hits": 1}
    assert wiki.request_count() == 1


def test_a_second_episode_is_served_from_the_cache(
    wiki: FakeMediaWiki, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ask(wiki, tmp_path, capsys)
    before = wiki.request_count()
    again = ask(wiki, tmp_path, capsys)
    assert wiki.request_count() == before
    assert again["wikipedia"] == {"requests": 0, "cache_hits": 2}
