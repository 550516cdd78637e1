"""How a benchmark runs its episodes: in this process (threads), in worker processes,
or as runs on a LangGraph server; the harness (`graph.evaluation.harness`) only says
what to run and records what was done."""

from __future__ import annotations

from typing import Any

from graph.evaluation.harness import QABench
from graph.evaluation.scheduler import run_all
from graph.evaluation.server_runs import run_on_server
from graph.evaluation.workers import run_in_worker, worker_pool


def run_pending(bench: QABench) -> int:
    """Run the episodes not yet recorded (or recorded as errors); returns how many."""
    recorded = bench.log.load()
    finished = {key for key, record in recorded.items() if record["status"] != "error"}
    tasks = bench.tasks()
    pending = [task for task in tasks if task.key not in finished]
    done = len(tasks) - len(pending)
    if bench.config.server:
        run_on_server(bench, pending, done)
    elif bench.config.workers:
        pool = worker_pool(bench.config)
        run_all(
            pending, run_in_worker, 0, done, bench.progress, pool=pool, on_result=bench.log.append
        )
    else:
        run_all(pending, bench.run_and_log, bench.config.concurrency, done, bench.progress)
    return len(pending)


def run_bench(bench: QABench) -> dict[str, Any]:
    """Run what is not done yet, then write the summary, report and plots."""
    with bench.output_kept_only_if_used():
        config = bench.prepare()
        run_pending(bench)
    return bench.write_outputs(config)
