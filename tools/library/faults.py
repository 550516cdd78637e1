"""How a backend call can fail without an answer: it runs under the tool timeout
(`run_with_timeout`), and `settings.faults` (`tool:argument:mode`) injects timeouts
into chosen calls, once per episode or always.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tools.library.text import fold
from tools.library.tools import PRIMARY_ARG

if TYPE_CHECKING:
    from tools.library.backend import LibraryBackend

T = TypeVar("T")
FAULT_MODES = ("timeout-once", "timeout-always")

FAILURE_TIMEOUT = "timed out after {seconds:g} s"


class CallTimeout(Exception):
    """A backend call did not finish within the tool timeout (real or injected)."""


@dataclass(frozen=True)
class Fault:
    """An injected fault: `tool:argument:mode`, argument `*` for any."""

    tool: str
    argument: str
    mode: str

    @property
    def key(self) -> str:
        """Identifies the fault in `env_state["faults_fired"]`."""
        return f"{self.tool}:{self.argument}:{self.mode}"


def parse_faults(spec: str) -> list[Fault]:
    """Read `settings.faults`; raise ValueError naming the expected form."""
    faults = []
    for item in filter(None, (part.strip() for part in spec.split(","))):
        parts = item.split(":")
        tool, mode, argument = parts[0].strip(), parts[-1].strip(), ":".join(parts[1:-1]).strip()
        if len(parts) < 3 or tool not in PRIMARY_ARG or mode not in FAULT_MODES or not argument:
            raise ValueError(
                f"fault {item!r} must be 'tool:argument:mode' with tool one of "
                f"{sorted(PRIMARY_ARG)} and mode one of {FAULT_MODES}"
            )
        faults.append(Fault(tool, argument, mode))
    return faults


def run_with_timeout(call: Callable[[], T], seconds: float) -> T:
    """Run `call` in a daemon thread; raise `CallTimeout` if it takes longer than `seconds`.

    A call that overruns is abandoned, not killed: it may still finish later.
    """
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = call()
        except BaseException as exc:  # re-raised in the caller's thread
            box["error"] = exc

    worker = threading.Thread(target=target, name="library-call", daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise CallTimeout(FAILURE_TIMEOUT.format(seconds=seconds))
    if "error" in box:
        raise box["error"]
    return box["value"]


def matching_fault(
    action: str, args: Mapping[str, Any], backend: LibraryBackend, settings: Any
) -> Fault | None:
    """The first fault of `settings.faults` that hits this call: same tool and argument
    (`*` for any; a branch or place by any of its names), else None."""
    value = str(args.get(PRIMARY_ARG[action]) or "")
    for fault in parse_faults(settings.faults):
        if fault.tool != action:
            continue
        if fault.argument == "*" or fold(fault.argument) == fold(value):
            return fault
        if action in ("get_open_hours", "estimate_walk"):
            wanted, given = backend.resolve_place(fault.argument), backend.resolve_place(value)
            if wanted is not None and given is not None and wanted.place_id == given.place_id:
                return fault
    return None
