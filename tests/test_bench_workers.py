"""`bench qa --workers N`: processes that share one checkpoint store.

The verdicts do not depend on how many processes ran the episodes, nor on
the store (SQLite, PostgreSQL); a rerun
takes finished episodes from the log or the store and runs nothing again;
an episode stopped half-way is resumed from its last checkpoint.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli

from graph.episodes.starting import run_episode
from graph.evaluation.config import BenchConfig
from graph.evaluation.hotpot import load_questions
from graph.evaluation.methods import MethodRunner, RunSettings
from graph.evaluation.oracles import hotpot_oracle_model
from graph.evaluation.qa_bench import run_qa_bench
from graph.evaluation.stored import StoredMethodRunner, episode_thread_id

pytestmark = pytest.mark.slow

ORACLE = "graph.evaluation.oracles:hotpot_oracle_model"
OPTIONS = ["--model", ORACLE, "--methods", "react,react+verify", "--n", "3", "--seeds", "1"]


def _bench(out: Path, workers: int, db: str | None = None) -> None:
    done = run_cli(
        "bench", "qa", *OPTIONS, "--out", str(out), "--workers", str(workers),
        "--db", db or str(out / "store.sqlite3"), "--no-progress",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _records(out: Path) -> dict[str, dict[str, Any]]:
    lines = (out / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    return {record["key"]: record for record in map(json.loads, lines)}


def _verdicts(out: Path) -> dict[str, tuple[Any, ...]]:
    return {
        key: (record["status"], record["answer"], record["steps"])
        for key, record in _records(out).items()
    }


def _checkpoints(store: Path) -> int:
    with sqlite3.connect(store) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM checkpoints").fetchone()[0])


def test_two_workers_give_the_verdicts_of_one_and_a_rerun_runs_nothing_again(
    tmp_path: Path,
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    _bench(one, 1)
    _bench(two, 2)
    verdicts = _verdicts(two)
    assert verdicts == _verdicts(one)
    assert len(verdicts) == 6
    assert {status for status, _, _ in verdicts.values()} <= {"verified", "unverified"}

    stored = _checkpoints(two / "store.sqlite3")
    log = two / "episodes.jsonl"
    log.write_text(log.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    _bench(two, 2)
    assert _verdicts(two) == verdicts
    assert _checkpoints(two / "store.sqlite3") == stored  # read back from the store


@pytest.mark.postgres
def test_two_workers_on_postgresql_give_the_verdicts_of_one_process(
    tmp_path: Path, postgres_url: str
) -> None:
    _bench(tmp_path / "pg", 2, postgres_url)
    local = tmp_path / "local"
    methods = ("react", "react+verify")
    run_qa_bench(
        BenchConfig(out=local, model=ORACLE, methods=methods, n=3, seeds=1), progress=False
    )
    assert _verdicts(tmp_path / "pg") == _verdicts(local)


class Stop(Exception):
    """Stands for a process killed after some steps."""


def test_an_episode_stopped_half_way_is_resumed_from_the_store(tmp_path: Path) -> None:
    question = load_questions()[0]["question"]
    settings = RunSettings(model=ORACLE)
    runner = StoredMethodRunner(
        settings, lambda *_: hotpot_oracle_model(), 0.0, db=str(tmp_path / "s.sqlite3"),
        run_key="run",
    )  # fmt: skip
    agent, _ = runner.agent("react", 0)
    thread_id = episode_thread_id("run", "react", question, 0)

    def stop_after_first_step(event: dict[str, Any]) -> None:
        if event.get("event") == "step":
            raise Stop

    with pytest.raises(Stop):
        run_episode(agent, question, settings.context("react"), thread_id, stop_after_first_step)
    resumed = runner.run_graph("react", question, 0)
    whole = MethodRunner(settings, lambda *_: hotpot_oracle_model(), 0.0).run_graph(
        "react", question, 0
    )
    assert resumed["status"] != "error"
    for key in ("status", "answer", "steps", "model_calls"):
        assert resumed[key] == whole[key], key
    actions = [(step["action_text"], step["observation"]) for step in resumed["trajectory"]]
    assert actions == [(step["action_text"], step["observation"]) for step in whole["trajectory"]]
