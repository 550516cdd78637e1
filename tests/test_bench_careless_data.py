"""`bench qa` and `bench verifier` given a `--data` file that is not HotpotQA JSONL.

Each is refused with one line naming the file (and the line) and exit status 2,
before anything runs: no crash log, no output directory, no per-case file.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from graph.cli import main
from graph.evaluation.config import BenchError
from graph.evaluation.episode_log import EpisodeLog

USAGE = 2


def good(question_id: str) -> dict[str, Any]:
    """A well-formed HotpotQA record."""
    return {
        "_id": question_id,
        "question": "Who is X?",
        "answer": "Y",
        "type": "bridge",
        "level": "easy",
        "supporting_facts": [["X", 0]],
    }


def lines(*records: object) -> bytes:
    return b"".join(json.dumps(record).encode() + b"\n" for record in records)


def truncated_gzip() -> bytes:
    whole = gzip.compress(lines(*(good(str(i)) for i in range(2000))))
    return whole[: len(whole) // 2]


CASES: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "binary": ("q.jsonl", lambda: bytes(range(256)) * 8, "q.jsonl: not UTF-8 text"),
    "sqlite": ("e.sqlite3", lambda: b"SQLite format 3\x00\xf8\x00" * 64, "not UTF-8 text"),
    "truncated gzip": ("q.jsonl.gz", truncated_gzip, "q.jsonl.gz: a damaged gzip file"),
    "endless line": ("zero", lambda: b"", "zero:1: a line longer than 4,194,304 characters"),
    "not JSON": ("q.jsonl", lambda: b"{nope\n", "q.jsonl:1: not JSON"),
    "not an object": ("q.jsonl", lambda: b"[1, 2]\n", "q.jsonl:1: a HotpotQA question is a"),
    "wrong types": (
        "q.jsonl",
        lambda: lines({**good("1"), "answer": None, "supporting_facts": "X"}),
        "q.jsonl:1: answer, supporting_facts of the wrong type",
    ),
    "empty question": (
        "q.jsonl",
        lambda: lines({**good("1"), "question": "  "}),
        "q.jsonl:1: the question is empty",
    ),
    "id twice": (
        "q.jsonl",
        lambda: lines(good("1"), good("1")),
        "q.jsonl:2: question id '1' is already on line 1",
    ),
}


@pytest.mark.parametrize("bench", ["qa", "verifier"])
@pytest.mark.parametrize("case", list(CASES))
def test_a_data_file_that_is_not_hotpotqa_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], bench: str, case: str
) -> None:
    name, content, expected = CASES[case]
    data = tmp_path / name
    if name == "zero":
        data.symlink_to("/dev/zero")
    else:
        data.write_bytes(content())
    out = tmp_path / "out"
    if bench == "qa":
        extra = ["--model", "graph.evaluation.sample:sample_model", "--n", "2", "--seeds", "1"]
        extra += ["--methods", "standard", "--no-progress"]
    else:
        extra = []
    code = main(["bench", bench, "--data", str(data), "--out", str(out), *extra])
    captured = capsys.readouterr()
    assert code == USAGE, captured
    assert expected in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert "crash" not in captured.err
    assert not out.exists()


def test_bench_verifier_on_an_empty_file_says_there_is_no_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "empty.jsonl"
    data.write_text("")
    out = tmp_path / "cases.jsonl"
    assert main(["bench", "verifier", "--data", str(data), "--out", str(out)]) == USAGE
    assert f"no question in {data}" in capsys.readouterr().err
    assert not out.exists()


SAMPLE = ["--model", "graph.evaluation.sample:sample_model", "--n", "2", "--seeds", "1"]


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["qa", *SAMPLE, "--out", "{file}"], "--out {file} is not a directory"),
        (["qa", *SAMPLE, "--out", "/proc/no-such/run"], "--out: cannot create /proc/no-such/run"),
        (
            ["qa", *SAMPLE, "--methods", "standard,cot,standard", "--out", "{dir}/run"],
            "--methods names standard more than once",
        ),
        (["verifier", "--out", "{file}/cases.jsonl"], "--out: cannot create {file}"),
        (["verifier", "--out", "{dir}"], "--out {dir} is a directory"),
        (["qa", *SAMPLE, "--seeds", "100000000", "--out", "{dir}/run"], "--seeds may be at most"),
        (["qa", *SAMPLE, "--workers", "100000", "--out", "{dir}/run"], "--workers may be at most"),
        (
            ["qa", *SAMPLE, "--n", "-1", "--out", "{dir}/run"],
            "--n must be at least 1 (or 0: all questions)",
        ),
    ],
)
def test_an_out_that_cannot_hold_the_results_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: str
) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("mine\n")
    names = {"file": str(file), "dir": str(tmp_path)}
    code = main(["bench", *(arg.format(**names) for arg in argv)])
    captured = capsys.readouterr()
    assert code == USAGE, captured
    assert expected.format(**names) in captured.err
    assert len(captured.err.strip().splitlines()) == 1
    assert file.read_text() == "mine\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["notes.txt"]


def test_a_negative_sample_of_errors_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["bench", "verifier", "--sample-errors", "-1", "--out", str(tmp_path / "c.jsonl")])
    err = capsys.readouterr().err
    assert stopped.value.code == USAGE and err.count("\n") == 1
    assert "--sample-errors: expected a whole number 0 or more, got '-1'" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b'{"trunc', "Unterminated string"),
        (b"[1, 2]", "a JSON list, not an object"),
        (b"\xff\xfe", "can't decode byte 0xff"),
        (None, "Is a directory"),
    ],
)
def test_an_out_whose_config_json_is_damaged_is_refused_and_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, problem: str
) -> None:
    out = tmp_path / "run"
    out.mkdir()
    record = out / "config.json"
    if content is None:
        record.mkdir()
    else:
        record.write_bytes(content)
    code = main(["bench", "qa", *SAMPLE, "--methods", "standard", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == USAGE, err
    assert f"{record} is not a run record (" in err and problem in err
    assert sorted(path.name for path in out.iterdir()) == ["config.json"]
    if content is not None:
        assert record.read_bytes() == content


def test_an_episode_whose_text_holds_unicode_line_separators_is_read_back(
    tmp_path: Path,
) -> None:
    """JSON leaves U+2028, U+2029 and U+0085 unescaped; they are not line breaks of the log
    (before, the log was split on them and a rerun refused its own line as corrupt)."""
    log = EpisodeLog(tmp_path / "episodes.jsonl")
    text = "a page line\u2028another\u2029and\x85more"
    log.append({"key": "a", "answer": text})
    log.append({"key": "b", "answer": "plain"})
    records = log.load()
    assert records["a"]["answer"] == text
    assert list(records) == ["a", "b"]


@pytest.mark.parametrize("damage", ["bytes", "directory"])
def test_an_episode_log_that_cannot_be_read_is_refused_in_one_line(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "episodes.jsonl"
    log = EpisodeLog(path)
    if damage == "bytes":
        log.append({"key": "a"})
        with path.open("ab") as handle:
            handle.write(b"\xff\xfe\n")
        expected = ":2: not an episode record ('utf-8' codec can't decode"
    else:
        path.mkdir()
        expected = f"cannot read {path}: Is a directory"
    with pytest.raises(BenchError) as refused:
        log.load()
    assert expected in str(refused.value)
