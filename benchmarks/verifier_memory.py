"""What a long-running process pays for the verifier's caches: memory and collector pauses.

Run with `python benchmarks/verifier_memory.py [--checks 60000] [--every 10000]`. It
checks the verifier benchmark's cases over and over, each time on pages no earlier check
read (every stored sentence gets a word of its own), as a server that answers many
questions does. After every `--every` checks it prints one JSON line: the results the
caches hold, the objects the cyclic collector tracks, the process's resident memory,
and how long one full collection takes (the pause a check pays when one falls on it).
The first line is the baseline; the ratios say how far each figure has grown since. The
caches are bounded (`graph/verifier/text/cache_sizes.py`), so the figures level off
instead of growing with the number of checks.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph.evaluation.hotpot import load_questions  # noqa: E402
from graph.evaluation.verifier_cases import build_cases, pages_of  # noqa: E402
from graph.verifier import verify_answer  # noqa: E402

_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def _resident_mb() -> float:
    """The process's resident memory now (not its peak), in MB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * _PAGE_BYTES / 2**20


def _cached_results() -> int:
    """Results in every cache the verifier made, its lexicon's per-instance one too (so
    found among all objects, not by walking the modules as `verifier_caches` does)."""
    return sum(
        value.cache_info().currsize
        for value in gc.get_objects()
        if isinstance(value, functools._lru_cache_wrapper)
        and value.__module__.startswith("graph.verifier.")
    )


def _figures(checks: int) -> dict[str, Any]:
    started = time.perf_counter()
    gc.collect()
    pause = time.perf_counter() - started
    return {
        "checks": checks,
        "cached_results": _cached_results(),
        "tracked_objects": len(gc.get_objects()),
        "resident_mb": round(_resident_mb(), 1),
        "full_collection_ms": round(1000 * pause, 1),
    }


def _unread(case: dict[str, Any], tag: str) -> list[Any]:
    """The case's evidence with a word no earlier page had in every sentence."""
    return [item | {"text": f"{item['text']} {tag}"} for item in case["evidence"]]


def run(checks: int, every: int) -> list[dict[str, Any]]:
    """Check `checks` times on unread pages, printing the figures every `every` checks."""
    questions = load_questions()
    cases = list(build_cases(questions, pages_of(questions)))
    rng = random.Random(0)
    rows: list[dict[str, Any]] = []
    baseline: dict[str, Any] | None = None
    for done, case in enumerate(itertools.islice(itertools.cycle(cases), checks), start=1):
        tag = f"Zq{rng.getrandbits(40):x}"
        verify_answer(case["question"], case["answer"], _unread(case, tag))
        if done % every and done != checks and done != 1:
            continue
        row = _figures(done)
        baseline = baseline or row
        for key in ("cached_results", "tracked_objects", "resident_mb", "full_collection_ms"):
            row[f"{key}_ratio"] = round(row[key] / max(baseline[key], 1e-9), 2)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--checks", type=int, default=60_000, help="checks to run in all")
    parser.add_argument("--every", type=int, default=10_000, help="checks between two lines")
    args = parser.parse_args(argv)
    if args.checks < 1 or args.every < 1:
        parser.error("--checks and --every must be 1 or more")
    run(args.checks, args.every)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
