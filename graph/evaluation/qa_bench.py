"""`react-agent bench qa`: a fair comparison of standard, CoT, Act-only and ReAct on HotpotQA.

Every method gets the same model, questions, temperature, token budget, step
limit and Wikipedia source, and is repeated over several seeds. Episodes are
appended to `episodes.jsonl` as they finish; a run restarted with the same
`--out` skips the episodes already there, so an interrupted run resumes and
no episode is counted twice. Questions used in any prompt's examples are
never evaluated.

The pieces: `config` (settings, output files, the run's record), `questions`
(the sample, without prompt examples), `episode_log` (the resumable log),
`scheduler` (concurrency and rate-limit retries), `harness` (`QABench`),
`methods`, `report` and `plots`; beyond one process, `workers` and `stored`
(`--workers N` processes sharing the `--db` store) and `server_runs`
(`--server URL`); this module is the command line.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import fields
from functools import partial
from pathlib import Path
from typing import Any

from graph.errors import AgentError
from graph.evaluation.config import (
    EPISODES_FILE,
    REPORT_FILE,
    SUMMARY_FILE,
    BenchConfig,
    BenchError,
)
from graph.evaluation.harness import QABench, plots_available
from graph.evaluation.methods import METHODS, ModelFactory
from graph.evaluation.report import markdown_table
from graph.evaluation.runners import run_bench
from graph.settings.context import DEFAULT_MODEL

__all__ = ["BenchConfig", "BenchError", "QABench", "main", "register", "run_qa_bench"]


def run_qa_bench(
    config: BenchConfig, model_for: ModelFactory | None = None, **options: Any
) -> dict[str, Any]:
    """Run (or resume) a comparison; returns the summary also written to `config.out`."""
    return run_bench(QABench(config, model_for, **options))


def _methods(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in METHODS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}"
        )
    return names


def _command(args: argparse.Namespace) -> int:
    names = {field.name for field in fields(BenchConfig)}
    options = {name: value for name, value in vars(args).items() if name in names}
    config = BenchConfig(**(options | {"n": args.n or None}))
    try:
        summary = run_qa_bench(config, progress=not args.no_progress)
    except KeyboardInterrupt:
        print(
            f"interrupted: finished episodes are in {config.out / EPISODES_FILE}; run the same "
            "command again to continue",
            file=sys.stderr,
        )
        return 130

    print(markdown_table(summary["methods"]))
    written = f"{EPISODES_FILE}, {SUMMARY_FILE}, {REPORT_FILE}"
    print(f"\nwritten to {config.out}: {written}" + (" and plots" if plots_available() else ""))
    return 0


def _number(
    parser: argparse.ArgumentParser, name: str, kind: type, text: str, default: BenchConfig
) -> None:
    """A `--name` option of the `BenchConfig` field `name`; `{}` in `text` shows its default."""
    value = getattr(default, name)
    flag = "--" + name.replace("_", "-")
    parser.add_argument(flag, type=kind, default=value, help=text.format(value))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `qa` subcommand; it sets `func(args) -> int` as the handler."""
    parser = subparsers.add_parser(
        "qa",
        help="Compare standard, CoT, Act-only and ReAct (with and without verification) "
        "on HotpotQA under the same conditions.",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    default = BenchConfig()
    parser.add_argument(
        "--model",
        default=default.model,
        help="chat model for every method: 'provider:model', "
        "'path/file.py:factory', 'package.module:factory' or "
        f"'scripted:FILE' (default: {DEFAULT_MODEL})",
    )
    parser.add_argument(
        "--methods",
        type=_methods,
        default=default.methods,
        help=f"comma-separated, any of {', '.join(METHODS)} (default: all)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=default.data,
        help="HotpotQA JSONL(.gz) file (default: the built-in questions)",
    )
    number = partial(_number, parser, default=default)
    number("n", int, "how many questions (0: all; default: {})")
    number("sample_seed", int, "seed of the question sample (default: {})")
    number("seeds", int, "repeats of every episode, seeds 0..N-1 (default: {})")
    number("temperature", float, "(default: {})")
    number("max_steps", int, "most actions (model turns) per agent episode (default: {})")
    number("max_tokens", int, "most tokens per model call (default: {})")
    parser.add_argument(
        "--source",
        choices=["snapshot", "live"],
        default=default.source,
        help="Wikipedia for the agent methods (default: the offline snapshot)",
    )
    number("concurrency", int, "episodes run at once (default: {})")
    number("retries", int, "attempts per episode while the model is rate-limited (default: {})")
    parser.add_argument(
        "--out",
        type=Path,
        default=default.out,
        help=f"output directory; rerun with the same one to resume (default: {default.out})",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=default.workers,
        help="run the episodes in N local processes that share the checkpoint store of --db "
        "(default: one process, --concurrency threads)",
    )
    parser.add_argument(
        "--db",
        help="with --workers: the checkpoint store the processes share (default: "
        "$REACT_AGENT_DB or the user's own episodes database)",
    )
    parser.add_argument(
        "--server",
        default=default.server,
        metavar="URL",
        help="submit the agent episodes as runs to the LangGraph server at URL, whose queue "
        "spreads them over its workers",
    )
    parser.add_argument(
        "--note", default=default.note, help="a line shown at the top of the report"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_command)


def main(argv: list[str] | None = None) -> int:
    """Run the comparison on its own: `python -m graph.evaluation.qa_bench qa ...`."""
    parser = argparse.ArgumentParser(prog="qa-bench")
    register(parser.add_subparsers(dest="bench", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except AgentError as error:
        print(f"qa-bench: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
