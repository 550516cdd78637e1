"""The offline Wikipedia: HotpotQA's lead paragraphs, indexed in SQLite FTS5.

The index is built on first use into a cache file and rebuilt when the data
file changes (its size and modification time are recorded in the index). The
file says what it is (`tools.dbfiles.SNAPSHOT_INDEX`): a database of another
kind at its path is refused, never overwritten, and a cache directory that
cannot be written is reported in one line naming it.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import os
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from platformdirs import user_cache_dir

from tools.dbfiles import (
    SNAPSHOT_INDEX,
    DatabaseFileError,
    check_file,
    claim,
    describe_error,
    kind_of_file,
)
from tools.wikipedia.base import FetchResult, Page

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
SNAPSHOT_FILE = DATA_DIR / "wiki_snapshot.jsonl.gz"
INDEX_VERSION = "1"
SIMILAR_LIMIT = 5
RECENT_PAGES = 64

_WORD = re.compile(r"\w+", re.UNICODE)


def normalize_title(title: str) -> str:
    """Fold a title for exact matching: entities, case, underscores, spaces."""
    text = html.unescape(title).replace("_", " ")
    return " ".join(text.split()).casefold()


def iter_snapshot(path: Path = SNAPSHOT_FILE) -> Iterator[tuple[str, list[str]]]:
    """Yield `(title, sentences)` for every article of a snapshot file."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                yield record["title"], record["sentences"]


def _stored_fingerprint(index_file: Path) -> str | None:
    """The fingerprint an index file was built for, or None if it is absent or unreadable."""
    if not index_file.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{index_file}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None
    return str(row[0]) if row else None


def content_digest(path: Path) -> str:
    """A hash of a file's content, computed once per process while the file is unchanged."""
    stat = path.stat()
    return _digest(str(path.resolve()), stat.st_size, stat.st_mtime_ns)


@lru_cache(maxsize=8)
def _digest(path: str, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def default_index_path() -> Path:
    """Where the FTS index lives unless the caller chooses."""
    return Path(user_cache_dir("react-evidence-agent")) / "wiki_snapshot_index.sqlite3"


class SnapshotSource:
    """A `WikiSource` backed by the offline snapshot."""

    name = "snapshot"

    def __init__(self, data_file: Path = SNAPSHOT_FILE, index_file: Path | None = None) -> None:
        self.data_file = Path(data_file)
        self.index_file = Path(index_file) if index_file else default_index_path()
        self._lock = threading.Lock()
        self._conn = self._open_index()
        self._recent: OrderedDict[str, Page | None] = OrderedDict()

    def _fingerprint(self) -> str:
        """The index format and a hash of the data's content (not its mtime, which
        differs between checkouts of the same file)."""
        return f"{INDEX_VERSION}:{content_digest(self.data_file)}"

    def _open_index(self) -> sqlite3.Connection:
        fingerprint = self._fingerprint()
        if _stored_fingerprint(self.index_file) != fingerprint:
            other = kind_of_file(self.index_file)
            if other is not None and other is not SNAPSHOT_INDEX:
                raise DatabaseFileError(
                    f"{self.index_file} is a {other.label}, not a {SNAPSHOT_INDEX.label}"
                )
            if not self.index_file.is_file():  # missing, or a directory or device
                check_file(self.index_file, SNAPSHOT_INDEX, create=True)
            private = f"{os.getpid()}.{threading.get_ident()}.tmp"  # threads build at once too
            building = self.index_file.with_name(f"{self.index_file.name}.{private}")
            building.unlink(missing_ok=True)
            try:
                self._build(fingerprint, building)
            except sqlite3.Error as error:
                building.unlink(missing_ok=True)
                raise describe_error(self.index_file, SNAPSHOT_INDEX, error) from None
            except OSError as error:  # e.g. a full disk while moving it into place
                building.unlink(missing_ok=True)
                raise DatabaseFileError(
                    f"cannot build the {SNAPSHOT_INDEX.label} {self.index_file}: "
                    f"{error.strerror or error}"
                ) from None
        return sqlite3.connect(f"file:{self.index_file}?mode=ro", uri=True, check_same_thread=False)

    def _build(self, fingerprint: str, building: Path) -> None:
        """Build the index in a private file, then move it into place atomically, so a
        concurrent reader sees either the old index or the new one, never a half-built one."""
        conn = sqlite3.connect(building)
        claim(conn, SNAPSHOT_INDEX)
        with conn:
            conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
            conn.execute(
                "CREATE TABLE pages (id INTEGER PRIMARY KEY, norm_title TEXT UNIQUE,"
                " title TEXT, sentences TEXT)"
            )
            conn.execute(
                "CREATE VIRTUAL TABLE pages_fts USING fts5(title, body,"
                " content='', tokenize='unicode61 remove_diacritics 2')"
            )
            for title, sentences in iter_snapshot(self.data_file):
                clean_title = html.unescape(title)
                cursor = conn.execute(
                    "INSERT OR IGNORE INTO pages (norm_title, title, sentences) VALUES (?, ?, ?)",
                    (normalize_title(title), clean_title, json.dumps(sentences)),
                )
                if cursor.rowcount:
                    conn.execute(
                        "INSERT INTO pages_fts (rowid, title, body) VALUES (?, ?, ?)",
                        (cursor.lastrowid, clean_title, "".join(sentences)),
                    )
            conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('fingerprint', ?)",
                (fingerprint,),
            )
        conn.close()
        for stale in ("-wal", "-shm"):
            self.index_file.with_name(self.index_file.name + stale).unlink(missing_ok=True)
        os.replace(building, self.index_file)

    def page(self, title: str) -> Page | None:
        """The page whose normalised title equals `title`'s, if any (the last
        `RECENT_PAGES` are kept: a Lookup reads the page its Search just opened)."""
        key = normalize_title(title)
        with self._lock:
            if key in self._recent:
                self._recent.move_to_end(key)
                return self._recent[key]
            row = self._conn.execute(
                "SELECT title, sentences FROM pages WHERE norm_title = ?", (key,)
            ).fetchone()
            page = None
            if row is not None:
                sentences = tuple(s.strip() for s in json.loads(row[1]))
                page = Page(title=row[0], sentences=sentences)
            self._recent[key] = page
            if len(self._recent) > RECENT_PAGES:
                self._recent.popitem(last=False)
            return page

    def similar(self, query: str, limit: int = SIMILAR_LIMIT) -> tuple[str, ...]:
        """Titles ranked by full-text relevance to `query` (titles weigh more)."""
        words = _WORD.findall(html.unescape(query))
        if not words:
            return ()
        match = " OR ".join('"' + word.replace('"', "") + '"' for word in words)
        with self._lock:
            rows = self._conn.execute(
                "SELECT p.title FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid"
                " WHERE pages_fts MATCH ? ORDER BY bm25(pages_fts, 10.0, 1.0) LIMIT ?",
                (match, limit),
            ).fetchall()
        return tuple(row[0] for row in rows)

    def fetch(self, title: str) -> FetchResult:
        """Open the exact page, or list similar titles without opening any."""
        page = self.page(title)
        if page is not None:
            return FetchResult(page=page)
        return FetchResult(similar=self.similar(title))

    def titles(self) -> list[str]:
        """Every title in the snapshot."""
        with self._lock:
            return [row[0] for row in self._conn.execute("SELECT title FROM pages ORDER BY id")]


@lru_cache(maxsize=4)
def shared_snapshot(index_file: str | None = None) -> SnapshotSource:
    """One snapshot source per index file and process."""
    return SnapshotSource(index_file=Path(index_file) if index_file else None)
