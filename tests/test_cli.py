"""`react-agent` from the outside: the main command, JSON output, bad input, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.cli import main
from graph.testing import DEMO_QUESTION, DEMO_REPLIES

ROOT = Path(__file__).resolve().parent.parent

FACTORY = """
from graph.testing import ScriptedReActModel

REPLIES = {replies!r}


def factory():
    return ScriptedReActModel(responses=REPLIES)
"""


@pytest.fixture
def model_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_model.py"
    path.write_text(FACTORY.format(replies=DEMO_REPLIES))
    return path


def test_ask_with_a_model_file_answers_verified_with_evidence(
    model_file: Path, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["ask", DEMO_QUESTION, "--model", f"{model_file}:factory", "--db", str(db_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Thought 1: I need the director of The Prestige first." in out
    assert "Action 2: Lookup[directed]" in out
    assert "Answer (verified): 1970" in out
    assert "[E6] Christopher Nolan #0" in out
    assert "Thread: " in out


def test_json_output_has_the_documented_fields(
    model_file: Path, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["ask", DEMO_QUESTION, "--model", f"{model_file}:factory", "--db", str(db_path), "--json"]
    )
    result = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in (
        "thread_id",
        "status",
        "answer",
        "evidence",
        "stop_reason",
        "steps",
        "model_calls",
        "tool_calls",
        "tokens",
    ):
        assert key in result
    assert result["status"] == "verified" and result["answer"] == "1970"
    assert {"id", "title", "sentence_index", "text"} <= set(result["evidence"][0])


def test_show_and_threads_read_the_episode_back(
    model_file: Path, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["ask", DEMO_QUESTION, "--model", f"{model_file}:factory", "--db", str(db_path), "--json"])
    thread_id = json.loads(capsys.readouterr().out)["thread_id"]
    assert main(["show", thread_id, "--db", str(db_path)]) == 0
    shown = capsys.readouterr().out
    assert f"Question: {DEMO_QUESTION}" in shown and "Action 3: Search[Christopher Nolan]" in shown
    assert main(["threads", "--db", str(db_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[0]["thread_id"] == thread_id and rows[0]["status"] == "verified"


def test_budget_exhaustion_has_its_own_exit_code(
    tmp_path: Path, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "wander.json"
    script.write_text(json.dumps([f"Thought: t\nAction: Search[Page {i}]" for i in range(5)]))
    code = main(
        [
            "ask",
            DEMO_QUESTION,
            "--model",
            f"scripted:{script}",
            "--db",
            str(db_path),
            "--max-model-turns",
            "2",
            "--json",
        ]
    )
    assert code == 4
    assert json.loads(capsys.readouterr().out)["stop_reason"] == "model_turns"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ask", "   "], "the question is empty"),
        (["show", "00000000-0000-0000-0000-000000000000"], "no checkpoint database at"),
        (["resume", "00000000-0000-0000-0000-000000000000"], "no checkpoint database at"),
        (["ask", "Who?", "--model", "./no/such/file.py:factory"], "does not exist"),
        (["ask", "Who?", "--model", "graph.testing:no_such_factory"], "has no attribute"),
        (["ask", "Who?", "--model", "nonsense"], "Cannot read the model"),
        (["ask", "Who?", "--model", "groq:qwen/qwen3.6-27b"], "set GROQ_API_KEY"),
        (["ask", "Who?", "--model", "graph.testing:DEMO_QUESTION"], "not a LangChain chat model"),
        (["ask", "Who?", "--faults", "get_copy_status:W22:timeout-once"], "not a setting of"),
        (
            ["ask", "Who?", "--env", "library", "--faults", "nonsense"],
            "must be 'tool:argument:mode'",
        ),
    ],
)
def test_bad_input_gets_a_one_line_error_and_exit_2(
    args: list[str], message: str, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main([*args, "--db", str(db_path)])
    err = capsys.readouterr().err
    assert code == 2
    assert message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_unreadable_database_is_a_clean_error(tmp_path: Path) -> None:
    not_a_db = tmp_path / "garbage.sqlite3"
    not_a_db.write_bytes(b"this is not a database" * 100)
    done = run_cli(
        "ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(not_a_db)
    )
    assert done.returncode == 2
    assert "is not an SQLite database" in done.stderr and str(not_a_db) in done.stderr
    assert "Traceback" not in done.stderr
    directory = run_cli("threads", "--db", str(tmp_path))
    assert directory.returncode == 2 and "Traceback" not in directory.stderr


def test_a_checkpoint_file_given_as_the_library_database_is_refused(
    tmp_path: Path, db_path: Path
) -> None:
    from graph.store.savers import open_sqlite_saver

    episodes = tmp_path / "episodes.sqlite3"
    open_sqlite_saver(episodes).conn.close()
    before = episodes.read_bytes()
    done = run_cli(
        "ask",
        "Can I borrow 《数据库入门图解》 today?",
        "--env",
        "library",
        "--library-db",
        str(episodes),
        "--model",
        "graph.testing:demo_model",
        "--db",
        str(db_path),
    )
    assert done.returncode == 2
    assert done.stderr == (
        f"react-agent: --library-db: {episodes} is a checkpoint database, not a library database\n"
    )
    assert episodes.read_bytes() == before


def test_missing_key_message_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ask", "Who?"]) == 2
    err = capsys.readouterr().err
    assert "GROQ_API_KEY" in err and "path/to/file.py:factory" in err and "scripted:FILE" in err
