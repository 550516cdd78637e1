"""`call_interruptibly` pays for a thread only where Ctrl-C is watched."""

from __future__ import annotations

import threading

from tools.interrupts import call_interruptibly, install


def _thread_of_call() -> list[threading.Thread]:
    """The thread `call_interruptibly` ran its work in, called from a worker thread."""
    seen: list[threading.Thread] = []
    worker = threading.Thread(
        target=lambda: call_interruptibly(lambda: seen.append(threading.current_thread()))
    )
    worker.start()
    worker.join()
    return [*seen, worker]


def test_without_a_watcher_the_work_runs_in_the_calling_thread() -> None:
    ran_in, caller = _thread_of_call()
    assert ran_in is caller


def test_with_a_watcher_the_work_runs_apart_and_the_result_comes_back() -> None:
    restore = install()
    try:
        ran_in, caller = _thread_of_call()
        assert ran_in is not caller and ran_in.name == "interruptible"
        result: list[int] = []
        worker = threading.Thread(target=lambda: result.append(call_interruptibly(lambda: 42)))
        worker.start()
        worker.join()
        assert result == [42]
    finally:
        restore()
    ran_in, caller = _thread_of_call()
    assert ran_in is caller
