"""`adelete_for_runs` for the server's savers: find one run's rows, check the rules of
`graph.store.rollback`, delete them and bring the thread registry back to the restored
head. The savers (`graph.store.aio`, `graph.store.pg_rollback`) only read and delete rows."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any, cast

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
)

from graph.errors import ThreadDeletedError
from graph.store.copies import copy_thread
from graph.store.locations import metadata_without_passwords
from graph.store.resume_guard import named_decision, refused_decision
from graph.store.rollback import (
    PROPOSAL,
    RollbackRefusedError,
    RunLog,
    RunRows,
    in_worker_of,
    refuse_unless_safe,
    restore_registry,
    run_of,
)
from graph.store.server_runs import SERVER_RUNS

LOG = logging.getLogger(__name__)
REQUEST_WAIT_S = 30.0
PRUNE_STRATEGIES = ("keep_latest", "delete")
DELETED = (
    "thread {thread_id} was deleted while this run ran: its checkpoint {parent} is gone,"
    " so nothing more of the run is stored"
)


def group_rows(
    run_id: str,
    checkpoints: Sequence[tuple[str, str, str, str | None]],
    noted: Sequence[tuple[str, str, str, str, int, str]],
) -> list[RunRows]:
    """A run's rows by thread and namespace, from its checkpoints (thread, namespace,
    checkpoint id, parent id) and its noted writes (thread, namespace, checkpoint id,
    task id, idx, channel)."""
    groups: dict[tuple[str, str], RunRows] = {}
    parents: dict[tuple[str, str], dict[str, str | None]] = {}
    for thread_id, ns, checkpoint_id, parent_id in checkpoints:
        key = (str(thread_id), str(ns))
        groups.setdefault(key, RunRows(run_id, *key)).checkpoint_ids.append(str(checkpoint_id))
        parents.setdefault(key, {})[str(checkpoint_id)] = parent_id
    for thread_id, ns, checkpoint_id, task_id, idx, channel in noted:
        key = (str(thread_id), str(ns))
        rows = groups.setdefault(key, RunRows(run_id, *key))
        rows.noted.append((str(checkpoint_id), str(task_id), int(idx), str(channel)))
    for key, rows in groups.items():
        if rows.checkpoint_ids:
            first = min(rows.checkpoint_ids)  # ids are time-ordered (uuid6)
            parent = parents[key][first]
            rows.start_id = str(parent) if parent else None
        elif rows.noted:
            rows.start_id = rows.noted[0][0]
    return list(groups.values())


def checkpoint_key(config: RunnableConfig) -> tuple[Any, Any, Any]:
    """(thread id, namespace, checkpoint id) of the checkpoint `config` names."""
    configurable = config.get("configurable") or {}
    return (
        configurable.get("thread_id"),
        configurable.get("checkpoint_ns", ""),
        configurable.get("checkpoint_id"),
    )


COPYING: ContextVar[bool] = ContextVar("copying", default=False)
"""Set while `acopy_thread` stores a copy: its checkpoints pass the run guards of `aput`."""


class RollsBackRuns(BaseCheckpointSaver[str]):
    """`adelete_for_runs` for a saver that can note a run's writes on older checkpoints
    (`_note`), read (`_run_rows`) and delete (`_delete_run_rows`) one run's rows."""

    run_log: RunLog

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        """Store the checkpoint (a rolled-back run's is dropped, but not a copy of it: a
        copy's checkpoints keep the metadata of the run that made them), its metadata
        without the password of a URL the run's context named."""
        kept = cast(CheckpointMetadata, metadata_without_passwords(metadata))
        if COPYING.get():
            return await super().aput(config, checkpoint, kept, new_versions)
        if self.run_log.dropped(config, metadata):
            return config
        await self._refuse_if_deleted(config)
        self.run_log.seen(run_of(config))
        return await super().aput(config, checkpoint, kept, new_versions)

    async def _refuse_if_deleted(self, config: RunnableConfig) -> None:
        """Refuse a checkpoint whose parent is gone: its thread was deleted (`threads.delete`)
        while a run was on it, and storing the run's later steps would bring back half a
        thread, without its question or first steps. Its registry row, which the run's
        node may have written again, goes too."""
        configurable = config.get("configurable") or {}
        parent = configurable.get("checkpoint_id")
        if not parent or await self._has_checkpoint(config):
            return
        thread_id = str(configurable.get("thread_id", ""))
        registry = getattr(self, "thread_registry", None)
        head = await self.aget_tuple({"configurable": {"thread_id": thread_id}})
        if registry is not None and head is None:
            await asyncio.to_thread(registry.forget, thread_id)
        raise ThreadDeletedError(DELETED.format(thread_id=thread_id, parent=parent))

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        """Store the writes, noting first those a run puts on a checkpoint it did not make
        (a rolled-back run's are dropped); a decision for a request nothing waits on is
        refused (`graph.store.resume_guard`)."""
        if self.run_log.dropped(config):
            return
        named = named_decision(writes, task_id)
        if named is not None:
            thread_id = str((config.get("configurable") or {}).get("thread_id", ""))
            refused = refused_decision(await self.aget_tuple(config), thread_id, named)
            if refused is not None:
                raise refused
        noted = self.run_log.foreign_rows(config, writes, task_id)
        if noted:
            await self._note(noted)
        await super().aput_writes(config, writes, task_id, task_path)

    async def adelete_thread(self, thread_id: str) -> None:
        """Delete the thread's checkpoints and writes, its noted writes and its registry row
        (else `react-agent threads` went on listing it); a run on the thread ends."""
        await asyncio.to_thread(SERVER_RUNS.thread_deleted, str(thread_id))
        await super().adelete_thread(thread_id)
        await self._forget_thread(str(thread_id))
        registry = getattr(self, "thread_registry", None)
        if registry is not None:
            await asyncio.to_thread(registry.forget, str(thread_id))

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copy a thread (`threads.copy`) as a new one, registered, with its pending request
        under its own id; checkpoints and writes are stored past this class's run guards
        (`graph.store.copies`)."""
        copying = COPYING.set(True)
        try:
            await copy_thread(
                self, str(source_thread_id), str(target_thread_id), super().aput_writes
            )
        finally:
            COPYING.reset(copying)

    async def aprune(self, thread_ids: Sequence[str], *, strategy: str = "keep_latest") -> None:
        """Prune threads (langgraph-api's thread TTLs): `delete` deletes each as
        `adelete_thread` does; `keep_latest` keeps each namespace's latest checkpoint and
        its writes (`_keep_latest`)."""
        if isinstance(thread_ids, str):
            raise TypeError("thread_ids must be a sequence of thread ids, not a str")
        if strategy not in PRUNE_STRATEGIES:
            raise ValueError(f"unknown prune strategy {strategy!r}; use one of {PRUNE_STRATEGIES}")
        ids = [str(thread_id) for thread_id in thread_ids]
        if strategy == "delete":
            for thread_id in ids:
                await self.adelete_thread(thread_id)
        elif ids:
            await self._keep_latest(ids)

    async def _keep_latest(self, thread_ids: list[str]) -> None:
        """`aprune(strategy="keep_latest")` of the saver this class is mixed into."""
        await super().aprune(thread_ids, strategy="keep_latest")

    async def _note(self, rows: list[tuple[Any, ...]]) -> None:
        """Add rows to the `run_writes` table."""
        raise NotImplementedError

    async def _forget_thread(self, thread_id: str) -> None:
        """Delete the thread's rows of the `run_writes` table."""
        raise NotImplementedError

    async def _has_checkpoint(self, config: RunnableConfig) -> bool:
        """Whether the checkpoint `config` names is stored."""
        raise NotImplementedError

    async def _run_rows(self, run_id: str) -> list[RunRows]:
        """The run's rows by thread and namespace (proposals and children filled in)."""
        raise NotImplementedError

    async def _delete_run_rows(self, rows: RunRows) -> None:
        """Delete the run's checkpoints, their writes and its noted writes, in one transaction."""
        raise NotImplementedError

    async def _proposal_at(self, rows: RunRows) -> Any:
        """The `proposal` value at the checkpoint the run started from (None if none)."""
        if rows.start_id is None:
            return None
        config: RunnableConfig = {
            "configurable": {
                "thread_id": rows.thread_id,
                "checkpoint_ns": rows.checkpoint_ns,
                "checkpoint_id": rows.start_id,
            }
        }
        history = (await self.aget_delta_channel_history(config=config, channels=[PROPOSAL]))[
            PROPOSAL
        ]
        if history.get("writes"):
            return history["writes"][-1][2]
        return history.get("seed")

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Delete the runs' checkpoints and writes, leaving their threads as before them.

        A run that must not be rolled back (see the module) keeps everything. The refusal
        is raised for the API request that asks for the rollback, and only logged in the
        run's own worker task (langgraph-api's clean-up after the run's stream, where an
        error would leave the run marked running and its thread blocked). The worker task
        lets the request's call finish first: both then delete the run's record, and the
        request, if second, would answer the client 404 for a rollback that was done."""
        wanted = list(dict.fromkeys(str(run_id) for run_id in run_ids))
        asked = [run_id for run_id in wanted if not in_worker_of(run_id)]
        if len(asked) < len(wanted):
            await asyncio.to_thread(REQUESTS.wait_for_none, wanted, REQUEST_WAIT_S)
        REQUESTS.enter(asked)
        try:
            await self._delete_for_runs(wanted)
        finally:
            REQUESTS.leave(asked)
            for run_id in wanted:
                for thread_id in SERVER_RUNS.rollback_done(run_id):
                    await asyncio.to_thread(SERVER_RUNS.release_ended, thread_id, run_id)

    async def _delete_for_runs(self, wanted: list[str]) -> None:
        plans: list[RunRows] = []
        for run_id in wanted:
            found = await self._run_rows(run_id)
            try:
                for rows in found:
                    refuse_unless_safe(rows, await self._proposal_at(rows))
            except RollbackRefusedError as refused:
                if not in_worker_of(run_id):
                    raise
                LOG.warning("%s", refused)
                continue
            plans.extend(found)
        for rows in plans:
            self.run_log.rolled_back(rows.run_id)
            await self._delete_run_rows(rows)
        await restore_registry(self, {rows.thread_id for rows in plans})


class RollbackRequests:
    """The runs whose rollback an API request of this process is carrying out now."""

    def __init__(self) -> None:
        self._running: Counter[str] = Counter()
        self._changed = threading.Condition()

    def enter(self, run_ids: list[str]) -> None:
        with self._changed:
            self._running.update(run_ids)

    def leave(self, run_ids: list[str]) -> None:
        with self._changed:
            self._running.subtract(run_ids)
            self._changed.notify_all()

    def wait_for_none(self, run_ids: list[str], timeout_s: float) -> bool:
        """Wait until no request is rolling these runs back; False on timeout."""
        with self._changed:
            return self._changed.wait_for(
                lambda: all(self._running[run_id] <= 0 for run_id in run_ids), timeout_s
            )


REQUESTS = RollbackRequests()
