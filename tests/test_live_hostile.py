"""The live source against a hostile server on 127.0.0.1: every fetch ends, honestly.

A server that drips its answer, sends 100 MB, redirects in a loop or off its host,
or answers JSON of the wrong shape gives an observation saying so within the
configured timeout, and nothing it sent is cached; text with lone surrogates is
kept (as U+FFFD) and cached like any page.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hostile_http import Answer, HostileServer
from mediawiki_server import FakeMediaWiki, FakePage, Fault

from graph.cli import main
from tools.wikipedia.live import LiveSource

GOOD_PAGE = {"query": {"pages": [{"pageid": 1, "ns": 0, "title": "X", "extract": "Hi there."}]}}


def source_on(url: str, tmp_path: Path, sleeps: list[float] | None = None) -> LiveSource:
    """A live source with a short timeout, two attempts and recorded (not slept) waits."""
    record = sleeps if sleeps is not None else []
    return LiveSource(
        api_url=url,
        cache_file=tmp_path / "live.sqlite3",
        min_interval_s=0.0,
        timeout_s=0.5,
        max_attempts=2,
        max_wait_s=5.0,
        sleep=record.append,
        rand=lambda: 0.0,
    )


@pytest.fixture
def hostile() -> Iterator[HostileServer]:
    with HostileServer(Answer(body=json.dumps(GOOD_PAGE).encode())) as server:
        yield server


def test_an_answer_dripped_a_byte_at_a_time_is_cut_off_at_the_timeout(
    hostile: HostileServer, tmp_path: Path
) -> None:
    hostile.answer = Answer(kind="drip", drip_interval_s=0.1)
    started = time.monotonic()
    with source_on(hostile.url, tmp_path) as source:
        result = source.fetch("X")
    assert time.monotonic() - started < 3.0
    assert result.page is None
    assert result.error == (
        "Wikipedia did not answer: no complete answer within 0.5 s after 2 attempt(s)"
    )


@pytest.mark.parametrize("declared", [True, False])
def test_a_100_mb_answer_is_refused_unread_and_not_retried(
    hostile: HostileServer, tmp_path: Path, declared: bool
) -> None:
    hostile.answer = Answer(kind="huge", declare_length=declared)
    with source_on(hostile.url, tmp_path) as source:
        result = source.fetch("X")
    assert result.error == (
        "Wikipedia did not answer: an answer larger than 16 MB after 1 attempt(s)"
    )
    assert hostile.requests == 1


def test_a_redirect_loop_ends_in_an_error(hostile: HostileServer, tmp_path: Path) -> None:
    hostile.answer = Answer(kind="redirect")
    with source_on(hostile.url, tmp_path) as source:
        result = source.fetch("X")
    assert result.error == "Wikipedia did not answer: more than 5 redirects after 1 attempt(s)"
    assert hostile.requests == 6


def test_a_redirect_to_another_host_is_not_followed(hostile: HostileServer, tmp_path: Path) -> None:
    hostile.answer = Answer(kind="offhost")
    with source_on(hostile.url, tmp_path) as source:
        result = source.fetch("X")
    assert result.error == (
        "Wikipedia did not answer: a redirect to another host (localhost), not followed,"
        " after 1 attempt(s)"
    )
    assert hostile.requests == 1


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"query": {"pages": "x"}}, "AttributeError: 'str' object has no attribute 'get'"),
        ({"query": {"pages": [{"ns": 0, "extract": "Hi."}]}}, "KeyError: 'title'"),
        ({"query": {"pages": [{"title": "X", "extract": 5}]}}, "the extract is a int, not text"),
        ({"query": {"pages": [{"title": 7, "extract": "Hi."}]}}, "the title is a int, not text"),
        ({"query": ["x"]}, "'query' is a list"),
    ],
)
def test_an_answer_of_the_wrong_shape_is_reported_and_not_cached(
    hostile: HostileServer, tmp_path: Path, body: dict[str, Any], problem: str
) -> None:
    hostile.answer = Answer(body=json.dumps(body).encode())
    with source_on(hostile.url, tmp_path) as source:
        result = source.fetch("X")
        assert result.page is None
        assert result.error is not None
        assert result.error.startswith(
            "Wikipedia did not answer: an answer that is not a MediaWiki query result ("
        )
        assert problem in result.error
        hostile.answer = Answer(body=json.dumps(GOOD_PAGE).encode())
        again = source.fetch("X")
    assert again.page is not None
    assert again.page.sentences == ("Hi there.",)
    assert again.cache_hits == 0


def test_lone_surrogates_become_replacement_characters_and_are_cached(
    hostile: HostileServer, tmp_path: Path
) -> None:
    page = {"query": {"pages": [{"title": "X", "extract": "A lone \\ud800 here. Fine."}]}}
    hostile.answer = Answer(body=json.dumps(page).replace("\\\\", "\\").encode())
    with source_on(hostile.url, tmp_path) as source:
        first = source.fetch("X")
        second = source.fetch("X")
    assert first.error is None
    assert first.page is not None
    assert first.page.sentences == ("A lone \ufffd here.", "Fine.")
    assert second.cache_hits == 1


def test_a_maxlag_error_with_a_lag_that_is_not_a_number_is_retried(
    hostile: HostileServer, tmp_path: Path
) -> None:
    error = {"error": {"code": "maxlag", "info": "lagged", "lag": "soon"}}
    hostile.answer = Answer(body=json.dumps(error).encode())
    sleeps: list[float] = []
    with source_on(hostile.url, tmp_path, sleeps) as source:
        result = source.fetch("X")
    assert result.error == "Wikipedia did not answer: API error 'maxlag': lagged after 2 attempt(s)"
    assert sleeps == [5.0]


def test_an_absurd_retry_after_is_capped_in_the_message(tmp_path: Path) -> None:
    with FakeMediaWiki([FakePage("X", "Hi.")]) as wiki:
        wiki.fail_always(Fault(status=503, retry_after="9" * 400))
        with source_on(wiki.url, tmp_path) as source:
            result = source.fetch("X")
    assert result.error == (
        "Wikipedia did not answer: HTTP 503 after 1 attempt(s);"
        " the server asked to wait 31536000 s, more than 5 s"
    )


@pytest.mark.slow
def test_the_cli_bounds_a_hanging_search_by_the_live_settings(
    hostile: HostileServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    hostile.answer = Answer(kind="drip", drip_interval_s=0.1)
    script = tmp_path / "script.json"
    replies = ["Thought: Look it up.\nAction: Search[X]", "Thought: No page.\nAction: Finish[Y]"]
    script.write_text(json.dumps(replies))
    argv = ["ask", "Who is X?", "--model", f"scripted:{script}", "--json", "--source", "live"]
    argv += ["--db", str(tmp_path / "episodes.sqlite3"), "--wiki-api-url", hostile.url]
    started = time.monotonic()
    main([*argv, "--live-timeout-s", "0.5", "--live-attempts", "1"])
    assert time.monotonic() - started < 5.0
    result = json.loads(capsys.readouterr().out)
    assert result["trajectory"][0]["observation"] == (
        "Wikipedia did not answer: no complete answer within 0.5 s after 1 attempt(s)"
    )
    assert hostile.requests == 1


@pytest.mark.parametrize(
    ("flag", "value", "problem"),
    [
        ("--live-timeout-s", "0", "use a number more than 0 to 600"),
        ("--live-attempts", "0", "use a whole number from 1 to 10"),
    ],
)
def test_live_settings_out_of_range_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flag: str, value: str, problem: str
) -> None:
    argv = ["ask", "Who is X?", "--db", str(tmp_path / "e.sqlite3"), "--source", "live"]
    assert main([*argv, flag, value]) != 0
    error = capsys.readouterr().err.strip()
    assert problem in error and flag in error and len(error.splitlines()) == 1
