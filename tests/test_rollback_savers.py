"""`adelete_for_runs` of the server's savers (`graph.store.rollback`), on a real SQLite
file and a real PostgreSQL database, with the Wikipedia agent's real runs: a rolled-back
run leaves the thread's checkpoints, pending writes, rebuilt `DeltaChannel` states and
registry row as they were; one that others build on is refused; a rolled-back run's late
writes are dropped."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg
import pytest
from conftest import fresh_database
from langchain_core.runnables import RunnableConfig

from graph.agent import build_agent
from graph.server.checkpointer import attach_thread_stores
from graph.settings.context import WikipediaContext
from graph.store.aio import open_async_sqlite_saver
from graph.store.pg_aio import open_async_postgres_saver
from graph.store.rollback import RollbackRefusedError, RunRows, refusal
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
THREAD = "rollback-thread"
FOLLOW_UP = "And where was he born?"


TOKEN = {"value": ""}


@pytest.fixture(autouse=True)
def fresh_run_ids() -> None:
    """Run ids are the server's, unique: the process-wide run log remembers them."""
    TOKEN["value"] = uuid4().hex[:8]


def rid(name: str) -> str:
    """This test's run id called `name`."""
    return f"{name}-{TOKEN['value']}"


def noted(name: str) -> str:
    """The query counting the noted writes of this test's run `name`."""
    return f"SELECT count(*) FROM run_writes WHERE run_id = '{rid(name)}'"


class Store:
    """A server saver on a fresh file or database, and raw SQL on the same store."""

    def __init__(self, backend: str, location: str) -> None:
        self.backend = location if backend == "postgres" else backend
        self.location = location

    @asynccontextmanager
    async def saver(self) -> AsyncIterator[Any]:
        if self.backend == "sqlite":
            async with open_async_sqlite_saver(self.location) as saver:
                attach_thread_stores(saver, Path(self.location))
                yield saver
            return
        async with open_async_postgres_saver(self.location) as pg_saver:
            yield pg_saver

    def count(self, query: str) -> int:
        if self.backend == "sqlite":
            with sqlite3.connect(self.location) as conn:
                return int(conn.execute(query.replace("checkpoint_writes", "writes")).fetchone()[0])
        with psycopg.connect(self.location) as conn:
            return int((conn.execute(query).fetchone() or (0,))[0])


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        yield Store("sqlite", str(tmp_path / "episodes.sqlite3"))
        return
    with fresh_database(request.getfixturevalue("postgres_server")) as url:
        yield Store("postgres", url)


def config_of(run_id: str, recursion_limit: int = 100) -> RunnableConfig:
    """A server run's config: its id in the metadata (as langgraph-api sets it)."""
    return RunnableConfig(
        configurable={"thread_id": THREAD, "lease_owner": "test"},
        metadata={"run_id": run_id},
        recursion_limit=recursion_limit,
    )


async def run(saver: Any, run_id: str, given: Any, recursion_limit: int = 100) -> None:
    agent = build_agent("wikipedia", saver, model=ScriptedReActModel(responses=DEMO_REPLIES))
    try:
        await agent.ainvoke(given, config_of(run_id, recursion_limit), context=WikipediaContext())
    except Exception as error:  # a run stopped mid-episode by its recursion limit
        assert type(error).__name__ == "GraphRecursionError"


async def seen(saver: Any) -> list[tuple[Any, ...]]:
    """Every checkpoint of the thread as the API shows it: id, next, values, pending writes."""
    agent = build_agent("wikipedia", saver, model=ScriptedReActModel(responses=DEMO_REPLIES))
    config = RunnableConfig(configurable={"thread_id": THREAD})
    return [
        (s.config["configurable"]["checkpoint_id"], s.next, s.values, s.interrupts)
        async for s in agent.aget_state_history(config)
    ]


