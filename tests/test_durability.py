"""When checkpoints are saved (`graph.settings.durability`): chosen from the environment, overridden
by the `durability` setting, stored with the settings, applied by the CLI and the server's
graph; a kill in `async` mode repeats at most the last step."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from reliability_utils import finish, start_cli, write_model

from graph.agent import build_agent
from graph.episodes.runner import settings_of
from graph.episodes.starting import run_episode
from graph.server.state_edits import guarded
from graph.settings.context import LibraryContext, McpContext, WikipediaContext
from graph.settings.durability import durability_for, durability_of, has_write_actions
from graph.settings.validation import SettingsError, validate_settings
from graph.testing import (
    DEMO_QUESTION,
    DEMO_REPLIES,
    TOUR_QUESTION,
    ScriptedReActModel,
    tour_replies,
    tour_settings,
)


def test_auto_is_async_without_write_actions_and_sync_with_them() -> None:
    assert not has_write_actions("wikipedia") and has_write_actions("library")
    assert durability_of("wikipedia", WikipediaContext()) == "async"
    assert durability_of("library", LibraryContext()) == "sync"
    assert durability_of("library", {"env": "library"}) == "sync"  # a thread stored before
    assert durability_of("wikipedia", None) == "async"
    assert durability_of("mcp", McpContext()) == "sync"  # any of a server's tools may write


@pytest.mark.parametrize("mode", ["sync", "async", "exit"])
def test_the_setting_overrides_the_environment(mode: str) -> None:
    assert durability_for("wikipedia", mode) == mode
    assert durability_of("library", LibraryContext(durability=mode)) == mode


def test_a_bad_durability_is_one_line_naming_the_choices(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="durability: 'never' is not one of: auto, sync"):
        validate_settings(WikipediaContext(durability="never"), "setting")  # type: ignore[arg-type]
    done = run_cli("ask", DEMO_QUESTION, "--durability", "never", "--db", str(tmp_path / "e.db"))
    assert done.returncode == 2 and "--durability" in done.stderr
    assert not (tmp_path / "e.db").exists()


def streamed_durability(agent: Any) -> list[str]:
    """Record the `durability` each `stream` call of `agent` is given."""
    seen: list[str] = []
    stream = agent.stream

    def recording(*args: Any, **kwargs: Any) -> Any:
        seen.append(str(kwargs.get("durability")))
        return stream(*args, **kwargs)

    agent.stream = recording
    return seen


@pytest.mark.parametrize(
    ("setting", "expected"), [("auto", "async"), ("sync", "sync"), ("exit", "exit")]
)
def test_the_cli_runs_with_the_chosen_durability_and_stores_it(setting: str, expected: str) -> None:
    saver = InMemorySaver()
    agent = build_agent("wikipedia", saver, model=ScriptedReActModel(responses=DEMO_REPLIES))
    seen = streamed_durability(agent)
    ctx = WikipediaContext(durability=setting)  # type: ignore[arg-type]
    result = run_episode(agent, DEMO_QUESTION, ctx, thread_id="t")
    assert result["status"] == "verified" and seen == [expected]
    stored = agent.get_state(RunnableConfig(configurable={"thread_id": "t"})).values["settings"]
    assert stored["durability"] == setting


def checkpoints(saver: InMemorySaver, thread_id: str) -> int:
    return len(list(saver.list(RunnableConfig(configurable={"thread_id": thread_id}))))


async def server_run(graph: Any, thread_id: str, value: Any, **kwargs: Any) -> None:
    config = RunnableConfig(configurable={"thread_id": thread_id})
    async for _ in graph.astream(value, config, stream_mode="custom", **kwargs):
        pass


def test_the_server_graph_applies_the_threads_setting_whatever_the_run_asks() -> None:
    """langgraph-api passes `durability="async"` to every run a client started without
    one (Studio's): the server's graph replaces it with the thread's own choice. With
    `exit` only the input checkpoint and the last one are stored."""
    saver = InMemorySaver()
    model = ScriptedReActModel(responses=DEMO_REPLIES)
    graph = guarded(build_agent("wikipedia", saver, model=model))
    counts = {}
    for setting in ("sync", "exit"):
        ctx = WikipediaContext(durability=setting)
        value = {"question": DEMO_QUESTION, "settings": settings_of("wikipedia", ctx)}
        asyncio.run(server_run(graph, setting, value, context=ctx, durability="async"))
        counts[setting] = checkpoints(saver, setting)
    assert counts["exit"] <= 2 < counts["sync"]
    plain = {"question": DEMO_QUESTION}
    asyncio.run(server_run(graph, "plain", plain, context=WikipediaContext(), durability="exit"))
    assert checkpoints(saver, "plain") == counts["sync"]  # auto: async saves every superstep
    state = graph.get_state(RunnableConfig(configurable={"thread_id": "plain"}))
    assert state.values["status"] == "verified"
    assert state.values["settings"]["durability"] == asdict(WikipediaContext())["durability"]


def saved_steps(db: Path, thread_id: str) -> list[dict[str, Any]]:
    """The steps the thread's latest stored checkpoint holds ([] before the first)."""
    from graph.episodes.runner import snapshot
    from graph.store.savers import open_sqlite_saver

    with open_sqlite_saver(db, create=False) as saver:
        agent = build_agent("wikipedia", saver)
        try:
            return list(snapshot(agent, thread_id).values.get("steps") or [])
        except Exception:
            return []


def tour(thread_id: str, model: str, db: Path) -> list[str]:
    settings = tour_settings(TOUR_STEPS)
    return [
        "ask", TOUR_QUESTION, "--model", model, "--db", str(db), "--thread-id", thread_id,
        "--max-model-turns", str(settings["max_model_turns"]),
        "--max-tool-calls", str(settings["max_tool_calls"]), "--verify-mode", "record",
        "--max-seconds", "600", "--durability", "async", "--json",
    ]  # fmt: skip


TOUR_STEPS = 10


@pytest.mark.slow
def test_a_kill_in_async_mode_repeats_at_most_the_last_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGKILL at random points of an `async` tour: the stored thread lacks at most the
    last step the process printed, and the resumed episode equals an unkilled one."""
    monkeypatch.setenv("PYTHONUNBUFFERED", "1")
    model = write_model(tmp_path / "tour.json", tour_replies(TOUR_STEPS), delay_s=0.15)
    reference = run_cli(*tour("ref", model, tmp_path / "ref.sqlite3"))
    expected = json.loads(reference.stdout)
    rng = random.Random(29)
    for trial in range(3):
        db, thread_id = tmp_path / f"kill{trial}.sqlite3", f"k{trial}"
        episode = start_cli(*tour(thread_id, model, db)[:-1])
        printed: list[str] = []
        target = rng.randint(1, TOUR_STEPS - 2)
        assert episode.stdout is not None
        while len(printed) < target:
            line = episode.stdout.readline()
            assert line, "the episode ended before the kill"
            if line.startswith("Observation "):
                printed.append(line)
        os.kill(episode.pid, signal.SIGKILL)
        finish(episode)
        saved = len(saved_steps(db, thread_id))
        assert target - 1 <= saved <= target + 1, (target, saved)
        done = run_cli("resume", thread_id, "--db", str(db), "--json")
        assert done.returncode == reference.returncode, done.stderr
        resumed = json.loads(done.stdout)
        actions = [step["action_text"] for step in resumed["trajectory"]]
        assert actions == [step["action_text"] for step in expected["trajectory"]]
        assert (resumed["answer"], resumed["status"]) == (expected["answer"], expected["status"])
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
