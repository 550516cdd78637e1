"""Kill, race and resume `react-agent` with real processes; count every inconsistency.

Usage: python benchmarks/bench_reliability.py [--kills 100] [--races 50] [--resumes 20]
       [--jobs 2] [--max-minutes 90] [--seed 7] [--json] [--db postgresql://...]

Everything lives in a temporary directory (checkpoints, library databases,
the snapshot index, the state directory), removed at exit; nothing touches the
network. With `--db URL` (a local PostgreSQL server) the checkpoints and
library databases are PostgreSQL databases instead, one pair per trial,
created on that server and dropped at exit. Models are scripted
(`benchmarks/reliability_model.py`: slow model calls and a slow library write
to place kills), so an episode resumed in another process gets the replies
the first process would have.

- **Kill trials** (`--kills`): an episode is started (even trials Wikipedia, in
  `durability="async"`; odd ones the library, in its default `sync`) with settings
  that differ from the defaults, SIGKILLed at a random point
  (before its first step, inside a model call, while a decision is being
  applied, inside the write), then resumed (with the same decision, if one
  was being applied) until it ends. Counted: lost settings (the stored
  settings, or the patron and library file the write used, differ from what
  was asked), lost or duplicated steps (the trajectory or the number of
  checkpoints differs from an unkilled run's), reservations not matching the
  decisions, audit rows missing (or the log disagreeing with what ran: a write
  run twice or without an approval), steps the resume runs more than once
  more (printed as done by the killed process, not stored), and SQLite files
  that fail `PRAGMA integrity_check`. A
  write killed after its hold was committed is re-run on resume and reports
  the same hold as already made ("Already done ... nothing new was
  reserved"): that step compares equal to the unkilled run's by the hold it
  reports, and such trials are counted apart (they are not inconsistencies).
- **Races** (`--races`): two `resume` processes, `--approve` and `--reject`,
  on one paused thread. Counted: rounds where both decisions were taken, the
  loser did not get one line and exit 2, or the reservation, the trajectory
  and the audit log disagree.
- **Concurrent resumes** (`--resumes`): four `resume` processes on one killed
  thread. Counted: rounds where more than one ran steps, or the trajectory or
  the number of checkpoints differs from an unkilled run's.

Every count must be 0.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from reliability_checks import check_episode, check_kill, comparable, reference
from reliability_world import (
    DECISIONS,
    KINDS,
    LOST_RACE,
    SCENARIOS,
    Bench,
    Scenario,
    audit_has,
    checkpoints,
    episode_args,
    finish_episode,
    kill_after,
    leased,
    library_rows,
    read_state,
    run,
    start,
    wait_until,
)

KILL_POINTS = {
    "wikipedia": ("before the first step", "in a model call"),
    "library-ask": ("before the first step", "in a model call", "during an approval"),
    "library-write": ("before the first step", "in a model call", "in the write"),
}


def kill_points(scenario: Scenario) -> tuple[str, ...]:
    """Where a trial of this scenario may be killed."""
    if scenario.env == "wikipedia":
        return KILL_POINTS["wikipedia"]
    if scenario.decision in ("approve", "edit") or scenario.flags["approvals"] == "auto":
        return (*KILL_POINTS["library-ask"], "in the write")
    return KILL_POINTS["library-ask"] if scenario.decision else KILL_POINTS["library-write"][:2]


def kill_trial(bench: Bench, number: int, rng: random.Random) -> str:
    """One SIGKILL + resume trial; returns where it killed."""
    wanted = "wikipedia" if number % 2 == 0 else "library"
    scenario = rng.choice([s for s in SCENARIOS if s.env == wanted])
    points = kill_points(scenario)
    point = rng.choice([*points, "in the write"] if "in the write" in points else points)
    db, library = bench.databases(f"kill-{number}")
    ask = episode_args(scenario, db, library, "trial")
    write_delay = 0.5 if point == "in the write" else 0.0
    paused_first = scenario.decision and point in ("during an approval", "in the write")
    if paused_first:
        run(ask, bench.env(scenario, 0.0, 0.0))
        args = ["resume", "trial", "--db", db, *DECISIONS[scenario.decision]]
        process = start(args, bench.env(scenario, bench.delay_s, write_delay))
    else:
        delay = 30.0 if point == "before the first step" else bench.delay_s
        process = start(ask, bench.env(scenario, delay, write_delay))
    if point == "in the write":
        library_marker = "executed" if rng.random() < 0.5 else "decision"
        wait_until(lambda: audit_has(library, library_marker), process, 300)
        printed = kill_after(process, 0.0 if library_marker == "executed" else rng.uniform(0, 0.4))
    elif point == "before the first step":
        wait_until(lambda: checkpoints(db, "trial") > 0, process, 300)
        printed = kill_after(process, 0.0)
    else:
        begun = (lambda: leased(db, "trial")) if paused_first else lambda: checkpoints(db, "trial")
        started = wait_until(lambda: bool(begun()), process, 300)
        printed = kill_after(process, rng.uniform(0, 5 * bench.delay_s) if started else 0.0)
    check_kill(bench, printed, db, library, f"kill {number} ({scenario.name}, {point})")
    for problem in finish_episode(bench, scenario, db, "trial"):
        bench.count("lost or duplicated steps", f"kill {number}: {problem}")
    check_episode(bench, scenario, db, library, f"kill {number} ({scenario.name}, {point})")
    return point


def race_round(bench: Bench, number: int, rng: random.Random) -> None:
    """Two processes decide one paused request at once: approve and reject."""
    from graph.episodes.audit import untruths

    scenario = next(s for s in SCENARIOS if s.name == "library-approve")
    db, library = bench.databases(f"race-{number}")
    env = bench.env(scenario, 0.0, 0.0)
    code, _, err = run(episode_args(scenario, db, library, "trial"), env)
    if code != 5:
        bench.count("races", f"race {number}: the episode did not pause ({code}): {err[-200:]}")
        return
    sides = [("approve", DECISIONS["approve"]), ("reject", DECISIONS["reject"])]
    rng.shuffle(sides)
    processes = [
        (name, start(["resume", "trial", "--db", db, *flags], env)) for name, flags in sides
    ]
    outcomes = {name: (p.wait(timeout=600), p.communicate()) for name, p in processes}
    rows, held = library_rows(library, "trial")
    decided = [row["detail"]["type"] for row in rows if row["event"] == "decision"]
    problems = []
    if len(decided) != 1:
        problems.append(f"decisions taken: {decided}")
    else:
        loser = "reject" if decided[0] == "approve" else "approve"
        code, (_, err) = outcomes[loser]
        if code != 2 or len(err.strip().splitlines()) != 1 or "Traceback" in err:
            problems.append(f"the loser exited {code}: {err.strip()[-200:]}")
        if bool(held) != (decided[0] == "approve"):
            problems.append(f"{decided[0]} won but the holds are {held}")
        state = read_state(db, "trial")
        trajectory = (state or {}).get("trajectory", [])
        step: dict[str, Any] = next((s for s in trajectory if s["action"] == "reserve_copy"), {})
        taken = (step.get("decision") or {}).get("type") or ("reject" if step else "")
        if taken != decided[0]:
            problems.append(f"the trajectory took {taken!r}, the audit log {decided[0]!r}")
    problems += untruths(rows, held)
    for problem in problems:
        bench.count("races", f"race {number}: {problem}")


def resumes_round(bench: Bench, number: int, rng: random.Random) -> None:
    """Four processes resume one killed thread at once."""
    scenario = rng.choice([s for s in SCENARIOS if s.name in ("wikipedia", "library-auto")])
    db, library = bench.databases(f"resumes-{number}")
    process = start(
        episode_args(scenario, db, library, "trial"), bench.env(scenario, bench.delay_s, 0.0)
    )
    target = rng.randint(3, 9)
    wait_until(lambda: checkpoints(db, "trial") >= target, process, 300)
    kill_after(process, 0.0)
    env = bench.env(scenario, bench.delay_s, 0.0)
    racers = [start(["resume", "trial", "--db", db], env) for _ in range(4)]
    results = [(p.wait(timeout=600), p.communicate()[1]) for p in racers]
    ran = [code for code, err in results if code != 2 or LOST_RACE not in err]
    finished = [err for code, err in results if code == 2 and "already ended" in err]
    if len(ran) - len(finished) > 1:
        bench.count("concurrent resumes", f"round {number}: {len(ran)} ran: {results}")
    expected = bench.references[scenario.name]
    state = read_state(db, "trial")
    if state is None or comparable(state) != comparable(expected):
        bench.count("concurrent resumes", f"round {number}: the trajectory differs")
    elif state["checkpoints"] != expected["checkpoints"]:
        bench.count(
            "concurrent resumes",
            f"round {number}: {state['checkpoints']} checkpoints, not {expected['checkpoints']}",
        )


def parallel(jobs: int, count: int, work: Callable[[int], Any], deadline: float) -> int:
    """Run `work(0..count-1)` on `jobs` threads, starting none past `deadline`; how many ran."""
    started = Counter[str]()

    def one(number: int) -> None:
        if time.monotonic() > deadline:
            return
        started["n"] += 1
        work(number)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, range(count)))
    return started["n"]


def main() -> None:
    """Run the three parts and print every count."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--races", type=int, default=50)
    parser.add_argument("--resumes", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2, help="trials run at once")
    parser.add_argument("--delay", type=float, default=0.4, help="seconds per model call")
    parser.add_argument("--max-minutes", type=float, default=90.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--db",
        default="",
        metavar="URL",
        help="a PostgreSQL server (postgresql://user@host:port/db): every trial's checkpoints "
        "and library go into databases of their own there, created and dropped by the bench "
        "(default: SQLite files)",
    )
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="bench-reliability-"))
    bench = Bench(root, args.delay, args.db)
    try:
        began = time.monotonic()
        deadline = began + args.max_minutes * 60
        for scenario in SCENARIOS:
            bench.references[scenario.name] = reference(bench, scenario)
        points: Counter[str] = Counter()
        envs: Counter[str] = Counter()
        lock = threading.Lock()

        def kill(number: int) -> None:
            point = kill_trial(bench, number, random.Random(args.seed * 1000 + number))
            with lock:
                points[point] += 1
                envs["wikipedia (async)" if number % 2 == 0 else "library (sync)"] += 1

        kills = parallel(args.jobs, args.kills, kill, deadline)
        races = parallel(
            args.jobs, args.races, lambda n: race_round(bench, n, random.Random(n)), deadline
        )
        resumes = parallel(
            1, args.resumes, lambda n: resumes_round(bench, n, random.Random(n)), deadline
        )
        report = {
            "kill_trials": kills,
            "kill_points": dict(points),
            "kill_trials_by_env": dict(envs),
            **{kind: bench.counts[kind] for kind in KINDS},
            "trials whose last step is run again (async: its save had not finished)": (
                bench.counts["last step repeated"]
            ),
            "writes re-run after a kill inside them (same hold, reported as already made)": (
                bench.counts["replayed writes"]
            ),
            "race_rounds": races,
            "race_inconsistencies": bench.counts["races"],
            "concurrent_resume_rounds": resumes,
            "concurrent_resume_inconsistencies": bench.counts["concurrent resumes"],
            "seconds": round(time.monotonic() - began, 1),
        }
        if args.json:
            print(json.dumps(report | {"notes": bench.notes}, ensure_ascii=False, indent=1))
        else:
            for key, value in report.items():
                print(f"{key}: {value}")
            for note in bench.notes:
                print(f"  {note}")
    finally:
        bench.drop_databases()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
