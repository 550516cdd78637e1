"""How the verifier bench times its calls.

A shared machine's other work lands in whichever call runs when it happens, and so does
a collection of the harness's own objects. The bench therefore moves its data (cases,
pages, lexicon, combiner) out of the collector's reach while it times, and times every
case in several runs, the verifier's caches emptied before each, so that each run meets
the same cold and warm calls; a case's figure is its fastest call (as `timeit` advises:
the slower ones measure the machine, not the code). The first run's own figures are
reported beside them.
"""

from __future__ import annotations

import contextlib
import gc
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from graph.verifier.caches import verifier_caches

DEFAULT_RUNS = 3


@contextlib.contextmanager
def harness_frozen() -> Iterator[None]:
    """The harness's objects set aside from cyclic collection while calls are timed: a
    collection inside a call scans what the verifier made, not the bench's data (the
    verifier's own allocations still trigger collections, timed with the call)."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def empty_caches() -> None:
    """Empty every cache of the verifier and the compiled patterns `re` keeps, so that a
    run starts cold."""
    for cache in verifier_caches().values():
        cache.cache_clear()
    re.purge()


def fastest_calls(
    cases: Sequence[Any],
    call: Callable[[Any], object],
    first: Sequence[float],
    runs: int,
    progress: Callable[[Sequence[Any], str], Iterable[Any]] = lambda cases, _: cases,
) -> list[float]:
    """Each case's fastest call over `runs` runs in bench order, `first` being the times
    of a run already made from empty caches (`progress` wraps each run's cases)."""
    fastest = list(first)
    for run in range(2, runs + 1):
        empty_caches()
        with harness_frozen():
            for index, case in enumerate(progress(cases, f"timing run {run}/{runs}")):
                started = time.perf_counter()
                call(case)
                fastest[index] = min(fastest[index], time.perf_counter() - started)
    return fastest
