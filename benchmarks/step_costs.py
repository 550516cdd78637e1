"""Where a SQLite tour's time goes: wall-clock time per call of the graph's parts.

Usage: python benchmarks/step_costs.py [--steps 40] [--episodes 20] [--json]

Runs `--episodes` tours of each member of `bench_vs_prebuilt.py` (ours, the
floor, the bare graph and LangGraph's `create_agent`) on a fresh SQLite file
each, the members taking turns, in one process, with a timer around each part
listed in `PARTS`: the thread guard and our nodes, the model call, the
conditional edges, the saver's `put` and `put_writes` (LangGraph runs them in
a background thread, and `durability="sync"` waits for them), zlib, and
LangGraph's superstep bookkeeping. Prints ms per step and calls per step of
each part for each member, or with `--json` `{"members": {member: {"episode_ms_per_step",
"parts": {part: {"ms_per_step", "calls_per_step"}}}}}`.

Timers nest (a node's time includes the model call's) and cost about a
microsecond a call; parts a member never calls are left out of its row. A
part's time inside the graph is often several times what the same call takes
in a tight loop (caches are cold between two calls a step apart).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph._branch import BranchSpec
from langgraph.pregel._loop import PregelLoop
from prebuilt_runs import run_one

import graph.core.nodes
import graph.store.serde
from graph.core.nodes import Nodes
from graph.core.thread_guard import ThreadGuard
from graph.testing import tour_replies

MEMBERS = ("project", "floor", "bare", "anchor")
# (label, owner, attribute): the owner's attribute is replaced by a timed wrapper.
PARTS: tuple[tuple[str, Any, str], ...] = (
    ("guard + node", ThreadGuard, "run"),
    ("node + settings binding + registry", ThreadGuard, "_run_node"),
    ("reason", Nodes, "reason"),
    ("reason: validate_run", graph.core.nodes, "validate_run"),
    ("reason: build_messages", graph.core.nodes, "build_messages"),
    ("reason: propose", graph.core.nodes, "propose"),
    ("model call (BaseChatModel.invoke)", BaseChatModel, "invoke"),
    ("act", Nodes, "act"),
    ("observe", Nodes, "observe"),
    ("verify", Nodes, "verify"),
    ("conditional edges (BranchSpec._route)", BranchSpec, "_route"),
    ("saver put", SqliteSaver, "put"),
    ("saver put_writes", SqliteSaver, "put_writes"),
    ("zlib.compress (saver thread)", graph.store.serde.zlib, "compress"),
    ("LangGraph loop tick", PregelLoop, "tick"),
    ("LangGraph loop after_tick", PregelLoop, "after_tick"),
    ("LangGraph _put_checkpoint", PregelLoop, "_put_checkpoint"),
)


class Timers:
    """Seconds and calls per part, charged to the member currently running."""

    def __init__(self) -> None:
        self.member: str | None = None
        self.seconds: dict[str, defaultdict[str, float]] = {
            member: defaultdict(float) for member in MEMBERS
        }
        self.calls: dict[str, Counter[str]] = {member: Counter() for member in MEMBERS}

    def timed(self, label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        """`function` with its wall-clock time charged to `label`."""

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            member = self.member
            if member is None:
                return function(*args, **kwargs)
            started = time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                self.seconds[member][label] += time.perf_counter() - started
                self.calls[member][label] += 1

        return wrapper

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Every part of `PARTS` timed within the block, restored after."""
        saved = [(owner, name, vars(owner)[name]) for _, owner, name in PARTS]
        try:
            for label, owner, name in PARTS:
                setattr(owner, name, self.timed(label, getattr(owner, name)))
            yield
        finally:
            for owner, name, original in saved:
                setattr(owner, name, original)


def measure(steps: int, episodes: int, workdir: Path) -> dict[str, Any]:
    """Each member's episode ms per step and its parts' ms and calls per step."""
    replies = tour_replies(steps)
    for member in MEMBERS:
        run_one(member, "sqlite", tour_replies(4), workdir / f"warm-{member}.sqlite3", "sync")
    timers = Timers()
    wall: defaultdict[str, float] = defaultdict(float)
    with timers.installed():
        for episode in range(episodes):
            order = MEMBERS if episode % 2 == 0 else MEMBERS[::-1]
            for member in order:
                timers.member = member
                try:
                    db = workdir / f"{member}-{episode}"
                    sample = run_one(member, "sqlite", replies, db, "sync")
                finally:
                    timers.member = None
                wall[member] += sample.wall_s
    per_step = 1000 / (episodes * steps)
    return {
        member: {
            "episode_ms_per_step": wall[member] * per_step,
            "parts": {
                label: {
                    "ms_per_step": timers.seconds[member][label] * per_step,
                    "calls_per_step": timers.calls[member][label] / (episodes * steps),
                }
                for label, _, _ in PARTS
                if timers.calls[member][label]
            },
        }
        for member in MEMBERS
    }


def print_table(members: dict[str, Any], steps: int, episodes: int) -> None:
    print(f"ms per step (calls per step), {episodes} episodes of {steps} steps per member:")
    print(f"{'':40}" + "".join(f"{member:>16}" for member in MEMBERS))
    episode = "".join(f"{members[m]['episode_ms_per_step']:>16.3f}" for m in MEMBERS)
    print(f"{'episode':40}{episode}")
    for label, _, _ in PARTS:
        cells = []
        for member in MEMBERS:
            part = members[member]["parts"].get(label)
            cell = f"{part['ms_per_step']:.3f} ({part['calls_per_step']:.2f})" if part else "-"
            cells.append(f"{cell:>16}")
        print(f"{label:40}" + "".join(cells))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40, help="steps per episode")
    parser.add_argument("--episodes", type=int, default=20, help="episodes per member")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.steps < 2 or args.episodes < 1:
        parser.error("--steps must be at least 2 and --episodes at least 1")
    with tempfile.TemporaryDirectory(prefix="step-costs-") as workdir:
        members = measure(args.steps, args.episodes, Path(workdir))
    if args.json:
        print(json.dumps({"members": members}))
    else:
        print_table(members, args.steps, args.episodes)
    return 0


if __name__ == "__main__":
    sys.exit(main())
