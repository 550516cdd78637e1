"""`bench qa` after a plain install: no plots without matplotlib, no leftovers on failure."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graph.evaluation import runners
from graph.evaluation.config import CONFIG_FILE
from graph.evaluation.qa_bench import BenchConfig, BenchError, QABench, run_qa_bench

SAMPLE = "graph.evaluation.sample:sample_model"
WITHOUT_MATPLOTLIB = (
    "import sys; sys.modules['matplotlib'] = None; from graph.cli import main; "
    "sys.exit(main(sys.argv[1:]))"
)


def _config(out: Path) -> BenchConfig:
    return BenchConfig(out=out, model=SAMPLE, methods=("standard",), n=2, seeds=1, backoff_s=0.0)


def test_without_matplotlib_the_plots_are_skipped_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["bench", "qa", "--model", SAMPLE, "--methods", "standard", "--n", "2", "--seeds", "1"]
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_MATPLOTLIB, *args, "--out", str(out), "--no-progress"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "matplotlib is not installed, so no plots were drawn" in done.stderr
    assert "[bench]" in done.stderr and "Traceback" not in done.stderr
    assert sorted(path.name for path in out.iterdir()) == [
        "config.json",
        "episodes.jsonl",
        "report.md",
        "summary.json",
    ]
    assert "and plots" not in done.stdout


def test_a_run_that_fails_before_any_episode_leaves_no_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: QABench) -> int:
        raise RuntimeError("the scheduler failed")

    monkeypatch.setattr(runners, "run_pending", broken)
    out = tmp_path / "fresh" / "run"
    with pytest.raises(RuntimeError):
        run_qa_bench(_config(out), progress=False)
    assert not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "notes.txt").write_text("mine")
    with pytest.raises(RuntimeError):
        run_qa_bench(_config(kept), progress=False)
    assert sorted(path.name for path in kept.iterdir()) == ["notes.txt"]


def test_an_earlier_record_survives_a_failed_rerun(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    run_qa_bench(_config(out), progress=False)
    record = (out / CONFIG_FILE).read_text(encoding="utf-8")
    monkeypatch.setattr(runners, "run_pending", lambda bench: 1 / 0)
    with pytest.raises(ZeroDivisionError):
        run_qa_bench(_config(out), progress=False)
    assert (out / CONFIG_FILE).read_text(encoding="utf-8") == record
    assert json.loads(record)["model"] == SAMPLE


def test_agent_settings_are_checked_by_the_agents_rules(tmp_path: Path) -> None:
    with pytest.raises(BenchError, match="--max-steps: 50000 is not allowed"):
        QABench(BenchConfig(out=tmp_path, model=SAMPLE, max_steps=50000), progress=False)
    with pytest.raises(BenchError, match="--temperature"):
        QABench(BenchConfig(out=tmp_path, model=SAMPLE, temperature=-1.0), progress=False)
