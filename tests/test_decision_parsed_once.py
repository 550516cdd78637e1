"""A decision given on the command line is parsed once where it comes in (the CLI), and
once more where the graph receives it (the `review` node, the boundary Studio and the
server API also use); the resume rules between work on that parse."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import graph.cli.episodes
import graph.core.asking
import graph.core.review
import graph.episodes.decision_checks
import graph.episodes.resuming
from graph.cli import main
from graph.core import approval
from tools.library.db import reservations

QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."
MODULES = (
    graph.cli.episodes,
    graph.episodes.resuming,
    graph.episodes.decision_checks,
    graph.core.review,
    graph.core.asking,
    approval,
)


def test_a_decision_is_parsed_once_by_the_cli_and_once_by_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db, library = str(tmp_path / "episodes.sqlite3"), str(tmp_path / "library.sqlite3")
    code = main(
        ["ask", "--env", "library", QUESTION, "--model", "graph.testing:library_demo_model",
         "--db", db, "--library-db", library],
    )  # fmt: skip
    asked = capsys.readouterr().out
    assert code == 5, asked
    thread_id = re.search(r"Thread: (\S+)", asked)
    assert thread_id

    calls: Counter[str] = Counter()
    original = approval.parse_decision

    def counted(value: Any, *, recorded: bool = False) -> approval.Decision:
        calls["recorded" if recorded else "given"] += 1
        return original(value, recorded=recorded)

    for module in MODULES:
        if hasattr(module, "parse_decision"):
            monkeypatch.setattr(module, "parse_decision", counted)
    given = '{"decisions": [{"type": "approve"}]}'
    assert main(["resume", thread_id[1], "--db", db, "--decision", given]) == 0
    assert len(reservations(Path(library))) == 1
    assert calls["given"] == 2, calls  # the CLI's flags, then the graph's resume value
