"""`react-agent`: ask, resume, show, threads, history, library and benchmarks.

Exit status: 0 verified; 1 the episode ended in an error (or an unexpected
failure, whose traceback goes to a log file); 2 bad input (usage, settings,
model, database, thread id, decision); 3 unverified; 4 a budget ran out;
5 awaiting a human approval; 6 grounded (the evidence states the answer, but
nothing tied it to the question); 7 another process took the thread over while
this one ran (it stopped without writing); 130 interrupted.

The modules: `settings` (flags and the question), `episodes` (ask, resume),
`threads` (show, threads), `library` (library reset), `output` (printing),
`boundary` (the one place errors become lines and exit codes).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from dotenv import load_dotenv

from graph import _start
from graph.cli import library, pending
from graph.cli.boundary import USAGE_ERROR, guarded, package_version
from graph.cli.episodes import cmd_ask, cmd_resume
from graph.cli.prefixes import expand_thread_id
from graph.cli.remote import add_server_flag, cmd_ask_remote, cmd_resume_remote, cmd_show_remote
from graph.cli.settings import (
    STDIN,
    add_setting_flags,
    decider_name,
    new_thread_id,
    not_blank,
    refuse_undecodable,
)
from graph.cli.threads import cmd_show, cmd_threads
from graph.errors import AgentError
from graph.settings.validation import MAX_QUESTION_CHARS
from graph.store.locations import DB_HELP

__all__ = ["build_parser", "entry", "main"]

_start.started()

STATUSES = [
    "running",
    "interrupted",
    "awaiting_approval",
    "verified",
    "grounded",
    "unverified",
    "budget_exhausted",
    "error",
]
QUESTION_HELP = (
    f"the question (at most {MAX_QUESTION_CHARS:,} characters), or '{STDIN}' to read it "
    "from standard input"
)


class VersionAction(argparse._VersionAction):
    """`--version`, with the installed version read only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        self.version = f"react-agent {package_version()}"
        super().__call__(parser, *args, **kwargs)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        """Print `prog: message (see prog -h)` and exit with the usage status."""
        self.exit(USAGE_ERROR, f"{self.prog}: {message} (see {self.prog} -h)\n")


def _common(
    sub: argparse.ArgumentParser, env_default: str | None = None, env_help: str = ""
) -> None:
    sub.add_argument("--db", help=DB_HELP)
    sub.add_argument(
        "--env",
        choices=["wikipedia", "library", "mcp"],
        default=env_default,
        help=env_help or "environment (default: " + (env_default or "the thread's own") + ")",
    )
    sub.add_argument("--json", action="store_true", help="print one JSON object")


