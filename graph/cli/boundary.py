"""The CLI's one error boundary: what the user sees when a command does not finish.

- Known errors (the agent's own, a database file's, bad arguments): one line,
  exit 2 (a full disk adds the command that resumes the thread).
- A thread another process took over while this one ran (`tools.fencing`): one
  line, exit 7; this process wrote nothing after the take-over.
- A closed output pipe (`react-agent threads | head`): a quiet exit.
- Output that cannot be written (a full disk, `> /dev/full`): one line with the
  system's reason, exit 74; what the episode checkpointed stays in its database.
- Ctrl-C outside an episode's own handling: one line, exit 130.
- Anything else is a bug: one line with the path of a log file that holds the
  traceback (under the user's log directory), exit 1. Never a raw traceback.

`importlib.metadata` is imported only when the version is asked for: it adds about 17 ms
to every command's start-up (`react-agent --help` takes 0.2 s; python -X importtime).
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from platformdirs import user_log_dir

from graph.errors import AgentError
from graph.store.locations import hidden_password
from graph.terminal import line
from tools import interrupts
from tools.base import EnvironmentUnavailable
from tools.dbfiles import DatabaseFileError
from tools.fencing import TakenOverError

USAGE_ERROR = 2
UNEXPECTED = 1
INTERRUPTED = 130
BROKEN_PIPE = 141
OUTPUT_ERROR = 74  # sysexits.h EX_IOERR
TAKEN_OVER = 7
KNOWN_ERRORS = (AgentError, DatabaseFileError, EnvironmentUnavailable)
APP = "react-evidence-agent"

INTERRUPTED_LINE = "react-agent: interrupted"
CRASH_LINE = "react-agent: {what}; the traceback is in {path} (please include it in a bug report)"
# The logger of this package's modules: their errors reach the user through `guarded`.
LOGGER = "graph"
CRASH_LINE_NO_LOG = "react-agent: {what}; no log could be written: {why}"
OUTPUT_LINE = "react-agent: the output could not be written ({why})"


class OutputWriteError(OSError):
    """Writing to stdout failed (not a closed pipe, which stays a `BrokenPipeError`)."""


class _TellingOutput:
    """stdout, with a failed write or flush raised as `OutputWriteError`, so the
    boundary can tell it from any other `OSError` (a cache file, a log)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputWriteError(error.errno, error.strerror) from error

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise OutputWriteError(error.errno, error.strerror) from error

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def package_version() -> str:
    """The installed version of the project, or 'unknown' when run from a bare checkout."""
    from importlib import metadata

    try:
        return metadata.version(APP)
    except metadata.PackageNotFoundError:
        return "unknown"


def one_line(text: str) -> str:
    """A message on one line (newlines and runs of spaces folded), its control and escape
    characters made visible (a thread id or file name the user typed may hold them), and
    the password of a database URL in it hidden."""
    return line(hidden_password(" ".join(str(text).split())))


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
    text = hidden_password("\n".join(line.rstrip("\n") for line in lines) + "\n")
    # A byte of the command line that is not UTF-8 reaches Python as a lone surrogate.
    path.write_text(text, encoding="utf-8", errors="backslashreplace")
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
    stdout = sys.stdout
    sys.stdout = _TellingOutput(stdout)
    restore_sigint = interrupts.install()
    logger = logging.getLogger(LOGGER)
    defects = _DefectLines(argv)
    logger.addHandler(defects)
    try:
        return _guarded(command, argv)
    finally:
        logger.removeHandler(defects)
        restore_sigint()
        sys.stdout = stdout


class _DefectLines(logging.Handler):
    """A failure the run survived (the answer check raised, say) as one line on stderr,
    its traceback in a crash log, as the boundary reports a failure that ends the run."""

    def __init__(self, argv: Sequence[str]) -> None:
        super().__init__(logging.ERROR)
        self.argv = argv

    def emit(self, record: logging.LogRecord) -> None:
        summary = one_line(record.getMessage())[:200]
        error = record.exc_info[1] if record.exc_info else None
        if error is None:
            print(f"react-agent: {summary}", file=sys.stderr)
            return
        _report_crash(f"{summary} ({_summary(error)})", error, self.argv)


def _summary(error: BaseException) -> str:
    return one_line(f"{type(error).__name__}: {error}")[:200]


def _report_crash(what: str, error: BaseException, argv: Sequence[str]) -> None:
    """One stderr line saying `what` failed and naming the crash log written with the
    traceback (in the first folder of `log_dirs` that takes it), or why none was."""
    problem: OSError | None = None
    for folder in log_dirs():
        try:
            path = write_crash_log(error, argv, folder)
        except OSError as failure:
            problem = problem or failure
            continue
        print(CRASH_LINE.format(what=what, path=path), file=sys.stderr)
        return
    print(CRASH_LINE_NO_LOG.format(what=what, why=problem), file=sys.stderr)


def _guarded(command: Callable[[], int], argv: Sequence[str]) -> int:
    try:
        status = command()
        sys.stdout.flush()
        return status
    except OutputWriteError as error:
        _silence_stdout()
        print(OUTPUT_LINE.format(why=error.strerror or error), file=sys.stderr)
        return OUTPUT_ERROR
    except TakenOverError as error:
        print(f"react-agent: {one_line(str(error))}", file=sys.stderr)
        return TAKEN_OVER
    except KNOWN_ERRORS as error:
        print(f"react-agent: {one_line(str(error))}", file=sys.stderr)
        resume = getattr(error, "resume_command", "")
        if resume:
            print(f"Resume with: {resume}", file=sys.stderr)
        return USAGE_ERROR
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print(INTERRUPTED_LINE, file=sys.stderr)
        return INTERRUPTED
    except Exception as error:  # the boundary: a bug must still end in one line
        _report_crash(f"unexpected error ({_summary(error)})", error, argv)
        return UNEXPECTED
