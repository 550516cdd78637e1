"""Agent episodes kept in the checkpoint store of `--db` (`bench qa --workers N`).

Each episode of a comparison has a fixed thread id, derived from the run
(its `--out`), the component, the seed and the question, so any process that
shares the store finds it: a finished episode is read back instead of run
again, and one stopped half-way (its process killed) is resumed from its
last checkpoint. The thread's lease keeps two processes from driving it at
once; a process that finds it held waits for the holder (or for the lease of
a dead one to be taken over).
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from graph.episodes.resuming import resume_episode
from graph.episodes.runner import Agent, episode_result, open_checkpointer, thread_exists
from graph.episodes.starting import run_episode
from graph.errors import LeaseHeldError
from graph.evaluation.methods import MethodRunner, ModelFactory, RunSettings, graph_outcome
from graph.evaluation.rate_limits import RateLimited, is_rate_limit_text
from graph.settings.context import Context
from graph.store.leases import LEASE_TTL_S
from graph.store.locations import checkpoint_location

BENCH_THREADS = uuid.UUID("6f1c2a52-8a57-4d0e-9f3c-0b5e7c1d2a90")
UNFINISHED = ("running", "error")
LEASE_POLL_S = 0.5


def episode_thread_id(run_key: str, component: str, question: str, seed: int) -> str:
    """The thread id of one episode of the run `run_key` (the same in every process)."""
    name = json.dumps([run_key, component, seed, question], ensure_ascii=False)
    return str(uuid.uuid5(BENCH_THREADS, name))


def open_store(db: str | None) -> Any:
    """The checkpoint saver of the store `--db` names (an SQLite file or a `postgresql://`
    URL; default: `$REACT_AGENT_DB` or the user's own), a context manager that closes it."""
    return open_checkpointer(checkpoint_location(db))


def stored_episode(
    agent: Agent, thread_id: str, question: str, ctx: Context, wait_s: float = 2 * LEASE_TTL_S
) -> dict[str, Any]:
    """The episode's result: read back if it finished, resumed if it stopped, else run."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            if not thread_exists(agent, thread_id):
                return run_episode(agent, question, ctx, thread_id)
            result = episode_result(agent, thread_id)
            if result["status"] in UNFINISHED:
                return resume_episode(agent, thread_id)
            return result
        except LeaseHeldError:
            if time.monotonic() > deadline:
                raise
            time.sleep(LEASE_POLL_S)


class StoredMethodRunner(MethodRunner):
    """A `MethodRunner` whose agent episodes live in the shared store, under fixed ids."""

    def __init__(
        self,
        settings: RunSettings,
        model_for: ModelFactory,
        model_backoff_s: float,
        *,
        db: str | None,
        run_key: str,
    ) -> None:
        super().__init__(settings, model_for, model_backoff_s)
        self.db = db
        self.run_key = run_key
        self._store: BaseCheckpointSaver[Any] | None = None

    def checkpointer(self) -> BaseCheckpointSaver[Any]:
        """The shared store, opened once per process (on first use)."""
        if self._store is None:
            self._store = open_store(self.db)
        return self._store

    def run_graph(self, component: str, question: str, seed: int) -> dict[str, Any]:
        """One agent episode in the store; raises `RateLimited` if the model was rate-limited
        (the episode stays stored, ended in an error, and is resumed when run again)."""
        agent, _ = self.agent(component, seed)
        thread_id = episode_thread_id(self.run_key, component, question, seed)
        ctx = self.settings.context(component)
        result = stored_episode(agent, thread_id, question, ctx)
        if result["status"] == "error" and is_rate_limit_text(result["stop_reason"]):
            raise RateLimited(result["stop_reason"])
        return graph_outcome(result)
