"""Check the README's terminal transcripts against real runs.

A transcript is a ```console block: lines starting with `$ ` are commands,
the lines after one are its expected output (stdout, then stderr). In the
expected output a line `...` stands for any number of lines, and a line that
ends with `...` for any line that starts with the text before it. `echo $?`
prints the previous command's exit status. Only volatile values are
normalised: UUIDs (thread and checkpoint ids), approval request ids, ISO times with a UTC offset
(evidence retrieval times) and the state directory; a UUID the README shows is
mapped to the one the real run printed in the same place, so later commands
that name it (`react-agent resume ID`) act on the real thread.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

ELLIPSIS = "..."
UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
REQUEST_ID = re.compile(r"\bR[0-9a-f]{12}\b")
OFFSET_TIME = re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?[+-]\d\d:\d\d\b")
README_STATE_DIR = "~/.local/state"
PROGRAMS = ("react-agent", ".venv/bin/react-agent")
_BLOCK = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass
class Step:
    """One command of a transcript and the output the README shows for it."""

    command: str
    expected: list[str] = field(default_factory=list)


def transcripts(markdown: str) -> list[list[Step]]:
    """Every ```console block of a Markdown text, as steps."""
    found = []
    for block in _BLOCK.findall(markdown):
        steps: list[Step] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append(Step(line[2:]))
            elif steps:
                steps[-1].expected.append(line)
        found.append(steps)
    return found


def normalise(line: str, state_dir: str = "") -> str:
    """The line with volatile values replaced by placeholders."""
    if state_dir:
        line = line.replace(state_dir, README_STATE_DIR)
    line = REQUEST_ID.sub("<request>", line)
    return OFFSET_TIME.sub("<time>", UUID.sub("<uuid>", line))


def _line_matches(expected: str, actual: str) -> bool:
    if expected == actual:
        return True
    return expected.endswith(ELLIPSIS) and actual.startswith(expected[: -len(ELLIPSIS)])


def align(expected: Sequence[str], actual: Sequence[str]) -> list[tuple[int, int]] | None:
    """Pairs (expected line, actual line) of a match, `...` lines skipped; None if none."""

    @cache
    def match(i: int, j: int) -> tuple[tuple[int, int], ...] | None:
        if i == len(expected):
            return () if j == len(actual) else None
        if expected[i] == ELLIPSIS:
            for k in range(j, len(actual) + 1):
                rest = match(i + 1, k)
                if rest is not None:
                    return rest
            return None
        if j < len(actual) and _line_matches(expected[i], actual[j]):
            rest = match(i + 1, j + 1)
            return None if rest is None else ((i, j), *rest)
        return None

    pairs = match(0, 0)
    return None if pairs is None else list(pairs)


def program() -> list[str]:
    """The installed `react-agent` script next to this interpreter, else `python -m`."""
    script = Path(sys.executable).parent / "react-agent"
    return [str(script)] if script.exists() else [sys.executable, "-m", "graph.cli"]


@dataclass
class Session:
    """Runs a transcript's commands in `cwd` with `env`, tracking ids and exit status."""

    cwd: Path
    env: Mapping[str, str]
    state_dir: str
    ids: dict[str, str] = field(default_factory=dict)
    status: int = 0

    def run(self, step: Step) -> list[str]:
        """Run one step; returns its real output lines."""
        if step.command.strip() == "echo $?":
            return [str(self.status)]
        words = shlex.split(UUID.sub(lambda m: self.ids.get(m[0], m[0]), step.command))
        if words[0] not in PROGRAMS:
            raise AssertionError(f"a README transcript runs only react-agent: {step.command}")
        done = subprocess.run(
            [*program(), *words[1:]],
            cwd=self.cwd,
            env=dict(self.env),
            capture_output=True,
            text=True,
            timeout=300,
        )
        self.status = done.returncode
        return (done.stdout + done.stderr).splitlines()

    def check(self, step: Step, actual: Sequence[str]) -> str:
        """'' when the output matches the README, else a report of the difference."""
        wanted = [normalise(line) for line in step.expected]
        got = [normalise(line, self.state_dir) for line in actual]
        pairs = align(wanted, got)
        if pairs is None:
            shown = "\n".join(f"  | {line}" for line in actual)
            expected = "\n".join(f"  | {line}" for line in step.expected)
            return f"$ {step.command}\nREADME shows:\n{expected}\nthe run printed:\n{shown}"
        for i, j in pairs:
            for readme_id, real_id in zip(
                UUID.findall(step.expected[i]), UUID.findall(actual[j]), strict=True
            ):
                known = self.ids.setdefault(readme_id, real_id)
                if known != real_id:
                    return f"$ {step.command}\nthe README's id {readme_id} stands for two ids"
        return ""