def roll(store: Store, body: Callable[[Any], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        async with store.saver() as saver:
            return await body(saver)

    return asyncio.run(main())


ORPHANS = (
    "SELECT count(*) FROM checkpoint_writes w WHERE NOT EXISTS (SELECT 1 FROM checkpoints c"
    " WHERE c.thread_id = w.thread_id AND c.checkpoint_ns = w.checkpoint_ns"
    " AND c.checkpoint_id = w.checkpoint_id)"
)


def test_rolling_back_a_run_that_resumed_a_thread_restores_it(store: Store) -> None:
    """R1 stops mid-episode; R2 resumes it, writing first on R1's last checkpoint."""

    async def body(saver: Any) -> tuple[Any, ...]:
        await run(saver, rid("R1"), {"question": DEMO_QUESTION}, recursion_limit=4)
        before = await seen(saver)
        saver.thread_registry.register(THREAD, "wikipedia", DEMO_QUESTION, "running")
        await run(saver, rid("R2"), None)
        finished = await seen(saver)
        assert store.count(noted("R2")) > 0, "R2 wrote on R1's last checkpoint first"
        await saver.adelete_for_runs([rid("R2")])
        after = await seen(saver)
        head = await saver.aget_tuple(RunnableConfig(configurable={"thread_id": THREAD}))
        late = RunnableConfig(
            configurable={"thread_id": THREAD, "checkpoint_ns": "", "checkpoint_id": after[0][0]},
            metadata={"run_id": rid("R2")},
        )
        await saver.aput_writes(late, [("status", "verified")], "late-task")
        late_head = await saver.aget_tuple(RunnableConfig(configurable={"thread_id": THREAD}))
        await run(saver, rid("R3"), None)
        again = await seen(saver)
        assert store.count(noted("R3")) > 0
        await saver.adelete_thread(THREAD)
        assert store.count(noted("R3")) == 0 and await seen(saver) == []
        return before, finished, after, head, late_head, again

    before, finished, after, head, late_head, again = roll(store, body)
    assert len(finished) > len(before) and finished[0][2]["status"] != before[0][2]["status"]
    assert after == before
    assert late_head.pending_writes == head.pending_writes, "a rolled-back run's write is dropped"
    assert store.count(noted("R2")) == 0 and store.count(ORPHANS) == 0
    done = [
        [(s["index"], s["action_text"], s["observation"]) for s in state[0][2]["steps"]]
        for state in (again, finished)
    ]
    assert done[0] == done[1], "the next run does what R2 did"


def test_rolling_back_a_new_question_restores_the_registry(store: Store) -> None:
    async def body(saver: Any) -> tuple[Any, ...]:
        await run(saver, rid("R1"), {"question": DEMO_QUESTION})
        registry = saver.thread_registry
        registry.register(THREAD, "wikipedia", DEMO_QUESTION, "verified")
        before = await seen(saver)
        await run(saver, rid("R2"), {"question": FOLLOW_UP})
        registry.set_status(THREAD, "running")
        await saver.adelete_for_runs([rid("R2"), "no-such-run"])
        kept = (await seen(saver), registry.get(THREAD).status)
        await saver.adelete_for_runs([])
        await saver.adelete_for_runs([rid("R1")])
        return before, kept, await seen(saver), registry.get(THREAD)

    before, (after, status), emptied, row = roll(store, body)
    assert after == before and status == before[0][2]["status"]
    assert emptied == [] and row is None, "a thread with no checkpoint left leaves the registry"


def test_a_run_that_others_build_on_is_not_rolled_back(store: Store) -> None:
    async def body(saver: Any) -> tuple[Any, ...]:
        await run(saver, rid("R1"), {"question": DEMO_QUESTION})
        await run(saver, rid("R2"), {"question": FOLLOW_UP})
        await run(saver, rid("R3"), {"question": DEMO_QUESTION})
        before = await seen(saver)
        with pytest.raises(RollbackRefusedError) as refused:
            await saver.adelete_for_runs([rid("R2")])
        return before, await seen(saver), str(refused.value)

    before, after, message = roll(store, body)
    assert after == before
    assert message.startswith(f"run {rid('R2')} of thread rollback-thread cannot be rolled back")
    assert "build on it" in message and message.endswith("nothing was deleted")


def test_why_a_run_others_build_on_is_kept_deleting_it_breaks_their_state(store: Store) -> None:
    """The one deviation from LangGraph's saver contract (`graph.store.rollback`): the
    contract deletes R2's checkpoints even with R3's built on them. R3's `DeltaChannel`
    states are rebuilt from the writes on R2's checkpoints, so deleting them anyway (what
    the refusal prevents) leaves R3's head without the steps before it."""

    async def body(saver: Any) -> tuple[Any, ...]:
        await run(saver, rid("R1"), {"question": DEMO_QUESTION})
        await run(saver, rid("R2"), {"question": FOLLOW_UP})
        await run(saver, rid("R3"), {"question": DEMO_QUESTION})
        before = await seen(saver)
        for rows in await saver._run_rows(rid("R2")):
            assert rows.children == 1
            await saver._delete_run_rows(rows)
        return before, await seen(saver)

    before, after = roll(store, body)
    assert before[0][2]["question"] == DEMO_QUESTION and len(before[0][2]["steps"]) > 0
    assert after[0][0] == before[0][0], "R3's head is still there"
    assert after[0][2] != before[0][2], "but its state is not what it was"
    steps = [len(state[0][2]["steps"]) for state in (before, after)]
    assert steps[1] < steps[0], f"its trajectory lost its first steps: {steps}"


def test_prune_deletes_threads_and_keeps_a_delta_thread_whole(store: Store) -> None:
    """`aprune` (thread TTLs): `delete` deletes the thread and its registry row;
    `keep_latest` refuses a thread whose `DeltaChannel` states need their history, as
    LangGraph's PostgreSQL saver does, and changes nothing."""

    async def body(saver: Any) -> tuple[Any, ...]:
        await run(saver, rid("R1"), {"question": DEMO_QUESTION})
        registry = getattr(saver, "thread_registry", None)
        if registry is not None:
            registry.register(THREAD, "wikipedia", DEMO_QUESTION, "verified")
        before = await seen(saver)
        with pytest.raises(NotImplementedError):
            await saver.aprune([THREAD], strategy="keep_latest")
        kept = await seen(saver)
        with pytest.raises(ValueError, match="unknown prune strategy 'everything'"):
            await saver.aprune([THREAD], strategy="everything")
        await saver.aprune([THREAD], strategy="delete")
        row = registry.get(THREAD) if registry is not None else None
        return before, kept, await seen(saver), row

    before, kept, after, row = roll(store, body)
    assert kept == before and len(before) > 3
    assert after == [] and row is None and store.count(ORPHANS) == 0


def test_a_run_that_answered_an_approval_or_carried_an_approved_write_is_refused() -> None:
    rows = RunRows("R", "T", "")
    rows.noted.append(("C", "task", -4, "__resume__"))
    pending = {"writes": True, "action_text": "reserve_copy[E17]", "request_id": "R1"}
    assert "approval request for R1" in (refusal(rows, pending) or "")
    approved = RunRows("R", "T", "", proposals=[pending | {"decision": {"type": "edit"}}])
    assert "approved write R1" in (refusal(approved, None) or "")
    rejected = RunRows("R", "T", "", proposals=[pending | {"decision": {"type": "reject"}}])
    assert refusal(rejected, None) is None
    assert refusal(RunRows("R", "T", ""), pending | {"decision": {"type": "approve"}})
