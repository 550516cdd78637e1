"""The verifier's scaling benchmarks run end to end on small sizes and print what their
docstrings promise: benchmarks/verifier_long_text.py (time against sentence length) and
benchmarks/verifier_memory.py (caches, memory and collector pauses over many checks)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from verifier_utils import benchmark_script


def _rows(printed: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in printed.splitlines() if line.startswith("{")]


def test_the_long_text_benchmark_prints_every_shape_and_draws_the_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "plots" / "long.png"
    assert benchmark_script("verifier_long_text").main(["--sizes", "2,1", "--plot", str(plot)]) == 0
    rows = _rows(capsys.readouterr().out)
    assert len(rows) == 4 * 3 * 2  # shapes x questions x sizes
    assert {row["kb"] for row in rows} == {1, 2}
    assert all(row["per_kb_ratio"] == 1.0 for row in rows if row["kb"] == 1)
    assert all(float(str(row["ms"])) > 0 for row in rows)
    assert plot.stat().st_size > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sizes", "x"], "expected whole numbers"),
        (["--sizes", "0,5"], "1 KB or more"),
        (["--plot", "."], "is a directory"),
    ],
)
def test_the_long_text_benchmark_refuses_bad_arguments_in_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        benchmark_script("verifier_long_text").main(args)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_memory_benchmark_prints_the_baseline_then_each_stretch(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert benchmark_script("verifier_memory").main(["--checks", "5", "--every", "2"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [row["checks"] for row in rows] == [1, 2, 4, 5]
    assert rows[0]["cached_results_ratio"] == 1.0
    assert all(int(str(row["cached_results"])) > 0 for row in rows)
    assert int(str(rows[-1]["cached_results"])) > int(str(rows[0]["cached_results"]))
