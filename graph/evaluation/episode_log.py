"""`episodes.jsonl`: the resumable record of a comparison, one JSON line per finished episode.

A run restarted with the same `--out` reads the log and skips the episodes
already there, so no episode is counted twice.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from graph.evaluation.config import BenchError

BAD_LINE = "{path}:{line}: not an episode record ({error}); fix or remove this line"


def episode_key(question_id: str, method: str, seed: int) -> str:
    """The identity of an episode in `episodes.jsonl`."""
    return f"{question_id}|{method}|{seed}"


class EpisodeLog:
    """One JSON line per finished episode, appended atomically.

    Each line is written with one `write` on an append-mode descriptor, under a
    lock. A torn last line (a kill mid-write) is cut off when the log is opened.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> dict[str, dict[str, Any]]:
        """The recorded episodes by key (a later record of a key replaces an earlier one)."""
        if not self.path.exists():
            return {}
        try:
            data = self.path.read_bytes()
        except OSError as error:
            raise BenchError(f"cannot read {self.path}: {error.strerror or error}") from None
        complete = data[: data.rfind(b"\n") + 1]
        if len(complete) < len(data):
            with self.path.open("r+b") as handle:
                handle.truncate(len(complete))
        records: dict[str, dict[str, Any]] = {}
        for number, line in enumerate(complete.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line.decode("utf-8"))
                records[record["key"]] = record
            except (ValueError, KeyError, TypeError) as error:
                message = BAD_LINE.format(path=self.path, line=number, error=error)
                raise BenchError(message) from None
        return records

    def append(self, record: Mapping[str, Any]) -> None:
        """Add one episode as one line."""
        line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8")
        with self._lock:
            handle = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(handle, line)
            finally:
                os.close(handle)
