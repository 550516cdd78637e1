"""Careless input through the CLI, each in its own process, as a newcomer would type it.

Every row asserts the exit status, that the terminal shows one line (or
nothing, for a closed pipe) containing the expected words, and that no
Python traceback reaches the terminal. Rows run in a scratch working
directory (no `.env` of the developer's is read) with the state directory
the autouse fixture isolates. Add a row for every new kind of careless input.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cli_utils import run_cli

from graph.cli import main
from graph.episodes.runner import open_checkpointer
from graph.settings.validation import MAX_QUESTION_CHARS
from graph.testing import DEMO_QUESTION

USAGE = 2
BROKEN_PIPE = 141
UNEXPECTED = 1
OUTPUT_ERROR = 74
FULL_DISK = Path("/dev/full")
ONE_MEGABYTE = 1 << 20
THREAD = "{thread}"
LIBRARY_QUESTION = "Please reserve a paper copy of 《红楼梦》 for me."


@dataclass(frozen=True)
class Row:
    """One careless command line and what the user must see."""

    name: str
    args: tuple[str, ...]
    status: int
    says: str = ""
    stdin: str | None = None
    closed_stdout: bool = False
    full_stdout: bool = False
    prepare: Callable[[Path], object] | None = field(default=None, compare=False)


def _library_args(*extra: str) -> tuple[str, ...]:
    return ("ask", LIBRARY_QUESTION, "--env", "library", *extra)


def _write(name: str, data: bytes) -> Callable[[Path], object]:
    return lambda folder: (folder / name).write_bytes(data)


def _checkpoint_file(folder: Path) -> None:
    open_checkpointer(folder / "episodes-copy.sqlite3").conn.close()


def _boom(folder: Path) -> None:
    (folder / "boom.py").write_text('def factory():\n    raise RuntimeError("boom")\n')


ROWS = [
    Row("now-words", _library_args("--now", "yesterday"), USAGE, "--now: 'yesterday' is not a"),
    Row("now-date-only", _library_args("--now", "2026-09-26"), USAGE, "use YYYY-MM-DDTHH:MM"),
    Row("now-time-zone", _library_args("--now", "2026-09-26T14:00+02:00"), USAGE, "time zone"),
    Row("deadline-words", _library_args("--deadline", "noon"), USAGE, "--deadline: 'noon'"),
    Row("deadline-25h", _library_args("--deadline", "25:00"), USAGE, "use HH:MM"),
    Row("origin-unknown", _library_args("--origin", "Mars"), USAGE, "not a known place"),
    Row("patron-unknown", _library_args("--patron", "P9"), USAGE, "--patron: 'P9' is not"),
    Row("faults-garbled", _library_args("--faults", "nonsense"), USAGE, "tool:argument:mode"),
    Row("faults-bad-mode", _library_args("--faults", "get_copy_status:W22:slow"), USAGE, "mode"),
    Row("faults-wrong-env", ("ask", "Who?", "--faults", "x:y:z"), USAGE, "not a setting of"),
    Row("turns-zero", ("ask", "Who?", "--max-model-turns", "0"), USAGE, "from 1 to"),
    Row("tool-calls-huge", ("ask", "Who?", "--max-tool-calls", "100000"), USAGE, "from 1 to"),
    Row("seconds-negative", ("ask", "Who?", "--max-seconds", "-1"), USAGE, "--max-seconds"),
    Row("temperature-high", ("ask", "Who?", "--temperature", "9"), USAGE, "from 0 to 2"),
    Row("tokens-not-a-number", ("ask", "Who?", "--max-tokens", "lots"), USAGE, "invalid int"),
    Row("observation-tiny", ("ask", "Who?", "--observation-chars", "5"), USAGE, "from 200"),
    Row("timeout-zero", _library_args("--tool-timeout-s", "0"), USAGE, "more than 0"),
    Row("approvals-unknown", _library_args("--approvals", "maybe"), USAGE, "invalid choice"),
    Row("lang-garbled", ("ask", "Who?", "--lang", "English!"), USAGE, "language code"),
    Row("api-url-not-http", ("ask", "Who?", "--wiki-api-url", "ftp://x"), USAGE, "http(s) URL"),
    Row("question-empty", ("ask", "   "), USAGE, "the question is empty"),
    Row("question-missing", ("ask",), USAGE, "required: question"),
    Row(
        "question-1mb-stdin",
        ("ask", "-"),
        USAGE,
        f"longer than {MAX_QUESTION_CHARS:,} characters",
        stdin="why " * (ONE_MEGABYTE // 4),
    ),
    Row(
        "library-db-not-sqlite",
        _library_args("--library-db", "notes.txt"),
        USAGE,
        "notes.txt is not an SQLite database (expected a library database)",
        prepare=_write("notes.txt", b"shopping list\n" * 50),
    ),
    Row(
        "library-db-checkpoints",
        _library_args("--library-db", "episodes-copy.sqlite3"),
        USAGE,
        "is a checkpoint database, not a library database",
        prepare=_checkpoint_file,
    ),
    Row("library-db-directory", _library_args("--library-db", "."), USAGE, "is a directory"),
    Row(
        "library-db-device",
        _library_args("--library-db", "/dev/null", "--model", "graph.testing:library_demo_model"),
        USAGE,
        "/dev/null is not a regular file (a device, pipe or socket), not a library database",
    ),
    Row(
        "library-reset-pipe",
        ("library", "reset", "--library-db", "pipe"),
        USAGE,
        "is not a regular file (a device, pipe or socket), not a library database",
        prepare=lambda folder: os.mkfifo(folder / "pipe"),
    ),
    Row(
        "scripted-model-pipe",
        ("ask", "Who?", "--model", "scripted:pipe.json"),
        USAGE,
        "Cannot load the scripted model pipe.json: not a regular file",
        prepare=lambda folder: os.mkfifo(folder / "pipe.json"),
    ),
    Row(
        "scripted-model-unknown-key",
        ("ask", "Who?", "--model", "scripted:script.json"),
        USAGE,
        "unknown keys ['bogus']",
        prepare=_write("script.json", b'{"responses": ["Action: Finish[1]"], "bogus": 1}'),
    ),
    Row(
        "show-escape-in-thread-id",
        ("show", "\x1b[31mred"),
        USAGE,
        "no episode with thread id \\x1b[31mred in ",
    ),
    Row(
        "library-db-unreachable-server",
        _library_args("--library-db", "postgresql://nobody@127.0.0.1:1/db"),
        USAGE,
        "cannot open the library database",
    ),
    Row(
        "library-db-other-url",
        _library_args("--library-db", "mysql://h/db"),
        USAGE,
        "must be an SQLite file path or a postgresql://",
    ),
    Row(
        "reset-not-sqlite",
        ("library", "reset", "--library-db", "notes.txt"),
        USAGE,
        "notes.txt is not an SQLite database",
        prepare=_write("notes.txt", b"shopping list\n" * 50),
    ),
    Row("threads-closed-pipe", ("threads",), BROKEN_PIPE, closed_stdout=True),
    Row("show-closed-pipe", ("show", THREAD), BROKEN_PIPE, closed_stdout=True),
    Row("history-closed-pipe", ("history", THREAD), BROKEN_PIPE, closed_stdout=True),
    Row(
        "threads-full-disk",
        ("threads",),
        OUTPUT_ERROR,
        "the output could not be written (No space left on device)",
        full_stdout=True,
    ),
    Row(
        "ask-full-disk",
        ("ask", DEMO_QUESTION, "--model", "graph.testing:demo_model"),
        OUTPUT_ERROR,
        "the output could not be written (No space left on device)",
        full_stdout=True,
    ),
    Row("unknown-thread", ("show", "00000000-0000-0000-0000-000000000000"), USAGE, "no episode"),
    Row("no-model-key", ("ask", "Who?"), USAGE, "set GROQ_API_KEY"),
    Row(
        "openai-without-extra", ("ask", "Who?", "--model", "openai:gpt-4o-mini"), USAGE, "[openai]"
    ),
    Row("model-garbled", ("ask", "Who?", "--model", "nonsense"), USAGE, "Cannot read the model"),
    Row("unknown-subcommand", ("frobnicate",), USAGE, "invalid choice: 'frobnicate'"),
    Row(
        "thread-id-escape",
        ("ask", "Who?", "--thread-id", "\x1b[2Jx", "--model", "graph.testing:demo_model"),
        USAGE,
        "'\\x1b[2Jx' holds control characters",
    ),
    Row(
        "thread-id-newline",
        ("ask", "Who?", "--thread-id", "a\nb", "--model", "graph.testing:demo_model"),
        USAGE,
        "'a\\nb' holds control characters",
    ),
    Row(
        "thread-id-blank",
        ("ask", "Who?", "--thread-id", "  ", "--model", "graph.testing:demo_model"),
        USAGE,
        "a thread id must not be blank",
    ),
    Row(
        "thread-id-huge",
        ("ask", "Who?", "--thread-id", "t" * 5000, "--model", "graph.testing:demo_model"),
        USAGE,
        "at most 200 characters (5000 given)",
    ),
    Row(
        "model-factory-crashes",
        ("ask", "Who?", "--model", "./boom.py:factory"),
        UNEXPECTED,
        "unexpected error (RuntimeError: boom); the traceback is in ",
        prepare=_boom,
    ),
]


@pytest.fixture(scope="module")
def episode_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A checkpoint file holding one finished demo episode (for show/history/threads)."""
    db = tmp_path_factory.mktemp("careless") / "episodes.sqlite3"
    done = run_cli("ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db))
    assert done.returncode == 0, done.stderr
    thread = done.stdout.rsplit("Thread: ", 1)[1].strip()
    return db, thread


def _run(row: Row, folder: Path, db: Path, thread: str) -> subprocess.CompletedProcess[str]:
    args = [arg.replace(THREAD, thread) for arg in row.args]
    if args[0] not in ("library", "frobnicate") and "-h" not in args:
        args += ["--db", str(db)]
    if row.full_stdout:
        with FULL_DISK.open("w") as full:
            return run_cli(*args, cwd=folder, stdout=full.fileno())
    if not row.closed_stdout:
        return run_cli(*args, cwd=folder, stdin=row.stdin)
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return run_cli(*args, cwd=folder, stdout=writer)
    finally:
        os.close(writer)


def test_rows_are_many_and_distinct() -> None:
    assert len(ROWS) >= 25
    assert len({row.name for row in ROWS}) == len(ROWS)


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_careless_input_gets_one_line_and_its_exit_status(
    row: Row, tmp_path: Path, episode_db: tuple[Path, str]
) -> None:
    if row.name == "openai-without-extra" and importlib.util.find_spec("langchain_openai"):
        pytest.skip("langchain-openai is installed here")
    if row.full_stdout and not FULL_DISK.exists():
        pytest.skip("this system has no /dev/full")
    if row.prepare:
        row.prepare(tmp_path)
    db, thread = episode_db
    done = _run(row, tmp_path, db, thread)
    terminal = (done.stdout or "") + done.stderr
    assert "Traceback" not in terminal
    assert done.returncode == row.status, terminal
    if row.closed_stdout:
        assert done.stderr == ""
        return
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n"), done.stderr
    assert row.says in done.stderr
    if row.status == UNEXPECTED:
        log = Path(done.stderr.split("the traceback is in ", 1)[1].split(" (", 1)[0])
        assert "RuntimeError: boom" in log.read_text(encoding="utf-8")


def test_in_process_main_never_raises_on_a_bug(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _boom(tmp_path)
    status = main(["ask", "Who?", "--model", f"{tmp_path / 'boom.py'}:factory"])
    err = capsys.readouterr().err
    assert status == UNEXPECTED and err.count("\n") == 1 and "Traceback" not in err


WITHOUT_POSTGRES_EXTRA = """
import sys
for name in ("psycopg", "psycopg_pool"):
    sys.modules[name] = None  # as if the [postgres] extra were not installed
from graph.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize(
    "args",
    [
        ("threads", "--db", "postgresql://agent:secret@127.0.0.1:1/episodes"),
        _library_args(
            "--library-db",
            "postgresql://agent:secret@127.0.0.1:1/library",
            "--model",
            "graph.testing:library_demo_model",
        ),
    ],
    ids=["db-url", "library-db-url"],
)
def test_a_postgresql_url_without_the_extra_names_the_extra(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_POSTGRES_EXTRA, *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == USAGE, done.stderr
    assert done.stderr.count("\n") == 1 and "[postgres]" in done.stderr
    assert "secret" not in done.stderr and "Traceback" not in done.stderr
