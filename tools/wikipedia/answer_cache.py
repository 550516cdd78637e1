"""The live source's cache: API answers (JSON-able dicts) in a SQLite file, each dated,
so a repeated fetch, even from a resumed process, costs no request until the answer
is older than its time to live.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from platformdirs import user_cache_dir

from tools.dbfiles import use_wal


def default_cache_path() -> Path:
    """Where live answers are cached unless the caller chooses."""
    return Path(user_cache_dir("react-evidence-agent")) / "wiki_live_cache.sqlite3"


class AnswerCache:
    """API answers (JSON-able dicts) in a SQLite file, each dated; old ones count as absent."""

    def __init__(self, path: Path, ttl_s: float, clock: Callable[[], float]) -> None:
        self.path = Path(path)
        self.ttl_s = ttl_s
        self._clock = clock
        self._lock = threading.Lock()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, check_same_thread=False)
        use_wal(self._conn)
        with self._conn:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS answers"
                " (key TEXT PRIMARY KEY, value TEXT NOT NULL, stored_at REAL NOT NULL)"
            )

    def get(self, key: str) -> dict[str, Any] | None:
        """The answer stored under `key`, unless it is missing or older than the TTL."""
        with self._lock:
            row = self._conn.execute(
                "SELECT value, stored_at FROM answers WHERE key = ?", (key,)
            ).fetchone()
        if row is None or self._clock() - row[1] > self.ttl_s:
            return None
        value: dict[str, Any] = json.loads(row[0])
        return value

    def put(self, key: str, value: Mapping[str, Any]) -> None:
        """Store `value` under `key`, dated now."""
        with self._lock, self._conn:
            self._conn.execute(
                "INSERT OR REPLACE INTO answers (key, value, stored_at) VALUES (?, ?, ?)",
                (key, json.dumps(value, ensure_ascii=False), self._clock()),
            )

    def close(self) -> None:
        """Close the database connection."""
        self._conn.close()
