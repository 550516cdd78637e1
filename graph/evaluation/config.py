"""What one `bench qa` comparison is: its settings, its output files, and its record.

`config.json` in `--out` records the settings a run used; a later run into the
same directory must share the settings that change what an episode means
(`FIXED_KEYS`), or the two would be mixed in one summary.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from graph.errors import AgentError
from graph.evaluation.methods import GRAPH_STYLES, METHODS, RunSettings
from graph.settings.context import DEFAULT_MODEL
from graph.settings.validation import RULES

EPISODES_FILE = "episodes.jsonl"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"
CONFIG_FILE = "config.json"
DEFAULT_OUT = Path("runs/qa")
SERVER_METHODS = tuple(GRAPH_STYLES)
PACKAGES = ("langgraph", "langchain-core", "react-evidence-agent")
FIXED_KEYS = (
    "model",
    "data",
    "sample_seed",
    "temperature",
    "max_steps",
    "max_tokens",
    "source",
    "prompts_sha256",
)
# bench options that become an agent setting, checked by the agent's own rules
AGENT_SETTINGS = {
    "model": "model",
    "temperature": "temperature",
    "max_tokens": "max_tokens",
    "max_steps": "max_model_turns",
}
MISMATCH = (
    "{out} holds a run with different settings ({changes}); episodes from different "
    "settings must not be mixed: use another --out, or the same settings to resume it"
)


class BenchError(AgentError):
    """The comparison cannot run as asked (bad options, conflicting earlier run)."""


def default_model() -> str:
    """`$REACT_AGENT_MODEL`, else the project's default chat model."""
    return os.environ.get("REACT_AGENT_MODEL", DEFAULT_MODEL)


MAX_SEEDS = 1_000
MAX_WORKERS = 64  # forked at once, however few episodes there are


@dataclass
class BenchConfig:
    """One comparison: the fixed conditions, the methods, and where results go."""

    out: Path = DEFAULT_OUT
    model: str = field(default_factory=default_model)
    methods: tuple[str, ...] = METHODS
    data: Path | None = None
    n: int | None = 50
    sample_seed: int = 0
    seeds: int = 3
    temperature: float = 0.0
    max_steps: int = 8
    max_tokens: int = 512
    source: Literal["snapshot", "live"] = "snapshot"
    concurrency: int = 4
    retries: int = 6
    backoff_s: float = 2.0
    max_backoff_s: float = 60.0
    note: str = ""
    workers: int = 0
    db: str | None = None
    server: str = ""

    def run_key(self) -> str:
        """What names this run's episodes in a shared store or on a server: its `--out`."""
        return str(self.out.resolve())

    def settings(self) -> RunSettings:
        """The conditions every method shares."""
        return RunSettings(
            model=self.model,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            max_steps=self.max_steps,
            source=self.source,
        )

    def check(self) -> None:
        """Refuse options that cannot give a meaningful run."""
        for method in self.methods:
            if method not in METHODS:
                raise BenchError(f"unknown method {method!r}: choose from {', '.join(METHODS)}")
        if not self.methods:
            raise BenchError("--methods names no method")
        repeated = sorted({method for method in self.methods if self.methods.count(method) > 1})
        if repeated:
            raise BenchError(f"--methods names {', '.join(repeated)} more than once")
        try:
            if self.out.exists() and not self.out.is_dir():
                raise BenchError(
                    f"--out {self.out} is not a directory; give a directory for the run"
                )
        except OSError as error:  # a name too long
            raise BenchError(f"--out: cannot use {self.out}: {error.strerror}") from None
        for name in ("seeds", "max_steps", "max_tokens", "concurrency", "retries"):
            if getattr(self, name) < 1:
                raise BenchError(f"--{name.replace('_', '-')} must be at least 1")
        if self.workers < 0:
            raise BenchError("--workers must be at least 1 (or 0: episodes on threads)")
        for name, most in (("seeds", MAX_SEEDS), ("workers", MAX_WORKERS)):
            if getattr(self, name) > most:  # a typo: an endless task list, a fork bomb
                raise BenchError(f"--{name} may be at most {most:,}")
        if self.workers and self.server:
            raise BenchError("--workers and --server exclude each other: the server has workers")
        if self.db and not self.workers:
            raise BenchError("--db is the store the --workers processes share; give --workers")
        agent_only = [method for method in self.methods if method not in SERVER_METHODS]
        if self.server and agent_only:
            raise BenchError(
                f"--server runs the agent's episodes; {', '.join(agent_only)} "
                f"run no agent: use --methods {','.join(SERVER_METHODS)}"
            )
        if self.n is not None and self.n < 1:
            raise BenchError("--n must be at least 1 (or 0: all questions)")
        if self.source not in ("snapshot", "live"):
            raise BenchError(f"--source must be 'snapshot' or 'live', not {self.source!r}")
        for option, setting in AGENT_SETTINGS.items():
            problem = RULES[setting](getattr(self, option))
            if problem:
                raise BenchError(f"--{option.replace('_', '-')}: {problem}")


def versions() -> dict[str, str | None]:
    """The versions of the packages that shape an episode, and of Python."""
    found: dict[str, str | None] = {}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            found[package] = None
    return found | {"python": sys.version.split()[0]}


UNREADABLE_RECORD = "{path} is not a run record ({problem}); remove it, or give another --out"


def save_record(out: Path, record: Mapping[str, Any]) -> None:
    """Write `config.json`, unless `out` holds a run whose fixed settings differ."""
    path = out / CONFIG_FILE
    if path.exists():
        earlier = _earlier_record(path)
        changes = [
            f"{key}: {earlier.get(key)!r} then, {record[key]!r} now"
            for key in FIXED_KEYS
            if earlier.get(key) != record[key]
        ]
        if changes:
            raise BenchError(MISMATCH.format(out=out, changes="; ".join(changes)))
    draft = path.with_name(path.name + ".tmp")
    draft.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    os.replace(draft, path)


def _earlier_record(path: Path) -> dict[str, Any]:
    """The `config.json` an earlier run left; `BenchError` if it cannot be one."""
    try:
        earlier = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        problem = getattr(error, "strerror", None) or error
        raise BenchError(UNREADABLE_RECORD.format(path=path, problem=problem)) from None
    if not isinstance(earlier, dict):
        problem = f"a JSON {type(earlier).__name__}, not an object"
        raise BenchError(UNREADABLE_RECORD.format(path=path, problem=problem))
    return earlier


def check_output_file(path: Path, option: str, what: str) -> None:
    """Refuse, before any work runs, a path that cannot be written as a file (a directory,
    a name too long, a parent that cannot be made), in one line naming `option`."""
    try:
        if path.is_dir():
            raise BenchError(f"{option} {path} is a directory; give a file for {what}")
    except OSError as error:  # a name too long
        raise BenchError(f"{option}: cannot use {path}: {error.strerror}") from None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise BenchError(f"{option}: cannot create {path.parent}: {error.strerror}") from None
