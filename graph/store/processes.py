"""Which process holds a lease, and whether it still runs on this host.

A pid alone is not enough: a killed process can linger as a zombie until its
parent reaps it, and its pid can be reused by a younger process. So a holder
records the process's start time too (from `/proc`, with the boot id), and a
process counts as alive only while it exists, is not a zombie, and started
when the holder says it did.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path


def utc_now() -> str:
    """The current UTC time to the second, ISO 8601 (how holders say since when)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def _proc_stat(pid: int) -> list[str] | None:
    """The fields of `/proc/PID/stat` after the command name, or None if unreadable."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rfind(")") + 2 :].split()


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()[:8]
    except OSError:
        return ""


def process_start(pid: int) -> str:
    """When `pid` started (boot id + clock ticks since boot), or '' where it cannot be told."""
    fields = _proc_stat(pid)
    return f"{_boot_id()}:{fields[19]}" if fields and len(fields) > 19 else ""


def process_alive(pid: int, started: str) -> bool:
    """Whether the process `pid` that started at `started` still runs on this host."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    fields = _proc_stat(pid)
    if fields is None:
        return True
    if fields[0] in ("Z", "X"):
        return False
    return not started or process_start(pid) == started


@dataclass(frozen=True)
class ThisProcess:
    """Where this process runs, as a holder records it."""

    host: str
    pid: int
    start: str

    @classmethod
    def current(cls) -> ThisProcess:
        """This process (looked up again after a fork)."""
        pid = os.getpid()
        return cls(socket.gethostname(), pid, process_start(pid))
