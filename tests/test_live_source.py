"""The live Wikipedia source against a local fake of the MediaWiki Action API.

Every case checks what the agent would observe and how many requests reached
the server. Sleeps go to a fake clock that records them, so retries and waits
cost no real time; only the timeout cases wait (a fraction of a second).
"""

from __future__ import annotations

import email.utils
import re
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mediawiki_server import FakeMediaWiki, FakePage, Fault

from tools.wikipedia.base import Section
from tools.wikipedia.extracts import disambiguation_options, parse_extract
from tools.wikipedia.http import backoff_delay, parse_retry_after
from tools.wikipedia.live import (
    DISAMBIGUATION_NOTE,
    REDIRECT_NOTE,
    REDIRECT_SECTION_NOTE,
    UNAVAILABLE,
    LiveSource,
    default_api_url,
)
from tools.wikipedia.snapshot import iter_snapshot

LEAD_TITLES = ("Christopher Nolan", "Nic Nolan", "Brian O'Nolan", "Tosca")


def snapshot_leads() -> dict[str, str]:
    """Lead paragraphs of a few real articles from the offline snapshot."""
    leads = {}
    for title, sentences in iter_snapshot():
        if title in LEAD_TITLES:
            leads[title] = "".join(sentences)
    assert set(leads) == set(LEAD_TITLES)
    return leads


LEADS = snapshot_leads()
NOLAN_EXTRACT = (
    LEADS["Christopher Nolan"]
    + "\n\n\n== Early life ==\n"
    + "Nolan was born in Westminster, London, and grew up in Highgate. "
    + "His father was British and his mother American.\n\n\n"
    + "=== Education ===\nHe studied English literature at University College London.\n\n\n"
    + "== Career ==\nHis first feature was Following (1998).\n\n\n"
    + "== References ==\n"
)
TOSCA_DAB_EXTRACT = (
    "Tosca is an opera by Giacomo Puccini.\nTosca may also refer to:\n\n\n"
    "== Film ==\n"
    "Tosca (1941 film), an Italian film directed by Carl Koch\n"
    "Tosca (1956 film), an Italian film directed by Carmine Gallone\n\n\n"
    "== Other uses ==\n"
    "La Tosca, an 1887 play by Victorien Sardou\n"
    "Tosca (band), an Austrian electronic duo"
)
TOSCA_DAB_LINKS = (
    "Carl Koch",
    "Carmine Gallone",
    "Giacomo Puccini",
    "La Tosca",
    "Tosca",
    "Tosca (1941 film)",
    "Tosca (1956 film)",
    "Tosca (band)",
    "Victorien Sardou",
)
EN_PAGES = [
    FakePage("Christopher Nolan", NOLAN_EXTRACT),
    FakePage("Nic Nolan", LEADS["Nic Nolan"]),
    FakePage("Brian O'Nolan", LEADS["Brian O'Nolan"]),
    FakePage("Tosca", LEADS["Tosca"]),
    FakePage(
        "Tosca (disambiguation)",
        TOSCA_DAB_EXTRACT,
        disambiguation=True,
        links=TOSCA_DAB_LINKS,
    ),
]
EN_REDIRECTS = {
    "Christopher Edward Nolan": "Christopher Nolan",
    "Early life of Christopher Nolan": "Christopher Nolan#Early life",
}
ZH_TITLE = "克里斯托弗·诺兰"
ZH_EXTRACT = (
    "克里斯托弗·爱德华·诺兰（英语：Christopher Edward Nolan，1970年7月30日—），"
    "英国电影导演、编剧及制片人。他执导的电影包括《蝙蝠侠：侠影之谜》和《盗梦空间》！"
    "他是二十一世纪最成功的电影人之一？\n\n\n"
    "== 早年生活 ==\n诺兰生于伦敦威斯敏斯特。他的父亲是英国人，母亲是美国人。"
)


