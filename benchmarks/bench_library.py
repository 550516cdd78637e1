"""How long a library episode's backend calls take.

Run with `python benchmarks/bench_library.py [--episodes N] [--rounds R]
[--postgres URL] [--baseline SRC]`. One episode is the backend calls of the
seed trajectory (7 reads: search the catalogue, two copy statuses, a branch's
hours by its alias, a walk between two aliases), then 3 writes: a proposal and
a decision in the audit log and a reservation with its `executed` row (after
the first episode, a refusal: the copy is on hold), on its own thread and
idempotency key. Each round runs in a fresh process on a fresh SQLite file
(or a fresh PostgreSQL database with `--postgres`, which must allow creating
databases), builds the backend once, then times the episodes.

`--baseline SRC` also runs every round with the `tools` package found in SRC
(e.g. an export of main: `git archive main tools graph | tar -x -C SRC`),
alternating with this checkout's rounds, and prints the ratio of the medians.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCE_VARIABLE = "BENCH_LIBRARY_SRC"
CLOCK = "2026-09-26T14:03:00"
READS, WRITES = 7, 3
ROW = "{label:<10} {episode_ms:>12.2f} {read_ms:>12.3f} {write_ms:>12.3f} {setup_ms:>10.1f}"
HEADER = f"{'code':<10} {'ms/episode':>12} {'ms/read':>12} {'ms/write':>12} {'setup ms':>10}"


def one_episode(backend: Any, number: int) -> tuple[float, float]:
    """The backend calls of one episode: seconds spent in its 7 reads and its 3 writes."""
    thread = f"bench-{number}"
    started = time.perf_counter()
    backend.search_catalog("数据库入门图解")
    backend.copy_status("E17", "P1001")
    backend.copy_status("W22", "P1001")
    branch = backend.resolve_place("西馆")
    backend.open_hours(branch.place_id, "2026-09-26")
    origin = backend.resolve_place("东校区")
    backend.walk_minutes(origin.place_id, branch.place_id)
    reads = time.perf_counter() - started
    proposal = {"action": "reserve_copy", "args": {"copy_id": "W22"}}
    common = {"thread_id": thread, "step_index": 6, "patron": "P1001", "clock": CLOCK}
    started = time.perf_counter()
    backend.record_event("proposed", request_id="r", actor="bench", detail=proposal, **common)
    backend.record_event(
        "decision", request_id="r", actor="bench", detail={"type": "approve"}, **common
    )
    backend.reserve("W22", "P1001", f"{thread}:6", CLOCK, thread, 6, request_id="r", actor="bench")
    return reads, time.perf_counter() - started


def measure(location: str, episodes: int) -> dict[str, float]:
    """Time the backend's construction and `episodes` episodes (in this process)."""
    sys.path.insert(0, os.environ.get(SOURCE_VARIABLE) or str(ROOT))
    from tools.library.backend import LibraryBackend

    started = time.perf_counter()
    backend = LibraryBackend(location)
    setup = time.perf_counter() - started
    one_episode(backend, -1)
    reads = writes = 0.0
    for number in range(episodes):
        read_s, write_s = one_episode(backend, number)
        reads, writes = reads + read_s, writes + write_s
    return {
        "setup_ms": setup * 1000,
        "episode_ms": (reads + writes) * 1000 / episodes,
        "read_ms": reads * 1000 / (episodes * READS),
        "write_ms": writes * 1000 / (episodes * WRITES),
    }


def fresh_location(postgres: str, scratch: Path) -> str:
    """A new SQLite file in `scratch`, or a new database on the PostgreSQL server."""
    if not postgres:
        return str(scratch / f"library-{uuid.uuid4().hex[:8]}.sqlite3")
    import psycopg

    name = f"bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(postgres, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return postgres.rsplit("/", 1)[0] + f"/{name}"


def run_round(source: str, location: str, episodes: int) -> dict[str, float]:
    """One round in a fresh process with the `tools` package of `source`."""
    env = {**os.environ, SOURCE_VARIABLE: source}
    command = [sys.executable, __file__, "--measure", location, "--episodes", str(episodes)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", default="", help="a PostgreSQL server URL to run on")
    parser.add_argument("--baseline", default="", help="a source tree to compare with")
    parser.add_argument("--measure", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.episodes)))
        return
    sources = {"this": str(ROOT)} | ({"baseline": args.baseline} if args.baseline else {})
    results: dict[str, list[dict[str, float]]] = {label: [] for label in sources}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.rounds):
            for label, source in sources.items():
                location = fresh_location(args.postgres, Path(scratch))
                results[label].append(run_round(source, location, args.episodes))
    database = "PostgreSQL" if args.postgres else "SQLite"
    print(f"{database}: {args.episodes} episodes x {args.rounds} rounds, medians of the rounds")
    print(HEADER)
    medians = {}
    for label, rounds in results.items():
        medians[label] = {key: statistics.median(r[key] for r in rounds) for key in rounds[0]}
        print(ROW.format(label=label, **medians[label]))
    if "baseline" in medians:
        this, baseline = medians["this"], medians["baseline"]
        ratios = ", ".join(
            f"{name} {this[f'{name}_ms'] / baseline[f'{name}_ms']:.2f}"
            for name in ("episode", "read", "write")
        )
        print(f"this / baseline: {ratios}")


if __name__ == "__main__":
    main()
