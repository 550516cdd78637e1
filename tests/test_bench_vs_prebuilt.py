"""`benchmarks/bench_vs_prebuilt.py` runs every member it reports and prints the issue's JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_vs_prebuilt.py"
ROW_KEYS = {
    "steps",
    "saver",
    "mode",
    "project_ms_per_step",
    "anchor_ms_per_step",
    "ratio",
    "project_bytes_per_step",
    "anchor_bytes_per_step",
}


def test_a_short_run_prints_every_saver_and_mode_with_both_floors() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--steps", "3", "--reps", "1", "--json", "--floor"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["results"]
    assert [(row["steps"], row["saver"], row["mode"]) for row in rows] == [
        (3, "none", "default"),
        (3, "memory", "default"),
        (3, "memory", "sync"),
        (3, "sqlite", "default"),
        (3, "sqlite", "sync"),
    ]
    for row in rows:
        assert row.keys() >= ROW_KEYS
        for who in ("project", "anchor", "floor", "bare"):
            assert row[f"{who}_ms_per_step"] > 0
        assert row["ratio"] > 0 and row["floor_ratio"] > 0 and row["bare_ratio"] > 0
        sized = row["saver"] == "sqlite"
        assert (row["project_bytes_per_step"] is not None) is sized
        assert (row["anchor_bytes_per_step"] is not None) is sized


STEP_COSTS = BENCH.with_name("step_costs.py")


def test_step_costs_times_each_members_parts_and_restores_them() -> None:
    done = subprocess.run(
        [sys.executable, str(STEP_COSTS), "--steps", "3", "--episodes", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    members = json.loads(done.stdout)["members"]
    assert set(members) == {"project", "floor", "bare", "anchor"}
    for member in members.values():
        assert member["episode_ms_per_step"] > 0
        assert member["parts"]["saver put"]["calls_per_step"] > 0
    assert "reason" in members["project"]["parts"]
    assert "guard + node" in members["floor"]["parts"]
    assert "guard + node" not in members["anchor"]["parts"]


def test_step_costs_leaves_no_timer_behind() -> None:
    sys.path.insert(0, str(BENCH.parent))
    try:
        import step_costs
    finally:
        sys.path.remove(str(BENCH.parent))
    before = [vars(owner)[name] for _, owner, name in step_costs.PARTS]
    timers = step_costs.Timers()
    with timers.installed():
        assert [vars(owner)[name] for _, owner, name in step_costs.PARTS] != before
    assert [vars(owner)[name] for _, owner, name in step_costs.PARTS] == before
