"""A CLI fork (`resume --from`) of a thread that the LangGraph server deletes meanwhile
(`threads.delete`, another process on the same file): the fork fails in one line and
the thread stays deleted.

The fork's checks read the thread, then its run stores checkpoints on it; a delete in
between brought back half a thread: the fork's checkpoints with their parent gone (no
question, no first steps) and no registry row, the command printing its pause as if
all were well; a delete before the run began was an internal error (`EmptyInputError`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.runnables import RunnableConfig
from server_utils import LIBRARY_QUESTION, LIBRARY_SCRIPT, write_script

import graph.episodes.resuming
from graph import cli
from graph.server.checkpointer import attach_thread_stores
from graph.store.aio import open_async_sqlite_saver
from graph.store.savers import CompactSqliteSaver

pytestmark = pytest.mark.slow

GONE = "thread t was deleted while this command ran on it: its checkpoint {} is gone"


@pytest.fixture
def paused(db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """A library episode `t` paused for approval from the CLI: the resume arguments of a
    fork from its third checkpoint."""
    model = write_script(tmp_path / "library.json", LIBRARY_SCRIPT)
    common = ["--db", str(db_path), "--model", model, "--library-db", str(tmp_path / "l.db")]
    assert cli.main(["ask", "--env", "library", LIBRARY_QUESTION, *common, "--thread-id", "t"]) == 5
    capsys.readouterr()
    return ["resume", "t", "--from", stored(db_path)[2][0], *common]


def stored(db: Path) -> list[tuple[str, str | None]]:
    """Thread `t`'s checkpoints (id, parent), the rows of its writes and registry."""
    with sqlite3.connect(db) as conn:
        found = conn.execute(
            "SELECT checkpoint_id, parent_checkpoint_id FROM checkpoints WHERE thread_id = 't'"
            " UNION ALL SELECT 'write', checkpoint_id FROM writes WHERE thread_id = 't'"
            " UNION ALL SELECT 'registry', status FROM threads WHERE thread_id = 't'"
            " ORDER BY 1"
        ).fetchall()
    return [(str(a), b) for a, b in found]


def delete_as_the_server_does(db: Path) -> None:
    """`threads.delete` on the server: its saver's `adelete_thread` on the same file."""

    async def delete() -> None:
        async with open_async_sqlite_saver(db) as saver:
            attach_thread_stores(saver, db)
            await saver.adelete_thread("t")

    asyncio.run(delete())


def deleting_after(calls: int, db: Path, real: Callable[..., Any]) -> Callable[..., Any]:
    """`real`, deleting thread `t` right after its `calls`-th call."""
    made = [0]

    def call(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        made[0] += 1
        if made[0] == calls:
            delete_as_the_server_does(db)
        return result

    return call


@pytest.mark.parametrize("calls", [1, 3])
def test_a_fork_whose_thread_is_deleted_while_it_runs_fails_and_stays_deleted(
    paused: list[str],
    db_path: Path,
    calls: int,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(
        CompactSqliteSaver, "put", deleting_after(calls, db_path, CompactSqliteSaver.put)
    )
    assert cli.main(paused) == 2
    err = capsys.readouterr().err
    assert err.startswith("react-agent: thread t was deleted while this command ran on it")
    assert err.count("\n") == 1 and stored(db_path) == []


def test_a_fork_whose_thread_is_deleted_before_its_run_fails_in_one_line(
    paused: list[str],
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    real = graph.episodes.resuming.record_thread_event  # the fork's last step before its run
    monkeypatch.setattr(
        graph.episodes.resuming, "record_thread_event", deleting_after(1, db_path, real)
    )
    assert cli.main(paused) == 2
    err = capsys.readouterr().err
    assert err == f"react-agent: {GONE.format(paused[3])}, so nothing more of it is stored\n"
    assert stored(db_path) == []


def test_writes_may_reach_the_saver_before_their_checkpoint(db_path: Path) -> None:
    """LangGraph saves a run's first checkpoint and its first task's writes on separate
    background threads, so the writes can arrive first: they are kept, not refused as
    if the thread had been deleted (which failed instant episodes at random)."""
    from langgraph.checkpoint.base import empty_checkpoint

    from graph.store.savers import open_sqlite_saver

    saver = open_sqlite_saver(db_path)
    first, second = empty_checkpoint(), empty_checkpoint()
    thread = {"thread_id": "t", "checkpoint_ns": ""}
    stored = saver.put({"configurable": thread}, first, {"step": -1}, {})
    on_second = RunnableConfig(configurable=thread | {"checkpoint_id": second["id"]})
    saver.put_writes(on_second, [("question", "Q?")], "task-1")
    saver.put(stored, second, {"step": 0}, {})
    kept = saver.get_tuple(on_second)
    assert kept is not None and kept.pending_writes is not None
    assert [(write[1], write[2]) for write in kept.pending_writes] == [("question", "Q?")]
    saver.close()
