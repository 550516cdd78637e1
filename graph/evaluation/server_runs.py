"""`bench qa --server URL`: the agent episodes as runs on a LangGraph server.

Every pending episode is submitted first (a thread with a fixed id, derived as
for `--workers`, and a background run on it), so the server's own queue holds
them all and spreads them over its workers; then the runs are awaited and each
finished episode is read back from the thread's state and logged. Resumable
twice over: the log skips the episodes that finished, and a thread the server
already holds is not run again when it finished, is awaited when a run is
still in flight, and is continued from its last checkpoint when it stopped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graph.episodes.runner import local_actor, settings_of
from graph.evaluation.harness import EpisodeTask, QABench
from graph.evaluation.methods import error_outcome, graph_outcome
from graph.evaluation.scheduler import run_all
from graph.evaluation.stored import UNFINISHED, episode_thread_id
from graph.remote.client import connect, talking_to
from graph.remote.episodes import outcome, read_state, run_config, thread_metadata
from graph.settings.durability import durability_of

ENV = "wikipedia"
IN_FLIGHT = ("pending", "running")
RUN_FAILED = "server_run_failed: {error}: {message}"


@dataclass(frozen=True)
class Submitted:
    """An episode handed to the server: its thread, and the run to wait for (None when
    the thread already holds the finished episode)."""

    task: EpisodeTask
    thread_id: str
    run_id: str | None


class ServerEpisodes:
    """Submits a comparison's agent episodes to the server, and collects them."""

    def __init__(self, bench: QABench) -> None:
        self.bench = bench
        self.client = connect(bench.config.server)
        self.run_key = bench.config.run_key()
        self.actor = local_actor("bench")

    def submit(self, task: EpisodeTask) -> Submitted:
        """Create the episode's thread (once) and a run on it, unless it finished or runs."""
        question = task.question["question"]
        ctx = self.bench.settings.context(task.method)
        thread_id = episode_thread_id(self.run_key, task.method, question, task.seed)
        metadata = thread_metadata(ENV, question) | {"bench_key": task.key}
        client = self.client
        with talking_to(client, thread_id):
            client.threads.create(
                thread_id=thread_id, graph_id=ENV, metadata=metadata, if_exists="do_nothing"
            )
            for run in client.runs.list(thread_id, limit=10):
                if run["status"] in IN_FLIGHT:
                    return Submitted(task, thread_id, str(run["run_id"]))
        state = read_state(client, thread_id)
        status = state.values.get("status", "running")
        if state.values and status not in UNFINISHED and not state.next:
            return Submitted(task, thread_id, None)
        value: dict[str, Any] | None = None
        if not state.values:
            value = {"question": question, "settings": settings_of(ENV, ctx)}
        config: Any = run_config(ctx, self.actor)
        with talking_to(client, thread_id):
            if status == "error":
                restart = {"status": "running", "stop_reason": ""}
                client.threads.update_state(thread_id, restart, as_node="observe")
            run = client.runs.create(
                thread_id,
                ENV,
                input=value,
                config=config,
                multitask_strategy="enqueue",
                durability=durability_of(ENV, ctx),
            )
        return Submitted(task, thread_id, str(run["run_id"]))

    def wait(self, item: Submitted) -> dict[str, Any]:
        """The episode's record, once its run is done."""
        finished: Any = None
        if item.run_id is not None:
            with talking_to(self.client, item.thread_id):
                finished = self.client.runs.join(item.thread_id, item.run_id)
        failure = finished.get("__error__") if isinstance(finished, Mapping) else None
        if failure:
            error = failure.get("error", "") if isinstance(failure, Mapping) else ""
            message = failure.get("message", failure) if isinstance(failure, Mapping) else failure
            found = error_outcome(RUN_FAILED.format(error=error, message=message))
            return self.bench.record(item.task, found, 0.0, 0)
        result = outcome(self.client, item.thread_id, item.task.question["question"])
        return self.bench.record(item.task, graph_outcome(result), result["elapsed_s"], 0)


def run_on_server(bench: QABench, pending: Sequence[EpisodeTask], done: int) -> None:
    """Submit every pending episode, then wait for them, logging each as it finishes."""
    episodes = ServerEpisodes(bench)
    submitted = [episodes.submit(task) for task in pending]
    run_all(
        submitted,
        episodes.wait,
        bench.config.concurrency,
        done,
        bench.progress,
        on_result=bench.log.append,
    )
