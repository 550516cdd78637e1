"""`bench qa --workers N`: N local processes take the pending episodes from one queue.

Each process builds its own `QABench` from the run's config (so its own
models, and its own connection to the checkpoint store of `--db`, which all
of them share) and runs one episode at a time; the parent hands out the
episodes in order, appends each finished one to `episodes.jsonl` as it comes
back and shows the progress. A run stopped anywhere resumes: the log skips
what finished, and the store resumes what was half-way (`graph.evaluation.stored`).
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from graph.evaluation.config import BenchConfig
from graph.evaluation.harness import QABench
from graph.evaluation.stored import open_store

_BENCH: QABench | None = None


def start_worker(config: BenchConfig) -> None:
    """A worker process's own bench, built once when the process starts."""
    global _BENCH
    _BENCH = QABench(config, progress=False)


def run_in_worker(task: Any) -> dict[str, Any]:
    """One episode in this worker process: its record, for the parent to log."""
    if _BENCH is None:
        raise RuntimeError("run_in_worker called outside a worker started by start_worker")
    return _BENCH.run_task(task)


def worker_pool(config: BenchConfig) -> ProcessPoolExecutor:
    """`config.workers` processes (forked where the platform can, else spawned), once the
    store exists: made here, not by N processes at once (a new PostgreSQL database set up
    by several at the same time deadlocks)."""
    with open_store(config.db):
        pass
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    return ProcessPoolExecutor(
        max_workers=config.workers,
        mp_context=multiprocessing.get_context(method),
        initializer=start_worker,
        initargs=(config,),
    )
