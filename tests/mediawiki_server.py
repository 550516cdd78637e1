"""A local HTTP server that answers like the MediaWiki Action API, with scripted faults.

It serves `action=query` with `prop=extracts|pageprops|links`, `redirects` and
`list=search` in `formatversion=2` shapes (API:Query, Extension:TextExtracts,
API:Search, API:Redirects, Manual:Maxlag parameter), records every request it
receives, and can be told to misbehave: replica lag (a `maxlag` error with HTTP
200, `Retry-After` and `X-Database-Lag` when the client's `maxlag` is lower),
HTTP error statuses with or without `Retry-After`, API errors, and slow answers.
It listens on 127.0.0.1 on a free port and is stopped by `stop()`.
"""

from __future__ import annotations

import json
import re
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

API_PATH = "/w/api.php"
DB_HOST = "10.64.48.35"
POLL_S = 0.02
DOCREF = "See https://en.wikipedia.org/w/api.php for API usage."

_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class FakePage:
    """A page the fake wiki holds: its plain-text extract (with `== wiki ==` headings)."""

    title: str
    extract: str
    disambiguation: bool = False
    links: tuple[str, ...] = ()


@dataclass(frozen=True)
class Fault:
    """How to misbehave on one request.

    `lag_s`: replica lag; a `maxlag` error when the request's `maxlag` is lower.
    `status`: answer with this HTTP status (and `retry_after`, if set) instead.
    `error_code`: answer HTTP 200 with this API error. `delay_s`: wait this long
    before answering normally.
    """

    lag_s: int | None = None
    status: int | None = None
    retry_after: str | None = None
    error_code: str | None = None
    delay_s: float = 0.0


@dataclass(frozen=True)
class Received:
    """One request as the server saw it (header names in lower case)."""

    params: dict[str, str]
    headers: dict[str, str]


def normalize(title: str) -> str:
    """MediaWiki's title normalisation on Wikipedia: underscores, spaces, first letter."""
    text = " ".join(title.replace("_", " ").split())
    return text[:1].upper() + text[1:]