class FakeClock:
    """Wall time that moves only when slept through or advanced; sleeps are recorded."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0
        self.sleeps: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def wiki() -> Iterator[FakeMediaWiki]:
    with FakeMediaWiki(EN_PAGES, EN_REDIRECTS) as server:
        yield server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


SourceFactory = Callable[..., LiveSource]


@pytest.fixture
def make_source(wiki: FakeMediaWiki, clock: FakeClock, tmp_path: Path) -> Iterator[SourceFactory]:
    """Build live sources on the fake wiki and one cache file; close them afterwards."""
    sources: list[LiveSource] = []

    def build(**overrides: Any) -> LiveSource:
        settings: dict[str, Any] = {
            "api_url": wiki.url,
            "cache_file": tmp_path / "live.sqlite3",
            "min_interval_s": 0.0,
            "timeout_s": 2.0,
            "max_attempts": 3,
            "sleep": clock.sleep,
            "clock": clock.time,
            "rand": lambda: 0.0,
        }
        settings.update(overrides)
        source = LiveSource(**settings)
        sources.append(source)
        return source

    yield build
    for source in sources:
        source.close()


def test_ordinary_page_is_split_into_sentences_and_sections(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    result = make_source().fetch("Christopher Nolan")

    assert result.page is not None and result.error is None
    page = result.page
    assert page.title == "Christopher Nolan" and page.redirected_from is None
    assert page.sentences[0].startswith("Christopher Edward Nolan ( ; born 30 July 1970)")
    assert page.sentences[1].startswith("He is one of the highest-grossing directors")
    early = page.sentences.index("Nolan was born in Westminster, London, and grew up in Highgate.")
    assert page.sections == (
        Section("Early life", early),
        Section("Education", early + 2),
        Section("Career", early + 3),
    )
    assert page.sentences[-1] == "His first feature was Following (1998)."
    assert not any("==" in sentence for sentence in page.sentences)
    assert (result.requests, result.cache_hits, wiki.request_count()) == (1, 0, 1)
    params = wiki.received[0].params
    assert params == {
        "action": "query",
        "format": "json",
        "formatversion": "2",
        "maxlag": "5",
        "prop": "extracts|pageprops",
        "explaintext": "1",
        "exsectionformat": "wiki",
        "ppprop": "disambiguation",
        "redirects": "1",
        "titles": "Christopher Nolan",
    }


def test_title_is_normalised_like_mediawiki(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    result = make_source().fetch("  christopher_Nolan ")

    assert result.page is not None and result.page.title == "Christopher Nolan"
    assert wiki.received[0].params["titles"] == "Christopher Nolan"
    assert result.requests == wiki.request_count() == 1


def test_redirect_is_followed_and_reported(wiki: FakeMediaWiki, make_source: SourceFactory) -> None:
    result = make_source().fetch("Christopher Edward Nolan")

    assert result.page is not None
    assert result.page.title == "Christopher Nolan"
    assert result.page.redirected_from == "Christopher Edward Nolan"
    assert result.notes == (
        REDIRECT_NOTE.format(source="Christopher Edward Nolan", target="Christopher Nolan"),
    )
    assert result.requests == wiki.request_count() == 1


def test_redirect_to_a_section_names_the_section(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    result = make_source().fetch("Early life of Christopher Nolan")

    assert result.page is not None and result.page.title == "Christopher Nolan"
    assert result.notes == (
        REDIRECT_SECTION_NOTE.format(
            source="Early life of Christopher Nolan",
            target="Christopher Nolan",
            section="Early life",
        ),
    )
    assert result.requests == wiki.request_count() == 1


def test_redirect_target_is_cached_under_its_own_title(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    source = make_source()
    source.fetch("Christopher Edward Nolan")
    direct = source.fetch("Christopher Nolan")

    assert direct.page is not None and direct.page.redirected_from is None
    assert direct.notes == ()
    assert (direct.requests, direct.cache_hits, wiki.request_count()) == (0, 1, 1)


def test_missing_page_lists_similar_titles_without_opening_one(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    result = make_source().fetch("Nolan films")

    assert result.page is None and result.ambiguous == () and result.error is None
    assert result.similar == ("Christopher Nolan", "Nic Nolan", "Brian O'Nolan")
    assert result.requests == wiki.request_count() == 2
    search = wiki.received[1].params
    assert search["list"] == "search"
    assert search["srsearch"] == "Nolan films"
    assert search["srlimit"] == "5"
    assert "titles" not in search


def test_missing_page_with_no_search_hits_has_empty_similar(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    result = make_source().fetch("Zzyzx Road")

    assert result.page is None and result.similar == () and result.error is None
    assert result.requests == wiki.request_count() == 2


def test_disambiguation_page_lists_options_in_page_order(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    result = make_source().fetch("Tosca (disambiguation)")

    assert result.page is None and result.similar == ()
    assert result.ambiguous == (
        "Tosca",
        "Tosca (1941 film)",
        "Tosca (1956 film)",
        "La Tosca",
        "Tosca (band)",
    )
    assert result.notes == (DISAMBIGUATION_NOTE.format(title="Tosca (disambiguation)"),)
    assert result.requests == wiki.request_count() == 2
    links = wiki.received[1].params
    assert (links["prop"], links["plnamespace"], links["pllimit"]) == ("links", "0", "max")


@pytest.mark.parametrize(
    ("fault", "overrides", "sleeps"),
    [
        pytest.param(Fault(lag_s=8), {}, [5.0], id="maxlag-waits-retry-after"),
        pytest.param(Fault(status=429, retry_after="3"), {}, [3.0], id="429-waits-retry-after"),
        pytest.param(Fault(status=503), {}, [1.0], id="503-backs-off"),
        pytest.param(Fault(delay_s=2.0), {"timeout_s": 0.25}, [1.0], id="slow-past-timeout"),
    ],
)
def test_one_failure_then_success(
    wiki: FakeMediaWiki,
    make_source: SourceFactory,
    clock: FakeClock,
    fault: Fault,
    overrides: dict[str, Any],
    sleeps: list[float],
) -> None:
    wiki.fail_next(fault)
    result = make_source(**overrides).fetch("Tosca")

    assert result.page is not None and result.page.title == "Tosca"
    assert result.error is None
    assert clock.sleeps == sleeps
    assert result.requests == wiki.request_count() == 2


@pytest.mark.parametrize(
    ("fault", "overrides", "reason", "sleeps"),
    [
        pytest.param(
            Fault(lag_s=8),
            {},
            "API error 'maxlag': Waiting for 10.64.48.35: 8 seconds lagged. after 3 attempt(s)",
            [5.0, 5.0],
            id="maxlag-never-clears",
        ),
        pytest.param(
            Fault(status=503),
            {"max_attempts": 4},
            "HTTP 503 after 4 attempt(s)",
            [1.0, 2.0, 4.0],
            id="503-exponential-backoff",
        ),
        pytest.param(
            Fault(status=502),
            {"rand": lambda: 1.0},
            "HTTP 502 after 3 attempt(s)",
            [1.25, 2.5],
            id="502-jitter-up-to-a-quarter",
        ),
        pytest.param(
            Fault(delay_s=2.0),
            {"timeout_s": 0.2, "max_attempts": 2},
            "no answer within 0.2 s after 2 attempt(s)",
            [1.0],
            id="every-answer-too-slow",
        ),
    ],
)
def test_persistent_failure_ends_in_an_honest_error(
    wiki: FakeMediaWiki,
    make_source: SourceFactory,
    clock: FakeClock,
    fault: Fault,
    overrides: dict[str, Any],
    reason: str,
    sleeps: list[float],
) -> None:
    wiki.fail_always(fault)
    result = make_source(**overrides).fetch("Tosca")

    assert result.page is None and result.similar == () and result.ambiguous == ()
    assert result.error == UNAVAILABLE.format(reason=reason)
    assert clock.sleeps == sleeps
    assert result.requests == wiki.request_count() == overrides.get("max_attempts", 3)


def test_retry_after_longer_than_allowed_gives_up_at_once(
    wiki: FakeMediaWiki, make_source: SourceFactory, clock: FakeClock
) -> None:
    wiki.fail_next(Fault(status=429, retry_after="120"))
    result = make_source(max_wait_s=30.0).fetch("Tosca")

    assert result.error == UNAVAILABLE.format(
        reason="HTTP 429 after 1 attempt(s); the server asked to wait 120 s, more than 30 s"
    )
    assert clock.sleeps == []
    assert result.requests == wiki.request_count() == 1


def test_client_errors_are_not_retried(
    wiki: FakeMediaWiki, make_source: SourceFactory, clock: FakeClock
) -> None:
    wiki.fail_next(Fault(status=403))
    forbidden = make_source().fetch("Tosca")
    wiki.fail_next(Fault(error_code="badvalue"))
    bad = make_source().fetch("Tosca")

    assert forbidden.error == UNAVAILABLE.format(reason="HTTP 403 after 1 attempt(s)")
    assert bad.error == UNAVAILABLE.format(
        reason="API error 'badvalue': Scripted failure. after 1 attempt(s)"
    )
    assert clock.sleeps == []
    assert (forbidden.requests, bad.requests, wiki.request_count()) == (1, 1, 2)


def test_connection_refused_ends_in_an_error(make_source: SourceFactory, clock: FakeClock) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = make_source(api_url=f"http://127.0.0.1:{port}/w/api.php").fetch("Tosca")

    assert result.error == UNAVAILABLE.format(
        reason="connection failed (ConnectError) after 3 attempt(s)"
    )
    assert result.requests == 3
    assert clock.sleeps == [1.0, 2.0]


def test_chinese_wikipedia_page(clock: FakeClock, tmp_path: Path) -> None:
    with (
        FakeMediaWiki([FakePage(ZH_TITLE, ZH_EXTRACT)]) as zh_wiki,
        LiveSource(
            lang="zh",
            api_url=zh_wiki.url,
            cache_file=tmp_path / "zh.sqlite3",
            min_interval_s=0.0,
            sleep=clock.sleep,
            clock=clock.time,
        ) as source,
    ):
        result = source.fetch(ZH_TITLE)

        assert result.page is not None
        assert result.page.sentences == (
            "克里斯托弗·爱德华·诺兰（英语：Christopher Edward Nolan，1970年7月30日—），"
            "英国电影导演、编剧及制片人。",
            "他执导的电影包括《蝙蝠侠：侠影之谜》和《盗梦空间》！",
            "他是二十一世纪最成功的电影人之一？",
            "诺兰生于伦敦威斯敏斯特。",
            "他的父亲是英国人，母亲是美国人。",
        )
        assert result.page.sections == (Section("早年生活", 3),)
        assert zh_wiki.received[0].params["titles"] == ZH_TITLE
        assert result.requests == zh_wiki.request_count() == 1


def test_lang_selects_the_wikipedia_and_api_url_overrides_it(tmp_path: Path) -> None:
    with LiveSource(lang="zh", cache_file=tmp_path / "c.sqlite3") as zh:
        assert zh.api_url == "https://zh.wikipedia.org/w/api.php"
    with LiveSource(
        lang="zh", api_url="http://127.0.0.1:9/w/api.php", cache_file=tmp_path / "c.sqlite3"
    ) as local:
        assert local.api_url == "http://127.0.0.1:9/w/api.php"
    with pytest.raises(ValueError, match="language code"):
        default_api_url("zh/../evil")


def test_default_user_agent_follows_the_wikimedia_policy(
    wiki: FakeMediaWiki, make_source: SourceFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REACT_AGENT_CONTACT", "ops@example.org")
    make_source().fetch("Tosca")

    agent = wiki.received[0].headers["user-agent"]
    assert re.fullmatch(
        r"react-evidence-agent/\d+\.\d+\S* \(https://\S+; ops@example\.org\) httpx/\S+", agent
    ), agent


def test_configured_user_agent_is_sent_verbatim(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    agent = "my-study-bot/2.0 (https://example.org/bot; me@example.org)"
    make_source(user_agent=agent).fetch("Tosca")

    assert wiki.received[0].headers["user-agent"] == agent


def test_second_identical_fetch_makes_no_request(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    source = make_source()
    first = source.fetch("Christopher Nolan")
    second = source.fetch("Christopher Nolan")

    assert second.page == first.page
    assert (second.requests, second.cache_hits, wiki.request_count()) == (0, 1, 1)


def test_cache_survives_a_new_source_on_the_same_file(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    make_source().fetch("Christopher Edward Nolan")
    make_source().fetch("Nolan films")
    again = make_source()
    redirected = again.fetch("Christopher Edward Nolan")
    missing = again.fetch("Nolan films")

    assert redirected.page is not None
    assert redirected.page.redirected_from == "Christopher Edward Nolan"
    assert (redirected.requests, redirected.cache_hits) == (0, 1)
    assert missing.similar == ("Christopher Nolan", "Nic Nolan", "Brian O'Nolan")
    assert (missing.requests, missing.cache_hits) == (0, 2)
    assert wiki.request_count() == 3


def test_expired_cache_entry_costs_one_request(
    wiki: FakeMediaWiki, make_source: SourceFactory, clock: FakeClock
) -> None:
    source = make_source(cache_ttl_s=3600.0)
    source.fetch("Tosca")
    clock.now += 3599
    fresh = source.fetch("Tosca")
    clock.now += 2
    expired = source.fetch("Tosca")
    after_refresh = source.fetch("Tosca")

    assert (fresh.requests, fresh.cache_hits) == (0, 1)
    assert (expired.requests, expired.cache_hits) == (1, 0)
    assert expired.page is not None and expired.page.title == "Tosca"
    assert (after_refresh.requests, after_refresh.cache_hits) == (0, 1)
    assert wiki.request_count() == 2


def test_failures_are_not_cached(wiki: FakeMediaWiki, make_source: SourceFactory) -> None:
    source = make_source()
    wiki.fail_next(Fault(status=503), Fault(status=503), Fault(status=503))
    failed = source.fetch("Tosca")
    recovered = source.fetch("Tosca")

    assert failed.error is not None
    assert recovered.page is not None
    assert (recovered.requests, recovered.cache_hits) == (1, 0)
    assert wiki.request_count() == 4


def test_cache_is_kept_apart_per_wiki(wiki: FakeMediaWiki, make_source: SourceFactory) -> None:
    make_source().fetch("Tosca")
    with FakeMediaWiki(EN_PAGES) as other:
        result = make_source(api_url=other.url).fetch("Tosca")
        assert (result.requests, result.cache_hits, other.request_count()) == (1, 0, 1)


def test_minimum_interval_between_requests(
    wiki: FakeMediaWiki, make_source: SourceFactory, clock: FakeClock
) -> None:
    source = make_source(min_interval_s=1.5)
    source.fetch("Tosca")
    source.fetch("Nic Nolan")
    clock.now += 10
    source.fetch("Brian O'Nolan")

    assert clock.sleeps == [1.5]
    assert wiki.request_count() == 3


def run_in_threads(work: Callable[[int], object], count: int) -> None:
    """Start `count` threads together on `work(i)` and wait for all."""
    barrier = threading.Barrier(count)

    def run(i: int) -> None:
        barrier.wait()
        work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)


def test_one_request_at_a_time_across_threads(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    titles = ["Tosca", "Nic Nolan", "Brian O'Nolan", "Christopher Nolan"]
    source = make_source()
    wiki.fail_always(Fault(delay_s=0.05))
    run_in_threads(lambda i: source.fetch(titles[i]), len(titles))

    assert wiki.request_count() == 4
    assert wiki.max_in_flight == 1


def test_the_server_sees_overlap_when_clients_do_not_share_a_lock(
    wiki: FakeMediaWiki, make_source: SourceFactory
) -> None:
    sources = [make_source(), make_source()]
    wiki.fail_always(Fault(delay_s=0.3))
    run_in_threads(lambda i: sources[i].fetch("Tosca"), 2)

    assert wiki.max_in_flight == 2


def test_parse_extract_keeps_sections_that_have_sentences() -> None:
    text = (
        "Lead one. Lead two.\n\n\n== A ==\n\n\n=== A1 ===\nIn A1.\n\n\n"
        "== Empty ==\n\n\n== B ==\nIn B. More B.\n\n\n== See also ==\n\n\n== References =="
    )
    sentences, sections = parse_extract(text, "en")

    assert sentences == ("Lead one.", "Lead two.", "In A1.", "In B.", "More B.")
    assert sections == (Section("A", 2), Section("A1", 2), Section("B", 3))


def test_disambiguation_options_fall_back_to_all_links() -> None:
    links = ["Mercury (planet)", "Mercury (element)", "Mercury"]

    assert disambiguation_options("Mercury", links, "") == (
        "Mercury (planet)",
        "Mercury (element)",
    )
    assert disambiguation_options(
        "Mercury", links, "Mercury (element), a metal\nMercuryville, a town"
    ) == ("Mercury (element)",)


def test_retry_after_accepts_seconds_and_http_dates() -> None:
    now = 1_800_000_000.0

    assert parse_retry_after("7", now) == 7.0
    assert parse_retry_after(email.utils.formatdate(now + 30, usegmt=True), now) == 30.0
    assert parse_retry_after(email.utils.formatdate(now - 30, usegmt=True), now) == 0.0
    assert parse_retry_after("soon", now) is None
    assert parse_retry_after(None, now) is None
    assert backoff_delay(10, 1.0, 30.0, lambda: 0.0) == 30.0
