"""Ctrl-C while the command is still starting (importing its modules), or again while
it ends, exits quietly.

Imported first by `graph.cli`: until `started()` is called, SIGINT prints one
line and exits with status 130 instead of a `KeyboardInterrupt` traceback from
deep inside an import. Only in the main thread and only over Python's default
handler, so an embedding program's own handler is left alone. After the command
has returned (`ending()`), the interpreter may still wait for work a node left
running (a judge's call); a Ctrl-C then ends the process at once with status 130.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

INTERRUPTED_EXIT = 130
STARTING_LINE = "react-agent: interrupted while starting; nothing was done"


def _exit_quietly(signum: int, frame: FrameType | None) -> None:
    print(STARTING_LINE, file=sys.stderr)
    raise SystemExit(INTERRUPTED_EXIT)


_GUARDING = (
    threading.current_thread() is threading.main_thread()
    and signal.getsignal(signal.SIGINT) is signal.default_int_handler
)
if _GUARDING:
    signal.signal(signal.SIGINT, _exit_quietly)


def started() -> None:
    """Put Python's default SIGINT handler back: the command's own handling takes over."""
    if _GUARDING and signal.getsignal(signal.SIGINT) is _exit_quietly:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _exit_at_once(signum: int, frame: FrameType | None) -> None:
    os._exit(INTERRUPTED_EXIT)


def ending() -> None:
    """The command has returned and said what it did: from here a Ctrl-C exits at once,
    with no traceback from the interpreter's wait for worker threads."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _exit_at_once)
