"""The offline snapshot source and the Wikipedia environment's Search and observations."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from graph.settings.context import WikipediaContext
from graph.verifier import verify_answer
from tools.base import ExecContext
from tools.dbfiles import DatabaseFileError
from tools.wikipedia.environment import WikipediaEnvironment
from tools.wikipedia.snapshot import SnapshotSource, normalize_title, shared_snapshot


def exec_context(**settings: Any) -> ExecContext:
    return ExecContext(
        settings=WikipediaContext(**settings),
        env_state={},
        thread_id="t",
        step_index=1,
        idempotency_key="t:1",
    )


@pytest.mark.parametrize(
    "asked",
    ["Christopher Nolan", "christopher nolan", "Christopher_Nolan", "  CHRISTOPHER   NOLAN "],
)
def test_search_matches_titles_after_normalisation(asked: str) -> None:
    result = shared_snapshot().fetch(asked)
    assert result.page is not None and result.page.title == "Christopher Nolan"


def test_titles_with_html_entities_match_either_spelling() -> None:
    source = shared_snapshot()
    escaped = next(t for t in source.titles() if "&" in t)
    assert source.fetch(escaped).page is not None
    assert source.fetch(escaped.replace("&", "&amp;")).page is not None
    assert normalize_title("A&amp;B") == normalize_title("a&b")


def test_a_missing_title_lists_similar_ones_and_opens_nothing() -> None:
    env = WikipediaEnvironment(shared_snapshot(), checker=verify_answer)
    outcome = env.execute("Search", {"title": "Adam Clayton Powell"}, exec_context())
    assert outcome.observation.startswith("Could not find [Adam Clayton Powell]. Similar: [")
    assert "'Adam Clayton Powell (film)'" in outcome.observation
    assert outcome.env_update == {"page": None, "lookup": {}}
    assert outcome.evidence == []


def test_search_shows_five_sentences_as_evidence_with_their_indexes() -> None:
    env = WikipediaEnvironment(shared_snapshot(), checker=verify_answer)
    outcome = env.execute("Search", {"title": "The Prestige (film)"}, exec_context())
    assert [e["source"]["sentence_index"] for e in outcome.evidence] == [0, 1, 2, 3, 4]
    assert all(e["source"]["title"] == "The Prestige (film)" for e in outcome.evidence)


def test_long_observations_are_cut_with_a_marker() -> None:
    env = WikipediaEnvironment(shared_snapshot(), checker=verify_answer)
    outcome = env.execute(
        "Search", {"title": "The Prestige (film)"}, exec_context(observation_chars=120)
    )
    assert len(outcome.observation) == 120
    assert outcome.observation.endswith(" [truncated]")


def test_lookup_without_an_open_page_says_what_to_do() -> None:
    env = WikipediaEnvironment(shared_snapshot(), checker=verify_answer)
    outcome = env.execute("Lookup", {"keyword": "born"}, exec_context())
    assert outcome.observation == "No page is open. Use Search[title] before Lookup[keyword]."


def write_snapshot(path: Path, articles: dict[str, list[str]]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for title, sentences in articles.items():
            handle.write(json.dumps({"title": title, "sentences": sentences}) + "\n")


def test_the_index_is_rebuilt_when_the_data_changes(tmp_path: Path) -> None:
    data, index = tmp_path / "snapshot.jsonl.gz", tmp_path / "index.sqlite3"
    write_snapshot(data, {"Alpha": ["Alpha is a letter."]})
    assert SnapshotSource(data, index).page("Alpha") is not None
    write_snapshot(data, {"Beta": ["Beta follows alpha."]})
    rebuilt = SnapshotSource(data, index)
    assert rebuilt.page("Alpha") is None
    assert rebuilt.page("Beta") is not None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.sqlite3", "snapshot.jsonl.gz"]


def test_an_index_path_that_is_a_directory_is_refused_before_building(tmp_path: Path) -> None:
    data, index = tmp_path / "snapshot.jsonl.gz", tmp_path / "index.sqlite3"
    write_snapshot(data, {"Alpha": ["Alpha is a letter."]})
    index.mkdir()
    with pytest.raises(DatabaseFileError, match=r"index\.sqlite3 is a directory, not a Wikipedia"):
        SnapshotSource(data, index)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.sqlite3", "snapshot.jsonl.gz"]
