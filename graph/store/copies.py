"""`acopy_thread` for the server's savers: `threads.copy` makes a new thread of its own.

langgraph-api copies a thread with the saver's `acopy_thread` (else with a
generic replay of `aput` / `aput_writes`). A copy is a new episode:

- **Listed.** It gets a row in the thread registry (the original's environment
  and question, the status its head stands for), so `react-agent threads`
  lists it on every database.
- **Its own approval request.** A request id derives from the thread and the
  `review` task (`graph.store.resume_guard.request_id_for`), so the copy's `review`
  asks under a new id. The pending interrupt is stored with that id, so the
  id the copy shows is the one it takes (it used to show the original's, which
  the copy refused as another thread's request). A refusal the original was
  asked again with (`error`) names the copy and its request, as the copy's
  `review` would when it runs again.
- **The original's runs stay the original's.** Checkpoints keep their metadata,
  which names the run and thread that made them: a rollback (or `runs.delete`)
  of that run touches its own thread only, not the copy's checkpoints of it,
  and a copy that has gone on from them does not block it.
- **Stored, not run.** Checkpoints and writes are stored as they were, past the
  run guards of `graph.store.rollback_saver`: a copied decision answers its
  copied request (the guard refused it, failing the copy of any thread resumed
  once), and a copied checkpoint of a run rolled back since is kept (the guard
  dropped it, so a copy of a copy made during that run came out half made).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Interrupt

from graph.store.resume_guard import INTERRUPT, request_id_for
from graph.store.rollback import status_at

PutWrites = Callable[[RunnableConfig, Sequence[tuple[str, Any]], str], Awaitable[None]]


def renamed_requests(value: Any, source: str, target: str, task_id: str) -> Any:
    """An `__interrupt__` write's value with the source's approval request id of `task_id`
    replaced by the target's, in the request and in its `error` (a refusal names the thread
    and the request it waits on); other interrupts as they were."""
    if not isinstance(value, (list, tuple)):
        return value
    old, new = request_id_for(source, task_id), request_id_for(target, task_id)
    items = []
    for item in value:
        payload = item.value if isinstance(item, Interrupt) else None
        if isinstance(payload, Mapping) and payload.get("request_id") == old:
            renamed = {**payload, "request_id": new}
            if isinstance(payload.get("error"), str):
                renamed["error"] = payload["error"].replace(source, target).replace(old, new)
            item = Interrupt(value=renamed, id=item.id)
        items.append(item)
    return type(value)(items)


async def copy_thread(
    saver: BaseCheckpointSaver[str], source: str, target: str, put_writes: PutWrites
) -> None:
    """Copy every checkpoint and write of `source` to `target` (parents first), writes
    through `put_writes`, then register `target` in the saver's thread registry."""
    found = [item async for item in saver.alist({"configurable": {"thread_id": source}})]
    found.sort(key=lambda item: str(item.config["configurable"]["checkpoint_id"]))
    for item in found:
        configurable: dict[str, Any] = {
            "thread_id": target,
            "checkpoint_ns": item.config["configurable"].get("checkpoint_ns", ""),
        }
        parent = (item.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        if parent:
            configurable["checkpoint_id"] = parent
        stored = await saver.aput(
            {"configurable": configurable},
            item.checkpoint,
            item.metadata,
            item.checkpoint.get("channel_versions", {}),
        )
        by_task: dict[str, list[tuple[str, Any]]] = {}
        for task_id, channel, value in item.pending_writes or ():
            if channel == INTERRUPT:
                value = renamed_requests(value, source, target, task_id)
            by_task.setdefault(task_id, []).append((channel, value))
        for task_id, writes in by_task.items():
            await put_writes(stored, writes, task_id)
    await register_copy(saver, source, target)


async def register_copy(saver: BaseCheckpointSaver[str], source: str, target: str) -> None:
    """Give the copy a registry row: the source's environment and question (else its
    head's), the status the copy's head stands for."""
    registry = getattr(saver, "thread_registry", None)
    if registry is None:
        return
    head = await saver.aget_tuple({"configurable": {"thread_id": target}})
    status = status_at(head)
    if head is None or status is None:
        return
    row = await asyncio.to_thread(registry.get, source)
    if row is not None:
        env, question = row.env, row.question
    else:
        values = head.checkpoint["channel_values"]
        settings = values.get("settings")
        env = str(settings.get("env") or "") if isinstance(settings, Mapping) else ""
        question = values.get("question")
        question = question if isinstance(question, str) else ""
    await asyncio.to_thread(registry.register, target, env, question, status)
