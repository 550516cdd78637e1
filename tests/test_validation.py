"""The one validation of a run's question and settings (`graph.settings.validation`)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent import build_agent
from graph.episodes.starting import run_episode
from graph.errors import AgentError, ModelConfigError
from graph.settings.context import CONTEXT_TYPES, LibraryContext, WikipediaContext
from graph.settings.validation import (
    MAX_QUESTION_CHARS,
    RULES,
    SettingsError,
    validate_question,
    validate_run,
    validate_settings,
)
from graph.testing import DEMO_QUESTION, ScriptedReActModel
from tools.dbfiles import DatabaseFileError


def test_every_setting_has_a_rule_and_every_rule_a_setting() -> None:
    names = {item.name for kind in CONTEXT_TYPES.values() for item in fields(kind)}
    assert names == set(RULES)


@pytest.mark.parametrize("env_name", sorted(CONTEXT_TYPES))
def test_the_defaults_are_valid(env_name: str) -> None:
    validate_settings(CONTEXT_TYPES[env_name]())


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("now", "yesterday", "'yesterday' is not a date-time; use YYYY-MM-DDTHH:MM"),
        ("now", "2026-09-26", "is not a date-time"),
        ("now", "2026-09-26T14:00Z", "has a time zone"),
        ("now", 20260926, "is not a date-time"),
        ("deadline", "noon", "'noon' is not a time; use HH:MM"),
        ("deadline", "24:30", "is not a time"),
        ("deadline", "16:00+08:00", "has a time zone"),
        ("origin", "Mars", "'Mars' is not a known place; use one of: East Campus"),
        ("origin", "", "it is empty"),
        ("patron", "P0000", "is not a patron of the demo library; use one of: P1001"),
        ("faults", "get_copy_status:W22", "must be 'tool:argument:mode'"),
        ("faults", "get_copy_status:W22:sometimes", "mode one of"),
        ("max_model_turns", 0, "use a whole number from 1 to 10000"),
        ("max_model_turns", 7.5, "whole number"),
        ("max_model_turns", True, "whole number"),
        ("max_tool_calls", 10001, "from 1 to 10000"),
        ("max_seconds", 0, "more than 0"),
        ("max_verifier_rejections", -1, "from 0 to 20"),
        ("max_repeats", 21, "from 0 to 20"),
        ("temperature", "hot", "use a number from 0 to 2"),
        ("temperature", 2.5, "from 0 to 2"),
        ("max_tokens", 0, "from 1 to"),
        ("tool_timeout_s", -2, "more than 0"),
        ("approvals", "maybe", "not one of: ask, deny, auto"),
        ("model", " ", "it is empty"),
        ("model", "groq:x\ny", "control characters"),
        ("library_db", "mysql://host/db", "must be an SQLite file path or a postgresql://"),
    ],
)
def test_a_bad_library_setting_is_named_with_the_forms_it_takes(
    setting: str, value: Any, says: str
) -> None:
    ctx = LibraryContext(**{setting: value})
    with pytest.raises(SettingsError) as flagged:
        validate_settings(ctx)
    flag = "--" + setting.replace("_", "-")
    assert str(flagged.value).startswith(f"{flag}: ") and says in str(flagged.value)
    with pytest.raises(SettingsError) as named:
        validate_settings(ctx, naming="setting")
    assert str(named.value) == f"{setting}: " + str(flagged.value).removeprefix(f"{flag}: ")


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("lang", "English", "not a Wikipedia language code"),
        ("wiki_api_url", "ftp://example.org/api.php", "not an http(s) URL"),
        ("wiki_api_url", "http://[::1/w/api.php", "not an http(s) URL"),
        ("wiki_api_url", "http://127.0.0.1:99999/w/api.php", "not an http(s) URL"),
        ("wiki_api_url", "http://wiki example/w/api.php", "not an http(s) URL"),
        ("observation_chars", 10, "from 200 to"),
        ("source", "internet", "not one of: snapshot, live"),
        ("user_agent", "bot/1.0\r\nX-Evil: 1", "control characters"),
    ],
)
def test_a_bad_wikipedia_setting_is_refused(setting: str, value: Any, says: str) -> None:
    with pytest.raises(SettingsError, match="--" + setting.replace("_", "-")) as refused:
        validate_settings(WikipediaContext(**{setting: value}))
    assert says in str(refused.value)


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("now", "2026-09-26 14:00"),
        ("now", "2026-09-26T14:00:30"),
        ("deadline", "16:00"),
        ("deadline", "2026-09-27T10:00"),
        ("deadline", ""),
        ("origin", "东校区"),
        ("origin", "west library"),
        ("faults", "get_copy_status:W22:timeout-once, estimate_walk:*:timeout-always"),
        ("temperature", 1),
        ("max_seconds", 0.5),
    ],
)
def test_the_documented_forms_are_accepted(setting: str, value: Any) -> None:
    validate_settings(LibraryContext(**{setting: value}))


def test_the_library_database_must_be_one(tmp_path: Path) -> None:
    validate_settings(LibraryContext(library_db=str(tmp_path / "new" / "library.sqlite3")))
    text_file = tmp_path / "notes.txt"
    text_file.write_text("not a database\n" * 20)
    with pytest.raises(SettingsError, match=r"^--library-db: .*notes.txt is not an SQLite"):
        validate_settings(LibraryContext(library_db=str(text_file)))


def test_the_question_is_stripped_and_capped() -> None:
    assert validate_question("  Who?  ") == "Who?"
    assert validate_question("x" * MAX_QUESTION_CHARS) == "x" * MAX_QUESTION_CHARS
    for bad in ("", " \n\t ", None, "x" * (MAX_QUESTION_CHARS + 1), "Who \udcff?"):
        with pytest.raises(SettingsError, match="the question is"):
            validate_question(bad)


def test_user_facing_errors_are_value_errors_so_the_server_shows_them() -> None:
    for error in (AgentError, SettingsError, ModelConfigError, DatabaseFileError):
        assert issubclass(error, ValueError)


def test_the_graph_refuses_bad_settings_before_calling_the_model(tmp_path: Path) -> None:
    calls: list[str] = []

    class Recorder(ScriptedReActModel):
        def script_for(self, messages: Any) -> list[str]:
            calls.append("called")
            return ["Thought: t\nAction: Finish[x]"]

    agent = build_agent("library", InMemorySaver(), model=Recorder())
    ctx = LibraryContext(now="yesterday", library_db=str(tmp_path / "library.sqlite3"))
    with pytest.raises(SettingsError, match=r"^now: 'yesterday' is not a date-time"):
        run_episode(agent, "Can I borrow 《红楼梦》?", ctx)
    assert calls == []
    with pytest.raises(SettingsError, match="the question is empty"):
        validate_run("   ", WikipediaContext())
    assert validate_run(f" {DEMO_QUESTION} ", WikipediaContext()) == DEMO_QUESTION
