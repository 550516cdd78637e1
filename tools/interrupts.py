"""Ctrl-C for blocking work that runs off the main thread.

Python delivers SIGINT to the main thread only. A graph node runs in a worker
thread, so a live Wikipedia request that hangs kept the node (and the command,
which waits for its node) busy until the request's whole retry budget was
spent, well after Ctrl-C. `install` makes SIGINT also set `INTERRUPT`, and
`call_interruptibly` runs blocking work in a daemon thread and raises
`KeyboardInterrupt` in its caller as soon as `INTERRUPT` is set; the abandoned
work ends by its own timeout, and a daemon thread does not hold the exit. Model
calls (`graph.core.nodes`) run the same way; `call_with_timeout` (the verifier's judge)
also gives up after a timeout.
"""

from __future__ import annotations

import contextvars
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")
POLL_S = 0.05

INTERRUPT = threading.Event()
# How many `install`s are in force: with none, nothing sets `INTERRUPT`.
_WATCHING = [0]


def install() -> Callable[[], None]:
    """Let SIGINT set `INTERRUPT` before it raises `KeyboardInterrupt` as usual.

    Only in the main thread and only over Python's default handler (an ignored
    SIGINT stays ignored); returns what puts the previous handler back.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.getsignal(signal.SIGINT)
    if previous is not signal.default_int_handler:
        return lambda: None
    INTERRUPT.clear()

    def on_sigint(signum: int, frame: FrameType | None) -> Any:
        INTERRUPT.set()
        return signal.default_int_handler(signum, frame)

    signal.signal(signal.SIGINT, on_sigint)
    _WATCHING[0] += 1

    def restore() -> None:
        signal.signal(signal.SIGINT, previous)
        _WATCHING[0] -= 1

    return restore


class CallTimedOut(Exception):
    """`call_with_timeout`'s work did not end in time (it goes on, abandoned)."""


def call_interruptibly(work: Callable[[], T]) -> T:
    """`work()`, run in a daemon thread unless this is the main thread or no `install` is
    in force (a server, a notebook: nothing could set `INTERRUPT`, so no thread is paid
    for); raises `KeyboardInterrupt` here as soon as `INTERRUPT` is set. The work sees
    this thread's context variables (a node's run config: its callbacks and streaming)."""
    if not _WATCHING[0] or threading.current_thread() is threading.main_thread():
        return work()
    return _in_daemon(work, None)


def call_with_timeout(work: Callable[[], T], timeout_s: float) -> T:
    """`work()` in a daemon thread, waited for `timeout_s` at most (then `CallTimedOut`)
    and, like `call_interruptibly`, not after Ctrl-C. A thread pool's worker would be
    joined at exit, so a call that hangs past its timeout held the process until it
    returned; an abandoned daemon thread holds nothing."""
    return _in_daemon(work, timeout_s)


def _in_daemon(work: Callable[[], T], timeout_s: float | None) -> T:
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    outcome: dict[str, Any] = {}
    done = threading.Event()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            outcome["value"] = context.run(work)
        except BaseException as error:
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=run, name="interruptible", daemon=True).start()
    while not done.wait(POLL_S if deadline is None else min(POLL_S, deadline - time.monotonic())):
        if _WATCHING[0] and INTERRUPT.is_set():  # a watcher's, not one put back since
            raise KeyboardInterrupt
        if deadline is not None and time.monotonic() >= deadline:
            raise CallTimedOut
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value