def _add_resume(commands: argparse._SubParsersAction) -> None:
    resume = commands.add_parser("resume", help="continue a stopped or paused episode")
    resume.add_argument("thread_id")
    resume.add_argument(
        "--from",
        dest="from_checkpoint",
        metavar="CHECKPOINT_ID",
        type=not_blank,
        help="fork from this checkpoint (see `history`)",
    )
    decision = resume.add_mutually_exclusive_group()
    decision.add_argument("--approve", action="store_true", help="approve the pending action")
    decision.add_argument("--reject", metavar="REASON", help="reject it, telling the model why")
    decision.add_argument("--edit", metavar="ARGS", help="run it with these JSON arguments")
    decision.add_argument("--decision", metavar="JSON", help="a raw HITL decision object")
    resume.add_argument(
        "--edit-action",
        metavar="NAME",
        help="with --edit: run this action instead of the proposed one",
    )
    resume.add_argument(
        "--edit-state",
        metavar="ACTION",
        help="replace the pending Action of the --from checkpoint (default: the latest) with "
        "ACTION, e.g. 'Search[Other title]', then replay",
    )
    resume.add_argument(
        "--request",
        metavar="ID",
        type=not_blank,
        help="the approval request the decision answers (printed with it); one already "
        "answered or superseded is refused",
    )
    resume.add_argument(
        "--as",
        dest="as_name",
        metavar="NAME",
        type=decider_name,
        help="who decides (default: the OS user); an approval policy may name who may",
    )
    resume.add_argument(
        "--change-settings",
        action="store_true",
        help="let settings flags change the thread's stored settings (the change is recorded)",
    )
    _common(resume)
    add_setting_flags(resume)
    add_server_flag(resume, cmd_resume, cmd_resume_remote)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of `react-agent`; given the `command` about to run, the
    other slow-to-import commands are only listed (see `LAZY_COMMANDS`)."""
    parser = Parser(
        prog="react-agent",
        description="A ReAct agent whose answers are checked against stored evidence.",
        epilog="Exit status: 0 verified, 1 error, 2 bad input, 3 unverified, "
        "4 budget exhausted, 5 awaiting approval, 6 grounded (stated by the evidence, "
        "not tied to the question), 7 taken over by another process (nothing written), "
        "130 interrupted. REACT_AGENT_LEASE_TTL: the thread lease's time to live in "
        "seconds (default 30).",
    )
    parser.add_argument("--version", action=VersionAction, help="show the version and exit")
    commands = parser.add_subparsers(dest="command", required=True)

    ask = commands.add_parser("ask", help="answer a question")
    ask.add_argument("question", help=QUESTION_HELP)
    ask.add_argument(
        "--thread-id",
        type=new_thread_id,
        help="thread id of the new episode (default: a new UUID; never an old one)",
    )
    _common(ask, "wikipedia")
    add_setting_flags(ask)
    add_server_flag(ask, cmd_ask, cmd_ask_remote)

    _add_resume(commands)

    show = commands.add_parser("show", help="print an episode's trajectory and state")
    show.add_argument("thread_id")
    _common(show)
    add_server_flag(show, cmd_show, cmd_show_remote)

    threads = commands.add_parser("threads", help="list episodes in the database")
    _common(threads, env_help="list only this environment's episodes (default: all)")
    threads.add_argument("--status", choices=STATUSES, help="list only episodes with this status")
    threads.set_defaults(func=cmd_threads)
    pending.register(commands)

    library.register(commands)
    for name, register in LAZY_COMMANDS.items():
        if command in (None, name):
            register(commands)
        else:
            commands.add_parser(name, help=LAZY_HELP[name], add_help=False)
    return parser


def _register_history(commands: argparse._SubParsersAction) -> None:
    from graph.cli import history

    history.register(commands)


def _register_bench(commands: argparse._SubParsersAction) -> None:
    from graph.evaluation import qa_bench, verifier_bench

    bench = commands.add_parser("bench", help=LAZY_HELP["bench"])
    benches = bench.add_subparsers(dest="bench", required=True)
    verifier_bench.register(benches)
    qa_bench.register(benches)


# Commands whose modules are slow to import (`history` and `audit` about 1 s, `bench`
# about 1 s more than `react-agent --help`'s 0.2 s; python -X importtime): fully built
# only when chosen (or for `build_parser()` with no command), else listed by name and
# help only.
def _register_audit(commands: argparse._SubParsersAction) -> None:
    from graph.cli import audit

    audit.register(commands)


LAZY_COMMANDS: dict[str, Callable[[argparse._SubParsersAction], None]] = {
    "history": _register_history,
    "audit": _register_audit,
    "bench": _register_bench,
}
LAZY_HELP = {
    "history": "list an episode's checkpoints (time travel)",
    "audit": "print a library or MCP episode's audit log",
    "bench": "benchmarks",
}


def _command_named(arguments: Sequence[str]) -> str:
    """The subcommand the arguments name (the first that is not an option), or ''."""
    return next((item for item in arguments if not item.startswith("-")), "")


def main(argv: Sequence[str] | None = None, *, read_env: bool = False) -> int:
    """Parse the arguments and run the command; returns the exit status (never raises).

    With `read_env` (the console script), `.env` in the working directory is read first.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)

    def command() -> int:
        if read_env:
            load_dotenv_file()
        refuse_undecodable(arguments)
        args = build_parser(_command_named(arguments)).parse_args(arguments)
        expand_thread_id(args)
        return int(args.func(args))

    return guarded(command, arguments)


ENV_FILE_NOT_TEXT = "{path} is not UTF-8 text (byte {at}); fix or remove it (it sets variables)"


def load_dotenv_file(directory: Path | None = None) -> None:
    """Read `.env` from the working directory (variables already set win)."""
    path = (directory or Path.cwd()) / ".env"
    try:
        load_dotenv(path, override=False)
    except UnicodeDecodeError as error:
        raise AgentError(ENV_FILE_NOT_TEXT.format(path=path, at=error.start)) from None
    except OSError as error:
        raise AgentError(f"cannot read {path}: {error.strerror or error}") from None


def entry() -> NoReturn:
    """The `react-agent` console script: read `.env`, run, exit with the status."""
    status = main(read_env=True)
    _start.ending()
    sys.exit(status)
