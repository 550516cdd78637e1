"""The live Wikipedia: the MediaWiki Action API, asked politely, answers cached in SQLite.

Why the raw Action API rather than the `wikipedia` package (1.4.0) the design card
names. Its source (`wikipedia/wikipedia.py`) sends every call through
`_wiki_request`, which does `requests.get` with no timeout, never looks at the
HTTP status, has no retries, no `Retry-After` and no `maxlag`; its endpoint,
language and User-Agent are module globals (`set_lang`, `set_user_agent`), so
two sources cannot differ in one process, and it speaks plain `http://`. Its
optional rate limit sleeps `int(seconds)`, i.e. not at all below one second;
`page()` auto-suggests by default (it may open another title than the one
asked), needs two requests per page, and recognises disambiguation pages by
parsing rendered HTML with BeautifulSoup. None of it is used here: every call
is one Action API query sent through `ApiClient` (`tools/wikipedia/http.py`):

- the page: `action=query&prop=extracts|pageprops&explaintext&exsectionformat=wiki`
  `&ppprop=disambiguation&redirects` (one request: text, redirect, disambiguation flag);
- a disambiguation page's options: `prop=links&plnamespace=0`, ordered as the
  page lists them;
- a missing page's similar titles: `list=search&srlimit=5`.

Every request carries `formatversion=2` and `maxlag`. Answers (page texts,
missing pages, searches) are kept in a SQLite file with a time to live
(`tools/wikipedia/answer_cache.py`), so a repeated fetch, even from a resumed
process, costs no request; extracts and link lists are read in
`tools/wikipedia/extracts.py`.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import random
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from tools.interrupts import call_interruptibly
from tools.wikipedia.answer_cache import AnswerCache, default_cache_path
from tools.wikipedia.base import FetchResult, Page
from tools.wikipedia.extracts import disambiguation_options, parse_extract
from tools.wikipedia.http import ApiClient, ApiUnavailable

API_URL_TEMPLATE = "https://{lang}.wikipedia.org/w/api.php"
PROJECT_URL = "https://github.com/react-evidence-agent/react-evidence-agent"
CONTACT_ENV = "REACT_AGENT_CONTACT"
CACHE_VERSION = "1"
SEARCH_LIMIT = 5
MAXLAG_S = 5

UNAVAILABLE = "Wikipedia did not answer: {reason}"
REDIRECT_NOTE = '"{source}" redirects to "{target}".'
REDIRECT_SECTION_NOTE = '"{source}" redirects to "{target}" (section "{section}").'
DISAMBIGUATION_NOTE = '"{title}" is a disambiguation page.'
SHAPE_REASON = "an answer that is not a MediaWiki query result ({problem})"

_LANG = re.compile(r"^[a-z][a-z0-9-]{0,30}$")


def default_api_url(lang: str) -> str:
    """The Action API endpoint of the Wikipedia in `lang` (`en`, `zh`, `simple`, ...)."""
    if not _LANG.match(lang):
        raise ValueError(f"expected a Wikipedia language code such as 'en' or 'zh', got {lang!r}")
    return API_URL_TEMPLATE.format(lang=lang)


def default_user_agent() -> str:
    """A User-Agent in Wikimedia's format: `name/version (url; contact) library/version`.

    The contact part comes from the `REACT_AGENT_CONTACT` environment variable
    (an e-mail address or user page) when it is set.
    """
    try:
        version = importlib.metadata.version("react-evidence-agent")
    except importlib.metadata.PackageNotFoundError:
        version = "0.1.0"
    contact = os.environ.get(CONTACT_ENV, "").strip()
    details = f"{PROJECT_URL}; {contact}" if contact else PROJECT_URL
    return f"react-evidence-agent/{version} ({details}) httpx/{httpx.__version__}"


def title_key(title: str) -> str:
    """A title as MediaWiki resolves it: underscores are spaces, first letter upper case."""
    text = " ".join(title.replace("_", " ").split())
    return text[:1].upper() + text[1:]


@dataclass
class _Tally:
    """Requests made and cache hits served during one `fetch`."""

    requests: int = 0
    cache_hits: int = 0


class LiveSource:
    """A `WikiSource` backed by a live MediaWiki Action API."""

    name = "live"

    def __init__(
        self,
        lang: str = "en",
        api_url: str | None = None,
        user_agent: str | None = None,
        cache_file: Path | None = None,
        cache_ttl_s: float = 86400.0,
        *,
        min_interval_s: float = 1.0,
        timeout_s: float = 10.0,
        max_attempts: int = 4,
        max_wait_s: float = 30.0,
        maxlag_s: int | None = MAXLAG_S,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self.lang = lang
        self.api_url = api_url or default_api_url(lang)
        self.user_agent = user_agent or default_user_agent()
        self.maxlag_s = maxlag_s
        self._client = ApiClient(
            self.api_url,
            self.user_agent,
            min_interval_s=min_interval_s,
            timeout_s=timeout_s,
            max_attempts=max_attempts,
            max_wait_s=max_wait_s,
            sleep=sleep,
            clock=clock,
            rand=rand,
        )
        self._cache = AnswerCache(cache_file or default_cache_path(), cache_ttl_s, clock)

    def close(self) -> None:
        """Release the HTTP connections and the cache file."""
        self._client.close()
        self._cache.close()

    def __enter__(self) -> LiveSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def fetch(self, title: str) -> FetchResult:
        """Open the page, list a disambiguation page's options, or list similar titles."""
        key = title_key(title)
        tally = _Tally()
        if not key:
            return FetchResult()
        try:
            entry = self._cached("page", key, tally, lambda: self._fresh_page(key, tally))
            if entry["kind"] == "missing":
                found = self._cached("search", key, tally, lambda: self._search(key, tally))
                return FetchResult(
                    similar=tuple(found["titles"]),
                    requests=tally.requests,
                    cache_hits=tally.cache_hits,
                )
        except ApiUnavailable as exc:
            return FetchResult(
                error=UNAVAILABLE.format(reason=exc.reason),
                requests=tally.requests,
                cache_hits=tally.cache_hits,
            )
        return self._result(entry, tally)

    def _result(self, entry: Mapping[str, Any], tally: _Tally) -> FetchResult:
        notes: list[str] = []
        source = entry.get("redirected_from")
        if source:
            template = REDIRECT_SECTION_NOTE if entry.get("fragment") else REDIRECT_NOTE
            notes.append(
                template.format(source=source, target=entry["title"], section=entry.get("fragment"))
            )
        if entry["kind"] == "ambiguous":
            notes.append(DISAMBIGUATION_NOTE.format(title=entry["title"]))
            return FetchResult(
                ambiguous=tuple(entry["options"]),
                requests=tally.requests,
                cache_hits=tally.cache_hits,
                notes=tuple(notes),
            )
        sentences, sections = parse_extract(entry["extract"], self.lang)
        page = Page(
            title=entry["title"], sentences=sentences, sections=sections, redirected_from=source
        )
        return FetchResult(
            page=page, requests=tally.requests, cache_hits=tally.cache_hits, notes=tuple(notes)
        )

    def _cache_key(self, kind: str, key: str) -> str:
        return json.dumps([CACHE_VERSION, self.api_url, kind, key], ensure_ascii=False)

    def _cached(
        self, kind: str, key: str, tally: _Tally, compute: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        cache_key = self._cache_key(kind, key)
        stored = self._cache.get(cache_key)
        if stored is not None:
            tally.cache_hits += 1
            return stored
        try:
            value = compute()
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            problem = f"{type(exc).__name__}: {exc}"
            raise ApiUnavailable(SHAPE_REASON.format(problem=problem), 0) from exc
        self._cache.put(cache_key, value)
        return value

    def _query(self, params: Mapping[str, str], tally: _Tally) -> dict[str, Any]:
        full = {"action": "query", "format": "json", "formatversion": "2", **params}
        if self.maxlag_s is not None:
            full["maxlag"] = str(self.maxlag_s)
        try:
            reply = call_interruptibly(lambda: self._client.get(full))
        except ApiUnavailable as exc:
            tally.requests += exc.requests
            raise
        tally.requests += reply.requests
        query = reply.data.get("query") or {}
        if not isinstance(query, dict):
            raise TypeError(f"'query' is a {type(query).__name__}")
        return query

    def _fresh_page(self, key: str, tally: _Tally) -> dict[str, Any]:
        """Ask the API for the page; a redirect's target is cached under its own title too."""
        entry = self._query_page(key, tally)
        if entry.get("redirected_from"):
            target = {**entry, "redirected_from": None, "fragment": None}
            self._cache.put(self._cache_key("page", title_key(entry["title"])), target)
        return entry

    def _query_page(self, key: str, tally: _Tally) -> dict[str, Any]:
        query = self._query(
            {
                "prop": "extracts|pageprops",
                "explaintext": "1",
                "exsectionformat": "wiki",
                "ppprop": "disambiguation",
                "redirects": "1",
                "titles": key,
            },
            tally,
        )
        pages = query.get("pages") or []
        if not pages or any(pages[0].get(flag) for flag in ("missing", "invalid", "special")):
            return {"kind": "missing"}
        page = pages[0]
        redirects = query.get("redirects") or []
        entry: dict[str, Any] = {
            "kind": "page",
            "title": _text(page["title"], "title"),
            "extract": _text(page.get("extract") or "", "extract"),
            "redirected_from": redirects[0]["from"] if redirects else None,
            "fragment": redirects[0].get("tofragment") if redirects else None,
        }
        if "disambiguation" in (page.get("pageprops") or {}):
            links = self._links(page["title"], tally)
            options = disambiguation_options(page["title"], links, entry["extract"])
            if options:
                entry.update(kind="ambiguous", options=list(options))
        return entry

    def _links(self, title: str, tally: _Tally) -> list[str]:
        query = self._query(
            {"prop": "links", "titles": title, "plnamespace": "0", "pllimit": "max"}, tally
        )
        pages = query.get("pages") or [{}]
        return [_text(link["title"], "link") for link in pages[0].get("links") or []]

    def _search(self, key: str, tally: _Tally) -> dict[str, Any]:
        query = self._query(
            {
                "list": "search",
                "srsearch": key,
                "srlimit": str(SEARCH_LIMIT),
                "srnamespace": "0",
                "srprop": "",
            },
            tally,
        )
        return {"titles": [_text(hit["title"], "search hit") for hit in query.get("search") or []]}


def _text(value: object, what: str) -> str:
    """`value` when it is a string; a `TypeError` naming `what` otherwise."""
    if not isinstance(value, str):
        raise TypeError(f"the {what} is a {type(value).__name__}, not text")
    return value
