"""What `bench_reliability.py` checks a trial against: an unkilled run of its scenario
(`reference`), compared by trajectory (a write re-run after a kill counts as the
reservation it reports), checkpoint count, stored settings, holds and audit log
(ids and times aside).
"""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from reliability_world import (
    DECISIONS,
    MODEL,
    Bench,
    Scenario,
    episode_args,
    library_rows,
    read_state,
    run,
)

REPLAYED = re.compile(
    r"^Already done: this request reserved copy (\w+) for patron (\w+) before "
    r"\(reservation #(\d+), made ([\d:]+)\); nothing new was reserved\.$"
)
PRINTED_STEP = re.compile(r"^Observation (\d+):", re.MULTILINE)
RESERVED = re.compile(
    r"^Reserved: copy (\w+) is now ON HOLD for patron (\w+) \(reservation #(\d+), "
    r"made ([\d:]+)\); .*$"
)


def replayed_write(step: dict[str, Any]) -> bool:
    """Whether a step is a write that a kill interrupted after it was committed: its re-run
    found the request's reservation and said so ("Already done ... nothing new")."""
    return bool(REPLAYED.match(str(step.get("observation", ""))))


def comparable(result: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What two runs of one scenario must share: each step's index, action, kind and
    observation, a write's observation as the reservation it reports (so a write re-run
    after a kill inside it, reporting the same reservation as already made, compares equal
    to the write an unkilled run made)."""
    rows = []
    for step in result["trajectory"]:
        observation = str(step.get("observation", ""))
        found = REPLAYED.match(observation) or RESERVED.match(observation)
        shown = ("reservation", *found.groups()) if found else observation
        rows.append((step.get("index"), step.get("action_text"), step.get("kind"), shown))
    return rows


def audit_shape(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The audit log of one thread without what differs between runs (ids, times)."""
    return [
        (row["event"], row["actor"].split(":")[0], json.dumps(row["detail"], sort_keys=True))
        for row in rows
    ]


def reference(bench: Bench, scenario: Scenario) -> dict[str, Any]:
    """An unkilled run of the scenario, in files of its own."""
    db, library = bench.databases(f"ref-{scenario.name}")
    env = bench.env(scenario, 0.0, 0.0)
    code, _, err = run(episode_args(scenario, db, library, "reference"), env)
    if code == 5:
        code, _, err = run(["resume", "reference", "--db", db, *DECISIONS[scenario.decision]], env)
    state = read_state(db, "reference")
    if state is None or code not in (0, 3, 4):
        raise RuntimeError(f"the reference run of {scenario.name} failed ({code}): {err}")
    if scenario.env == "library":
        rows, held = library_rows(library, "reference")
        state["audit"] = audit_shape(rows)
        state["holds"] = [(r["copy_id"], r["patron_id"]) for r in held]
    return state


def check_episode(bench: Bench, scenario: Scenario, db: str, library: str, label: str) -> None:
    """Count what a finished trial's thread, library and audit log get wrong."""
    from graph.episodes.audit import untruths
    from tools.library.db import reservations

    expected = bench.references[scenario.name]
    state = read_state(db, "trial")
    if state is None:
        bench.count("lost or duplicated steps", f"{label}: no episode")
        return
    if any(replayed_write(step) for step in state["trajectory"]):
        with bench.lock:
            bench.counts["replayed writes"] += 1
    wanted = {key.replace("-", "_"): value for key, value in scenario.flags.items()}
    wanted |= {"env": scenario.env, "model": MODEL}
    if scenario.env == "library":
        wanted["library_db"] = library
    stored = {key: str(state["settings"].get(key)) for key in wanted}
    if stored != wanted:
        bench.count("lost settings", f"{label}: stored {stored}, asked {wanted}")
    if comparable(state) != comparable(expected) or state["status"] != expected["status"]:
        bench.count("lost or duplicated steps", f"{label}: trajectory differs ({state['status']})")
    elif state["checkpoints"] != expected["checkpoints"]:
        bench.count(
            "lost or duplicated steps",
            f"{label}: {state['checkpoints']} checkpoints, not {expected['checkpoints']}",
        )
    if scenario.env != "library":
        return
    default = bench.root / "state" / "react-evidence-agent" / "library.sqlite3"
    if reservations(default):
        bench.count("lost settings", f"{label}: a hold in the default library database")
    rows, held = library_rows(library, "trial")
    if [(r["copy_id"], r["patron_id"]) for r in held] != expected["holds"]:
        bench.count("reservations not matching", f"{label}: holds {held}")
    if untruths(rows, held) or audit_shape(rows) != expected["audit"]:
        bench.count("audit rows", f"{label}: {audit_shape(rows)} {untruths(rows, held)}")


def repeated_steps(printed: str, db: str) -> int:
    """How many steps a killed process printed as done that its thread did not store: the
    steps its resume runs again (each once more)."""
    done = [int(number) for number in PRINTED_STEP.findall(printed)]
    state = read_state(db, "trial")
    stored = len(state["trajectory"]) if state else 0
    return max(0, max(done, default=0) - stored)


def check_kill(bench: Bench, printed: str, db: str, library: str, label: str) -> None:
    """Count a killed trial's steps to be repeated more than once, and SQLite files that are
    not whole (`PRAGMA integrity_check`, after the recovery any reader runs)."""
    repeated = repeated_steps(printed, db)
    if repeated > 1:
        bench.count("steps repeated more than once", f"{label}: {repeated} steps to run again")
    elif repeated:
        with bench.lock:
            bench.counts["last step repeated"] += 1
    for path in (db, library):
        if "://" in path or not Path(path).exists():
            continue
        conn = sqlite3.connect(path, timeout=30)
        try:
            found = conn.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.Error as error:
            found = [(str(error),)]
        finally:
            conn.close()
        if found != [("ok",)]:
            bench.count("corrupt databases", f"{label}: {path}: {found[:3]}")
