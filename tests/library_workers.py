"""Worker processes that race on one library database, for the concurrency tests.

Each worker is a real process (`python tests/library_workers.py`) that reads
one JSON task per line: it prepares (imports done, and for `reserve` its
backend built and its pool warm), prints `ready`, waits for `go`, runs the
task and prints its result as JSON. `WorkerPool.race` hands a task to every
worker and says `go` only once all are ready, so the tasks start together.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CLOCK = "2026-09-26T14:03:00"


def prepare(task: dict[str, Any]) -> Any:
    """What the task needs before the race: the backend, for a reservation."""
    if task["op"] == "reserve":
        from tools.library.backend import LibraryBackend

        backend = LibraryBackend(task["location"])
        backend.copy_status(task["copy_id"], task["patron"])
        return backend
    return None


def run(task: dict[str, Any], prepared: Any) -> dict[str, Any]:
    """Run a task: `reserve` a copy, or `ensure` the database (with a given seed file)."""
    if task["op"] == "reserve":
        result = prepared.reserve(
            task["copy_id"], task["patron"], task["key"], CLOCK, task["thread"], 1, actor="race"
        )
        return {"outcome": result.outcome, "reason": result.reason}
    if task["op"] == "ensure":
        from tools.library.db import ensure_database

        ensure_database(task["location"], Path(task["seed_file"]))
        return {"outcome": "ensured"}
    raise ValueError(f"unknown task {task['op']!r}")


def main() -> None:
    """Serve tasks from stdin until it closes."""
    sys.path.insert(0, str(ROOT))
    import tools.library.backend  # noqa: F401  (imports are not part of the race)

    for line in sys.stdin:
        task = json.loads(line)
        try:
            prepared = prepare(task)
        except Exception as error:
            print(json.dumps({"outcome": "error", "reason": f"{type(error).__name__}: {error}"}))
            sys.stdout.flush()
            continue
        print("ready", flush=True)
        sys.stdin.readline()
        try:
            reply = run(task, prepared)
        except Exception as error:
            reply = {"outcome": "error", "reason": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


class WorkerPool:
    """`size` worker processes, started once and given one task each per race."""

    def __init__(self, size: int) -> None:
        self.workers = [
            subprocess.Popen(
                [sys.executable, __file__],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                cwd=ROOT,
            )
            for _ in range(size)
        ]

    def race(self, tasks: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Give task i to worker i, start them together once all are ready; their results."""
        assert len(tasks) == len(self.workers)
        for worker, task in zip(self.workers, tasks, strict=True):
            assert worker.stdin is not None
            worker.stdin.write(json.dumps(task) + "\n")
            worker.stdin.flush()
        early: dict[int, dict[str, Any]] = {}
        for number, worker in enumerate(self.workers):
            assert worker.stdout is not None
            line = worker.stdout.readline().strip()
            if line != "ready":
                early[number] = json.loads(line) if line else {"outcome": "died"}
        for number, worker in enumerate(self.workers):
            if number not in early:
                assert worker.stdin is not None
                worker.stdin.write("go\n")
                worker.stdin.flush()
        results = []
        for number, worker in enumerate(self.workers):
            assert worker.stdout is not None
            line = "" if number in early else worker.stdout.readline().strip()
            results.append(early.get(number) or (json.loads(line) if line else {"outcome": "died"}))
        return results

    def close(self) -> None:
        """End the workers (closing their stdin) and wait for them."""
        for worker in self.workers:
            assert worker.stdin is not None
            worker.stdin.close()
        for worker in self.workers:
            worker.wait(timeout=30)


if __name__ == "__main__":
    main()
