"""Running a comparison's episodes: several at once, each retried while rate-limited.

Episodes run on a thread pool (or a given pool: `--workers` uses processes) in
the order given; the first error (or an interrupt) cancels the episodes not yet
started and is raised once the running ones end, so each finished episode has
been logged (by `work`, or by `on_result` as its result comes back).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

from tqdm import tqdm

from graph.evaluation.methods import error_outcome
from graph.evaluation.rate_limits import RateLimited, backoff_delay

GAVE_UP = "rate_limited: gave up after {attempts} attempts: {error}"

Task = TypeVar("Task")


@dataclass(frozen=True)
class Retry:
    """How often and how long to wait while the provider refuses for its rate limit."""

    attempts: int
    backoff_s: float
    max_backoff_s: float


def with_retries(
    call: Callable[[], dict[str, Any]],
    retry: Retry,
    clock: Callable[[], float],
    sleep: Callable[[float], None],
) -> tuple[dict[str, Any], float, int]:
    """`call()` retried with exponential backoff on `RateLimited`: (outcome, latency, retries).

    The latency is that of the attempt that answered (no waits); after the last
    attempt the outcome is an error with latency 0.
    """
    retries = 0
    while True:
        started = clock()
        try:
            return call(), clock() - started, retries
        except RateLimited as error:
            if retries + 1 >= retry.attempts:
                gave_up = GAVE_UP.format(attempts=retries + 1, error=error)
                return error_outcome(gave_up), 0.0, retries
            sleep(backoff_delay(retries, retry.backoff_s, retry.max_backoff_s, error.retry_after))
        retries += 1


def run_all(
    tasks: Sequence[Task],
    work: Callable[[Task], Any],
    concurrency: int,
    done: int = 0,
    progress: bool = True,
    *,
    pool: Executor | None = None,
    on_result: Callable[[Any], None] | None = None,
) -> None:
    """`work(task)` for every task, `concurrency` at a time on threads (or on `pool`), with
    a progress bar from `done`; `on_result` gets each result here, as it comes."""
    with (
        tqdm(
            total=done + len(tasks),
            initial=done,
            desc="bench qa",
            unit="episode",
            file=sys.stderr,
            disable=not progress,
            dynamic_ncols=True,
        ) as bar,
        pool or ThreadPoolExecutor(max_workers=concurrency) as executor,
    ):
        futures = [executor.submit(work, task) for task in tasks]
        try:
            for future in as_completed(futures):
                result = future.result()
                if on_result is not None:
                    on_result(result)
                bar.update(1)
        except BaseException:
            executor.shutdown(cancel_futures=True)
            raise
