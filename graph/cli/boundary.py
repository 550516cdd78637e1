"""The CLI's one error boundary: what the user sees when a command does not finish.

- Known errors (the agent's own, a database file's, bad arguments): one line,
  exit 2.
- A closed output pipe (`react-agent threads | head`): a quiet exit.
- Ctrl-C outside an episode's own handling: one line, exit 130.
- Anything else is a bug: one line with the path of a log file that holds the
  traceback (under the user's log directory), exit 1. Never a raw traceback.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from platformdirs import user_log_dir

from graph.errors import AgentError
from tools.dbfiles import DatabaseFileError

USAGE_ERROR = 2
UNEXPECTED = 1
INTERRUPTED = 130
BROKEN_PIPE = 141
KNOWN_ERRORS = (AgentError, DatabaseFileError)
APP = "react-evidence-agent"

INTERRUPTED_LINE = "react-agent: interrupted; the episode can be resumed from its last checkpoint"
CRASH_LINE = (
    "react-agent: unexpected error ({summary}); the traceback is in {path} "
    "(please include it in a bug report)"
)
CRASH_LINE_NO_LOG = "react-agent: unexpected error ({summary}); no log could be written: {why}"


def package_version() -> str:
    """The installed version of the project, or 'unknown' when run from a bare checkout."""
    from importlib import metadata

    try:
        return metadata.version(APP)
    except metadata.PackageNotFoundError:
        return "unknown"


def one_line(text: str) -> str:
    """A message on one line (newlines and runs of spaces folded)."""
    return " ".join(str(text).split())


def log_dirs() -> list[Path]:
    """Where crash logs go: the user's log directory for the app, else the temp directory."""
    return [Path(user_log_dir(APP)), Path(tempfile.gettempdir())]


def write_crash_log(error: BaseException, argv: Sequence[str], folder: Path) -> Path:
    """Write the traceback with the command and versions into `folder`; returns the file."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"crash-{stamp}-{os.getpid()}.log"
    lines = [
        f"react-agent {package_version()} on Python {sys.version.split()[0]}",
        f"time: {datetime.now().astimezone().isoformat(timespec='seconds')}",
        f"command: {' '.join(['react-agent', *argv])}",
        f"working directory: {Path.cwd()}",
        "",
        *traceback.format_exception(error),
    ]
    path.write_text("\n".join(line.rstrip("\n") for line in lines) + "\n", encoding="utf-8")
    return path


def _silence_stdout() -> None:
    """Point stdout at /dev/null so Python's flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def guarded(command: Callable[[], int], argv: Sequence[str]) -> int:
    """Run `command`, turning every way it can fail into one line and an exit status."""
    try:
        status = command()
        sys.stdout.flush()
        return status
    except KNOWN_ERRORS as error:
        print(f"react-agent: {one_line(str(error))}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print(INTERRUPTED_LINE, file=sys.stderr)
        return INTERRUPTED
    except Exception as error:  # the boundary: a bug must still end in one line
        summary = one_line(f"{type(error).__name__}: {error}")[:200]
        problem: OSError | None = None
        for folder in log_dirs():
            try:
                path = write_crash_log(error, argv, folder)
            except OSError as failure:
                problem = problem or failure
                continue
            print(CRASH_LINE.format(summary=summary, path=path), file=sys.stderr)
            return UNEXPECTED
        print(CRASH_LINE_NO_LOG.format(summary=summary, why=problem), file=sys.stderr)
        return UNEXPECTED
