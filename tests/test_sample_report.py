"""The committed sample report, and the copy of its table in `docs/evaluation.md`, are what the
command they name makes today (wall-clock latency aside)."""

from __future__ import annotations

from pathlib import Path

import pytest

from graph.evaluation.qa_bench import BenchConfig, run_qa_bench

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_REPORT = ROOT / "docs" / "sample_report" / "report.md"


def table_rows(markdown: str) -> list[list[str]]:
    """The cells of each method row of a report's table, without the latency column."""
    rows = []
    for line in markdown.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] != "Method":
            rows.append(cells[:9])
    return rows


def test_the_committed_sample_report_is_what_its_command_makes(tmp_path: Path) -> None:
    committed = SAMPLE_REPORT.read_text(encoding="utf-8")
    assert "--n 30 --seeds 3 --concurrency 8" in committed
    settings = BenchConfig(
        out=tmp_path / "sample",
        model="graph.evaluation.sample:sample_model",
        n=30,
        seeds=3,
        concurrency=8,
        backoff_s=0.0,
    )
    run_qa_bench(settings, progress=False)
    made = (tmp_path / "sample" / "report.md").read_text(encoding="utf-8")
    assert len(table_rows(made)) == 12  # the figures, then each outcome's rate and precision
    assert table_rows(committed) == table_rows(made)
    page = (ROOT / "docs" / "evaluation.md").read_text(encoding="utf-8")
    section = page[page.index("What the output looks like") :]
    section = section[: section.index("Full sample report")]
    assert table_rows(section) == table_rows(made)[:6]
