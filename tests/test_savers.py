"""The compact checkpoint savers: version scheme, the cheap DeltaChannel walk, old files."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.sqlite import SqliteSaver

from graph.agent import build_agent
from graph.episodes.history import checkpoint_rows, edit_state
from graph.episodes.resuming import resume_episode
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import WikipediaContext
from graph.store.aio import open_async_sqlite_saver
from graph.store.savers import CompactSqliteSaver
from graph.store.serde import CompressingSerializer
from graph.store.sqlite_format import next_version
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel

OLD_FILE = Path(__file__).resolve().parent / "data" / "checkpoints_before_issue12.sqlite3"
FINISHED = "11111111-1111-4111-8111-111111111111"
KILLED = "22222222-2222-4222-8222-222222222222"
TIMESTAMPS = ("at", "retrieved_at")


def with_fraction(count: int, fraction: float = 0.123456789) -> str:
    """A version as `SqliteSaver` and the LangGraph server's checkpointer adapter write it."""
    return f"{count:032}.{fraction:.16f}"


def test_versions_order_with_the_servers_and_the_old_ones() -> None:
    versions = [next_version(None)]
    for _ in range(3000):
        versions.append(next_version(versions[-1]))
    assert versions == sorted(versions) and len(set(versions)) == len(versions)
    assert next_version(with_fraction(7)) == next_version(7) == f"{8:032}"
    for count in (1, 9, 10, 99, 12345):
        ours = next_version(count - 1)
        assert with_fraction(count - 1, 0.999) < ours < with_fraction(count, 0.0)
        assert int(ours.split(".")[0]) == count, "the server's adapter reads our versions"


def agent(db: Path, replies: list[str] | None = None) -> Any:
    model = ScriptedReActModel(responses=replies or DEMO_REPLIES)
    return build_agent("wikipedia", open_checkpointer(db), model=model)


def comparable(values: dict[str, Any]) -> dict[str, Any]:
    def strip(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in item.items() if k not in TIMESTAMPS} for item in items]

    return {
        "steps": strip(values.get("steps") or []),
        "evidence": strip(values.get("evidence") or []),
        "status": values.get("status"),
        "answer": values.get("answer"),
    }


def test_a_file_written_before_the_change_is_read_and_its_killed_thread_resumes(
    tmp_path: Path,
) -> None:
    db = tmp_path / "old.sqlite3"
    shutil.copy(OLD_FILE, db)
    old = agent(db)
    finished = old.get_state({"configurable": {"thread_id": FINISHED}}).values
    assert finished["status"] == "verified" and len(finished["steps"]) == 4
    assert finished["settings"]["env"] == "wikipedia"
    assert [row["node"] for row in checkpoint_rows(old, FINISHED)][-2:] == ["reason", "verify"]
    resumed = resume_episode(old, KILLED, WikipediaContext())
    straight = run_episode(agent(tmp_path / "new.sqlite3"), DEMO_QUESTION, WikipediaContext())
    assert resumed["status"] == straight["status"] == "verified"
    new_values = old.get_state({"configurable": {"thread_id": KILLED}}).values
    straight_values = agent(tmp_path / "new.sqlite3").get_state(
        {"configurable": {"thread_id": straight["thread_id"]}}
    )
    assert comparable(new_values) == comparable(straight_values.values)
    latest = old.checkpointer.get_tuple({"configurable": {"thread_id": KILLED}})
    versions = latest.checkpoint["channel_versions"]
    assert "." not in versions["steps"] and max(versions.values()) == versions["steps"]
    assert any("." in version for version in versions.values()), "old versions stay"


def delta_channels(graph: Any) -> list[str]:
    from langgraph.channels.delta import DeltaChannel

    return [name for name, spec in graph.channels.items() if isinstance(spec, DeltaChannel)]


def test_the_walk_rebuilds_what_langgraphs_walk_rebuilds_on_every_checkpoint(
    tmp_path: Path,
) -> None:
    db = tmp_path / "walk.sqlite3"
    shutil.copy(OLD_FILE, db)
    compiled = agent(db)
    resume_episode(compiled, KILLED, WikipediaContext())
    replies = [*DEMO_REPLIES[:2], *DEMO_REPLIES[1:]]
    fresh = run_episode(agent(db, replies), DEMO_QUESTION, WikipediaContext())
    rows = checkpoint_rows(compiled, fresh["thread_id"])
    middle = next(row for row in rows if row["next"] == ["act"])
    edit_state(compiled, fresh["thread_id"], middle["checkpoint_id"], "Search[Christopher Nolan]")
    conn = sqlite3.connect(db, check_same_thread=False)
    serde = CompressingSerializer()
    ours, stock = CompactSqliteSaver(conn, serde=serde), SqliteSaver(conn, serde=serde)
    channels = delta_channels(compiled)
    checked = 0
    for thread_id in (FINISHED, KILLED, fresh["thread_id"]):
        histories = []
        for row in checkpoint_rows(compiled, thread_id):
            config = RunnableConfig(
                configurable={
                    "thread_id": thread_id,
                    "checkpoint_ns": "",
                    "checkpoint_id": row["checkpoint_id"],
                }
            )
            expected = stock.get_delta_channel_history(config=config, channels=channels)
            assert ours.get_delta_channel_history(config=config, channels=channels) == expected
            histories.append((config, expected))
            checked += 1
        with ours.reading_thread(thread_id):  # one read for the thread, newest first
            for config, expected in reversed(histories):
                assert ours.get_delta_channel_history(config=config, channels=channels) == expected
    assert checked > 40


def test_the_servers_saver_writes_what_the_cli_reads(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"

    async def run_on_server_saver() -> str:
        async with open_async_sqlite_saver(db) as saver:
            compiled = build_agent(
                "wikipedia", saver, model=ScriptedReActModel(responses=DEMO_REPLIES)
            )
            config = RunnableConfig(configurable={"thread_id": "s1"}, recursion_limit=100)
            await compiled.ainvoke({"question": DEMO_QUESTION}, config, context=WikipediaContext())
            history = await saver.aget_delta_channel_history(
                config=config, channels=delta_channels(compiled)
            )
            return str(history["steps"]["writes"][-1][2][0]["action"])

    assert asyncio.run(run_on_server_saver()) == "Finish"
    values = agent(db).get_state({"configurable": {"thread_id": "s1"}}).values
    straight = run_episode(agent(tmp_path / "cli.sqlite3"), DEMO_QUESTION, WikipediaContext())
    cli_values = agent(tmp_path / "cli.sqlite3").get_state(
        {"configurable": {"thread_id": straight["thread_id"]}}
    )
    assert comparable(values) == comparable(cli_values.values)