class FakeMediaWiki:
    """The fake Action API; use as a context manager or call `start()`/`stop()`."""

    def __init__(
        self,
        pages: Iterable[FakePage],
        redirects: Mapping[str, str] | None = None,
    ) -> None:
        self.pages = {page.title: page for page in pages}
        self.redirects = dict(redirects or {})
        self.received: list[Received] = []
        self.max_in_flight = 0
        self._in_flight = 0
        self._faults: deque[Fault] = deque()
        self._always: Fault | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": POLL_S}, daemon=True
        )

    @property
    def url(self) -> str:
        """The API endpoint, `http://127.0.0.1:<port>/w/api.php`."""
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}{API_PATH}"

    def start(self) -> FakeMediaWiki:
        """Start serving in a background thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, cut short any slow answer, and free the port."""
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeMediaWiki:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def fail_next(self, *faults: Fault) -> None:
        """Apply these faults to the next requests, one each, in order."""
        with self._lock:
            self._faults.extend(faults)

    def fail_always(self, fault: Fault | None) -> None:
        """Apply `fault` to every request once the scripted ones are used up."""
        with self._lock:
            self._always = fault

    def request_count(self) -> int:
        """How many requests the server has received."""
        with self._lock:
            return len(self.received)

    def _next_fault(self, received: Received) -> Fault | None:
        with self._lock:
            self.received.append(received)
            self._in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self._in_flight)
            return self._faults.popleft() if self._faults else self._always

    def _done(self) -> None:
        with self._lock:
            self._in_flight -= 1

    def answer(self, params: Mapping[str, str]) -> dict[str, Any]:
        """The JSON body a healthy wiki gives for `params`."""
        if params.get("action") != "query":
            return _api_error("badvalue", f'Unrecognized value for parameter "action": '
                              f'{params.get("action", "")}.')
        query: dict[str, Any] = {}
        if "titles" in params:
            self._answer_titles(params, query)
        if params.get("list") == "search":
            self._answer_search(params, query)
        return {"batchcomplete": True, "query": query}

    def _answer_titles(self, params: Mapping[str, str], query: dict[str, Any]) -> None:
        props = set(params.get("prop", "").split("|"))
        pages = []
        for asked in params["titles"].split("|"):
            title = normalize(asked)
            if title != asked:
                query.setdefault("normalized", []).append(
                    {"fromencoded": False, "from": asked, "to": title}
                )
            if "redirects" in params and title in self.redirects:
                target, _, fragment = self.redirects[title].partition("#")
                redirect = {"from": title, "to": target}
                if fragment:
                    redirect["tofragment"] = fragment
                query.setdefault("redirects", []).append(redirect)
                title = target
            pages.append(self._page_json(title, props, params))
        query["pages"] = pages

    def _page_json(
        self, title: str, props: set[str], params: Mapping[str, str]
    ) -> dict[str, Any]:
        page = self.pages.get(title)
        if page is None:
            return {"ns": 0, "title": title, "missing": True}
        pageid = 1000 + list(self.pages).index(title)
        answer: dict[str, Any] = {"pageid": pageid, "ns": 0, "title": title}
        if "extracts" in props:
            answer["extract"] = page.extract
        wanted_props = params.get("ppprop", "disambiguation").split("|")
        if "pageprops" in props and page.disambiguation and "disambiguation" in wanted_props:
            answer["pageprops"] = {"disambiguation": ""}
        if "links" in props and page.links:
            answer["links"] = [{"ns": 0, "title": link} for link in sorted(page.links)]
        return answer

    def _answer_search(self, params: Mapping[str, str], query: dict[str, Any]) -> None:
        words = {word.casefold() for word in _WORD.findall(params.get("srsearch", ""))}
        scored = []
        for page in self.pages.values():
            in_title = words & {w.casefold() for w in _WORD.findall(page.title)}
            in_text = words & {w.casefold() for w in _WORD.findall(page.extract)}
            score = 2 * len(in_title) + len(in_text)
            if score:
                scored.append((-score, page.title))
        scored.sort(key=lambda item: item[0])
        limit = int(params.get("srlimit", "10"))
        query["searchinfo"] = {"totalhits": len(scored)}
        query["search"] = [
            {"ns": 0, "title": title, "pageid": 1000 + list(self.pages).index(title)}
            for _, title in scored[:limit]
        ]

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        wiki = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                """Keep test output quiet."""

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                params = dict(parse_qsl(parts.query, keep_blank_values=True))
                headers = {name.lower(): value for name, value in self.headers.items()}
                fault = wiki._next_fault(Received(params=params, headers=headers))
                try:
                    self._respond(parts.path, params, fault)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                finally:
                    wiki._done()

            def _respond(self, path: str, params: dict[str, str], fault: Fault | None) -> None:
                if path != API_PATH:
                    self._send(404, b"Not Found", "text/plain")
                    return
                if fault is not None:
                    if fault.delay_s and wiki._stopping.wait(fault.delay_s):
                        return
                    if fault.status is not None:
                        extra = {"Retry-After": fault.retry_after} if fault.retry_after else {}
                        body = f"Error {fault.status}".encode()
                        self._send(fault.status, body, "text/plain", extra)
                        return
                    if fault.error_code is not None:
                        self._send_json(_api_error(fault.error_code, "Scripted failure."))
                        return
                    maxlag = params.get("maxlag")
                    if fault.lag_s is not None and maxlag is not None and fault.lag_s > int(maxlag):
                        body_json = _api_error(
                            "maxlag",
                            f"Waiting for {DB_HOST}: {fault.lag_s} seconds lagged.",
                            host=DB_HOST,
                            lag=fault.lag_s,
                            type="db",
                        )
                        extra = {
                            "Retry-After": str(max(int(maxlag), 5)),
                            "X-Database-Lag": str(fault.lag_s),
                        }
                        self._send_json(body_json, extra)
                        return
                self._send_json(wiki.answer(params))

            def _send_json(
                self, body: dict[str, Any], extra: Mapping[str, str] | None = None
            ) -> None:
                raw = json.dumps(body, ensure_ascii=False).encode("utf-8")
                self._send(200, raw, "application/json; charset=utf-8", extra)

            def _send(
                self,
                status: int,
                raw: bytes,
                content_type: str,
                extra: Mapping[str, str] | None = None,
            ) -> None:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(raw)))
                for name, value in (extra or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(raw)

        return Handler


def _api_error(code: str, info: str, **fields: Any) -> dict[str, Any]:
    """An Action API error body (formatversion=2, errorformat=bc)."""
    return {
        "error": {"code": code, "info": info, **fields, "docref": DOCREF},
        "servedby": "mw-api-ext.codfw.main-7f9c5",
    }
