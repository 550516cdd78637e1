"""How long light CLI commands take, start to exit, each in a fresh process.

Usage: python benchmarks/bench_cli_startup.py [--threads 50] [--reps 9] [--json]

A checkpoint file with `--threads` short episodes (the scripted demo episode,
run in this process) is made in a temporary directory; then `react-agent
--help`, `--version`, `threads`, `show`, `history` and `audit` (on one of
those threads) run as subprocesses (`python -m graph.cli ...`), round-robin,
`--reps` times each after one warm-up run. The machine is warm: the
subprocesses may write bytecode, into a private cache directory
(`PYTHONPYCACHEPREFIX`), whatever `PYTHONDONTWRITEBYTECODE` says here.
`python -c pass` runs among them as the baseline an interpreter costs.

For each command: the median and fastest wall-clock seconds, the import time
(`-X importtime`, top-level modules, one extra run) and which heavy modules it
imported. With `--json`: `{"threads", "reps", "results": [{"command",
"median_s", "min_s", "import_ms", "heavy_modules"}]}`.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HEAVY_MODULES = (
    "langchain_core.language_models.chat_models",
    "langchain.agents",
    "langgraph.graph",
    "langgraph.checkpoint.sqlite",
    "graph.core.nodes",
    "graph.verifier",
    "graph.evaluation",
    "sqlalchemy",
    "sklearn",
)


def make_checkpoints(workdir: Path, threads: int) -> tuple[Path, str]:
    """A checkpoint file holding `threads` finished demo episodes; returns it and one
    thread id."""
    from graph.cli import main
    from graph.testing import DEMO_QUESTION, DEMO_REPLIES

    script = workdir / "demo.json"
    script.write_text(json.dumps(DEMO_REPLIES), encoding="utf-8")
    db = workdir / "checkpoints.sqlite3"
    for index in range(threads):
        question = f"{DEMO_QUESTION} ({index + 1})"
        with contextlib.redirect_stdout(io.StringIO()):
            code = main(
                [
                    *("ask", question, "--model", f"scripted:{script}", "--db", str(db)),
                    *("--json", "--thread-id", f"thread-{index + 1}"),
                ]
            )
        if code != 0:
            raise SystemExit(f"the demo episode {index + 1} ended with exit status {code}")
    return db, "thread-1"


def commands(db: Path, thread_id: str) -> dict[str, list[str]]:
    """The timed commands, by name."""
    cli = [sys.executable, "-m", "graph.cli"]
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "--help": [*cli, "--help"],
        "--version": [*cli, "--version"],
        "threads": [*cli, "threads", "--db", str(db)],
        "show": [*cli, "show", thread_id, "--db", str(db)],
        "history": [*cli, "history", thread_id, "--db", str(db)],
        "audit": [*cli, "audit", thread_id, "--db", str(db)],
    }


def warm_environment(cache: Path) -> dict[str, str]:
    """The subprocesses' environment: bytecode written, into `cache`."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def timed(argv: list[str], env: dict[str, str]) -> float:
    """Wall-clock seconds of one run (any exit status: `audit` on a Wikipedia thread
    refuses, after doing its work)."""
    started = time.perf_counter()
    subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, check=False, timeout=300)
    return time.perf_counter() - started


def import_profile(argv: list[str], env: dict[str, str]) -> tuple[float, list[str]]:
    """Milliseconds spent importing top-level modules, and the heavy modules imported."""
    traced = [argv[0], "-X", "importtime", *argv[1:]]
    done = subprocess.run(
        traced, env=env, cwd=ROOT, capture_output=True, text=True, check=False, timeout=300
    )
    total_us = 0
    names: set[str] = set()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line.split("|", 2)
        if cumulative.strip().isdigit() and not name.startswith("  "):
            total_us += int(cumulative)
        names.add(name.strip())
    heavy = [m for m in HEAVY_MODULES if any(n == m or n.startswith(m + ".") for n in names)]
    return total_us / 1000, heavy


def measure(threads: int, reps: int, workdir: Path) -> list[dict[str, Any]]:
    """One row per command (see the module docstring)."""
    db, thread_id = make_checkpoints(workdir, threads)
    env = warm_environment(workdir / "pycache")
    runs = commands(db, thread_id)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for argv in runs.values():
        timed(argv, env)
    for _ in range(reps):
        for name, argv in runs.items():
            times[name].append(timed(argv, env))
    rows = []
    for name, argv in runs.items():
        import_ms, heavy = import_profile(argv, env)
        rows.append(
            {
                "command": name,
                "median_s": round(statistics.median(times[name]), 3),
                "min_s": round(min(times[name]), 3),
                "import_ms": round(import_ms, 1),
                "heavy_modules": heavy,
            }
        )
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    """The figures as a table."""
    print(f"{'command':<16} {'median s':>9} {'min s':>7} {'import ms':>10}  heavy modules")
    for row in rows:
        heavy = ", ".join(row["heavy_modules"]) or "-"
        print(
            f"{row['command']:<16} {row['median_s']:>9.3f} {row['min_s']:>7.3f} "
            f"{row['import_ms']:>10.1f}  {heavy}"
        )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=50, help="episodes in the file")
    parser.add_argument("--reps", type=int, default=9, help="timed runs per command")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.threads < 1 or args.reps < 1:
        parser.error("--threads and --reps must be at least 1")
    with tempfile.TemporaryDirectory(prefix="bench-cli-startup-") as folder:
        rows = measure(args.threads, args.reps, Path(folder))
    if args.json:
        print(json.dumps({"threads": args.threads, "reps": args.reps, "results": rows}))
    else:
        print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
