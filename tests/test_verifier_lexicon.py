"""The name lexicon kept in a cache file: built once per snapshot (and reading code), it
answers as the in-memory lexicon does, says what it is, and a wrong file is refused."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

import pytest

from graph.verifier.kinds.lexicon import Lexicon
from graph.verifier.kinds.lexicon_store import (
    StoredLexicon,
    build_lexicon_file,
    lexicon_fingerprint,
    stored_lexicon,
)
from tools.dbfiles import NAME_LEXICON, DatabaseFileError, read_app_id
from tools.wikipedia.snapshot import iter_snapshot

PAGES = [
    ("Lolita (1962 film)", ["Lolita is a 1962 black-and-white film directed by Stanley Kubrick."]),
    ("Lolita", ["Lolita is a 1955 novel written by Russian-American novelist Vladimir Nabokov."]),
    ("Stanley Kubrick", ["Stanley Kubrick (1928 – 1999) was an American film director."]),
    ("Stanley Baker", ["Sir William Stanley Baker (1928 – 1976) was a Welsh actor."]),
    ("Walt Disney Pictures", ["Walt Disney Pictures is an American film studio."]),
]


@pytest.fixture
def snapshot_file(tmp_path: Path) -> Path:
    path = tmp_path / "pages.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for title, sentences in PAGES:
            handle.write(json.dumps({"title": title, "sentences": sentences}) + "\n")
    return path


def test_the_stored_lexicon_answers_as_the_built_one(snapshot_file: Path, tmp_path: Path) -> None:
    path = tmp_path / "lexicon.sqlite3"
    build_lexicon_file(snapshot_file, path)
    stored, built = StoredLexicon(path), Lexicon(iter_snapshot(snapshot_file))
    for name in ("Lolita", "lolita", "Stanley Kubrick", "Walt Disney Pictures", "Nobody Here"):
        assert list(stored.describe(name)) == built.describe(name)
    assert "1962 film" in stored.describe("Lolita")
    assert stored.given_names == built.given_names == frozenset({"stanley"})
    assert stored.guess("Stanley Tucci") == built.guess("Stanley Tucci") is not None
    assert read_app_id(path)[0] == NAME_LEXICON.app_id


def test_it_is_built_once_per_snapshot_content(
    snapshot_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = stored_lexicon(snapshot_file)
    built_at = first.path.stat().st_mtime_ns
    assert lexicon_fingerprint(snapshot_file) in first.path.name
    stored_lexicon.cache_clear()
    again = stored_lexicon(snapshot_file)
    assert again.path == first.path and again.path.stat().st_mtime_ns == built_at
    assert list(again.describe("Stanley Kubrick")) == [PAGES[2][1][0]]


@pytest.mark.parametrize("damage", ["truncated", "garbage"])
def test_a_damaged_cache_file_is_built_again(
    snapshot_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    stored_lexicon.cache_clear()
    path = stored_lexicon(snapshot_file).path
    if damage == "truncated":  # the header says what it is; the tables are gone
        with path.open("r+b") as handle:
            handle.truncate(path.stat().st_size // 2)
    else:
        path.write_bytes(b"\x00garbage" * 1000)
    stored_lexicon.cache_clear()
    again = stored_lexicon(snapshot_file)
    assert list(again.describe("Stanley Kubrick")) == [PAGES[2][1][0]]
    assert read_app_id(again.path)[0] == NAME_LEXICON.app_id
    stored_lexicon.cache_clear()


def test_a_file_of_another_kind_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE checkpoints (id INTEGER)")
    conn.execute("CREATE TABLE writes (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseFileError, match="is a checkpoint database, not a name lexicon"):
        StoredLexicon(other)
