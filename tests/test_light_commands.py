"""Light commands import only what they use, and nothing is compiled at import.

Each check runs in a fresh interpreter, so what it imports is what the command
imports (this process has imported everything already).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from cli_utils import ROOT, run_cli

CHAT_MODELS = "langchain_core.language_models.chat_models"
NOT_FOR_READING = (
    *(CHAT_MODELS, "langchain.agents", "graph.verifier", "graph.evaluation", "graph.testing"),
    "sklearn",
)
NOT_FOR_LISTING = (*NOT_FOR_READING, "langgraph.graph", "graph.agent", "sqlalchemy")


def imported_by(code: str) -> set[str]:
    """The modules a fresh interpreter has imported after running `code`."""
    probe = f"{code}\nimport sys, json\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def loaded(modules: set[str], forbidden: tuple[str, ...]) -> list[str]:
    """The forbidden packages (or modules) among `modules`."""
    return [f for f in forbidden if any(m == f or m.startswith(f + ".") for m in modules)]


def cli_call(*args: str) -> str:
    """Code that runs `react-agent ARGS` in-process, its output silenced (`--help` exits)."""
    quiet = "contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO())"
    return (
        "import contextlib, io\nfrom graph.cli import main\n"
        f"with {quiet}, contextlib.suppress(SystemExit):\n    main({list(args)!r})"
    )


@pytest.fixture(scope="module")
def episode_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A checkpoint file with one finished demo episode, thread `t1`."""
    from graph.testing import DEMO_QUESTION, DEMO_REPLIES

    folder = tmp_path_factory.mktemp("light")
    script = folder / "demo.json"
    script.write_text(json.dumps(DEMO_REPLIES))
    db = folder / "checkpoints.sqlite3"
    done = run_cli("ask", DEMO_QUESTION, "--model", f"scripted:{script}", "--db", str(db))
    assert done.returncode == 0, done.stderr
    done = run_cli(
        *("ask", DEMO_QUESTION, "--model", f"scripted:{script}", "--db", str(db)),
        *("--thread-id", "t1", "--json"),
    )
    assert done.returncode == 0, done.stderr
    return db


@pytest.mark.slow
def test_threads_and_help_import_neither_langgraph_graphs_nor_models(episode_db: Path) -> None:
    for args in (("threads", "--db", str(episode_db)), ("--help",), ("--version",)):
        modules = imported_by(cli_call(*args))
        assert loaded(modules, NOT_FOR_LISTING) == [], args


@pytest.mark.parametrize("command", ["show", "history", "audit"])
def test_reading_commands_import_no_chat_model_stack(episode_db: Path, command: str) -> None:
    modules = imported_by(cli_call(command, "t1", "--db", str(episode_db)))
    assert "graph.agent" in modules
    assert loaded(modules, NOT_FOR_READING) == []


def test_importing_the_agent_module_compiles_nothing() -> None:
    modules = imported_by("import graph.agent\nassert 'wikipedia_agent' not in vars(graph.agent)\n")
    assert CHAT_MODELS not in modules


@pytest.mark.slow
def test_langgraph_json_names_graph_factories_in_the_module_namespace() -> None:
    """langgraph-api looks a graph up in the module's `__dict__`, not with `getattr`; each
    name is a factory whose context gives the compiled graph of that id."""
    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    for graph_id, spec in graphs.items():
        path, variable = spec.rsplit(":", 1)
        module = Path(path).with_suffix("").as_posix().removeprefix("./").replace("/", ".")
        imported_by(
            f"import asyncio\nimport {module}\nfrom langgraph.pregel import Pregel\n"
            "async def entered():\n"
            f"    async with vars({module})[{variable!r}]({{'configurable': {{}}}}) as compiled:\n"
            "        assert isinstance(compiled, Pregel)\n"
            f"        assert compiled.name == {graph_id + '-agent'!r}\n"
            "asyncio.run(entered())\n"
        )


def test_threads_lists_a_thread_written_before_the_registry(
    episode_db: Path, tmp_path: Path
) -> None:
    """A thread with checkpoints but no registry row is still listed, read from its state."""
    import shutil
    import sqlite3

    db = tmp_path / "copy.sqlite3"
    shutil.copy(episode_db, db)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DELETE FROM threads WHERE thread_id = 't1'")
    conn.close()
    done = run_cli("threads", "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["thread_id"]: row for row in json.loads(done.stdout)}
    assert rows["t1"]["status"] == "verified" and rows["t1"]["env"] == "wikipedia"
    assert len(rows) == 2


def test_threads_env_lists_only_that_environments_episodes(episode_db: Path) -> None:
    every = run_cli("threads", "--db", str(episode_db), "--json")
    wikipedia = run_cli("threads", "--db", str(episode_db), "--json", "--env", "wikipedia")
    library = run_cli("threads", "--db", str(episode_db), "--json", "--env", "library")
    assert (every.returncode, wikipedia.returncode, library.returncode) == (0, 0, 0)
    assert len(json.loads(every.stdout)) == len(json.loads(wikipedia.stdout)) == 2
    assert json.loads(library.stdout) == []


def test_threads_on_a_file_of_another_kind_says_what_it_is(tmp_path: Path) -> None:
    other = tmp_path / "notes.json"
    other.write_text("[]")
    done = run_cli("threads", "--db", str(other))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"react-agent: {other} is not an SQLite database (expected a checkpoint database)"
    )


@pytest.mark.slow
def test_the_startup_benchmark_prints_its_figures() -> None:
    done = subprocess.run(
        [
            *(sys.executable, "benchmarks/bench_cli_startup.py"),
            *("--threads", "2", "--reps", "1", "--json"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    rows = {row["command"]: row for row in figures["results"]}
    assert set(rows) >= {"--help", "threads", "show", "history", "audit"}
    assert all(row["median_s"] > 0 and row["import_ms"] > 0 for row in rows.values())
    assert rows["threads"]["heavy_modules"] == []
    assert "langgraph.graph" in rows["show"]["heavy_modules"]
