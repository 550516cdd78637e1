"""The snapshot's name lexicon, kept in an SQLite cache file beside the snapshot index.

Built once (about three seconds) from the snapshot's leads, then read by every
process in tens of milliseconds on its first lookup, after which a lookup is a
dict's. The
file's name carries a fingerprint of the snapshot's content and of the code
that reads descriptions, so a changed snapshot or reading builds a new file,
and processes of different versions never rebuild each other's. It is written
aside and moved into place atomically, and says what it is (`NAME_LEXICON`).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from platformdirs import user_cache_dir

from graph.verifier.kinds import answer_types, descriptions, lexicon
from graph.verifier.kinds.lexicon import Lexicon, guess_person, name_key
from graph.verifier.text import categories
from tools.dbfiles import NAME_LEXICON, DatabaseFileError, check_file, claim
from tools.wikipedia.snapshot import SNAPSHOT_FILE, content_digest, iter_snapshot

LEXICON_FORMAT = "1"
# The modules whose reading of descriptions the stored lexicon depends on.
_READERS = (answer_types, descriptions, categories, lexicon)
_DESCRIBED_CACHE = 16384


def lexicon_fingerprint(data_file: Path) -> str:
    """The format, a hash of the snapshot's content and one of the reading code."""
    data = content_digest(Path(data_file))
    code = hashlib.sha256()
    for module in _READERS:
        code.update(Path(str(module.__file__)).read_bytes())
    return f"{LEXICON_FORMAT}-{data}-{code.hexdigest()[:8]}"


def default_lexicon_path(fingerprint: str) -> Path:
    return Path(user_cache_dir("react-evidence-agent")) / f"name_lexicon-{fingerprint}.sqlite3"


def build_lexicon_file(data_file: Path, path: Path) -> None:
    """Build the lexicon from the snapshot into a private file, then move it into place."""
    check_file(path, NAME_LEXICON, create=True)
    built = Lexicon(iter_snapshot(data_file))
    building = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    building.unlink(missing_ok=True)
    conn = sqlite3.connect(building)
    try:
        with conn:
            claim(conn, NAME_LEXICON)
            conn.execute("CREATE TABLE names (key TEXT PRIMARY KEY, descriptions TEXT)")
            conn.execute("CREATE TABLE given_names (name TEXT PRIMARY KEY)")
            conn.executemany(
                "INSERT INTO names VALUES (?, ?)",
                ((key, json.dumps(found)) for key, found in built.items() if found),
            )
            conn.executemany(
                "INSERT INTO given_names VALUES (?)", ((name,) for name in built.given_names)
            )
    finally:
        conn.close()
    os.replace(building, path)


class StoredLexicon:
    """A `NameLexicon` answered from the cache file: its rows are read once, on the first
    lookup (about 15,000 short rows, tens of milliseconds), then each lookup is a dict's."""

    def __init__(self, path: Path) -> None:
        self.path = check_file(path, NAME_LEXICON, create=False)
        self._lock = threading.Lock()
        self._rows: dict[str, str] | None = None
        self._given = frozenset[str]()
        self._described = lru_cache(maxsize=_DESCRIBED_CACHE)(self._lookup)

    def _load(self) -> dict[str, str]:
        rows = self._rows  # set last, once loaded: read without the lock from then on
        if rows is not None:
            return rows
        with self._lock:
            if self._rows is None:
                conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
                try:
                    rows = dict(conn.execute("SELECT key, descriptions FROM names"))
                    given = conn.execute("SELECT name FROM given_names").fetchall()
                finally:
                    conn.close()
                self._given = frozenset(str(name) for (name,) in given)
                self._rows = rows
            return self._rows

    def loaded(self) -> StoredLexicon:
        """The lexicon with its rows read (`sqlite3.DatabaseError` if the file is damaged)."""
        self._load()
        return self

    def _lookup(self, key: str) -> tuple[str, ...]:
        found = self._load().get(key)
        return tuple(json.loads(found)) if found else ()

    def describe(self, name: str) -> Sequence[str]:
        """What the articles titled `name` say it is, or ()."""
        return self._described(name_key(name))

    @property
    def given_names(self) -> frozenset[str]:
        """The words that open mostly people's titles."""
        self._load()
        return self._given

    def guess(self, name: str) -> str | None:
        return guess_person(name, self.given_names)


@lru_cache(maxsize=2)
def stored_lexicon(data_file: Path = SNAPSHOT_FILE) -> StoredLexicon:
    """The snapshot's lexicon for this process, built into the cache on first use and
    read at once; a cache file found damaged (cut short by a crash or a full disk, or
    overwritten) is built again instead of failing every episode that verifies a name."""
    path = default_lexicon_path(lexicon_fingerprint(data_file))
    if not path.exists():
        build_lexicon_file(data_file, path)
    try:
        return StoredLexicon(path).loaded()
    except (DatabaseFileError, sqlite3.DatabaseError):
        if not path.is_file():
            raise
    path.unlink(missing_ok=True)
    build_lexicon_file(data_file, path)
    return StoredLexicon(path).loaded()


def snapshot_lexicon(data_file: Path = SNAPSHOT_FILE) -> StoredLexicon:
    """The snapshot's lexicon (see `stored_lexicon`)."""
    return stored_lexicon(data_file)


class LazyLexicon:
    """The snapshot lexicon, opened on its first use (so a process that never verifies
    a named answer never opens it)."""

    def describe(self, name: str) -> Sequence[str]:
        return stored_lexicon().describe(name)

    def guess(self, name: str) -> str | None:
        return stored_lexicon().guess(name)


def shared_lexicon() -> LazyLexicon:
    """The lexicon the Wikipedia agent verifies with, whatever its source (live pages would
    cost a request per name; the snapshot's 15k leads cost none)."""
    return LazyLexicon()
