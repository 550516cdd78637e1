"""A polite JSON client for the MediaWiki Action API.

One request at a time per client (a lock), a minimum interval between
requests, a timeout on every request, and bounded retries with exponential
backoff and jitter on HTTP 429/5xx, connection errors, timeouts and the API's
`maxlag`/`ratelimited` errors (which arrive as HTTP 200 with an `error`
object). A `Retry-After` header sets the least wait; one asking for more than
`max_wait_s` ends the retries at once. Each attempt has a whole deadline (a
server that drips its answer byte by byte is cut off at `timeout_s`, not only
one that falls silent), a body larger than `MAX_BODY_BYTES` is refused unread,
redirects are followed only on the same host and at most `MAX_REDIRECTS`
times, and lone surrogates in the decoded JSON become U+FFFD, so what reaches
the cache and the checkpoints is valid text. When no answer comes, `get` raises
`ApiUnavailable` with a reason a person can read; every sleep goes through the
injected `sleep`, so tests can record the delays instead of waiting.
"""

from __future__ import annotations

import email.utils
import json
import logging
import random
import re
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

logger = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
RETRY_API_ERRORS = frozenset({"maxlag", "ratelimited"})
MAXLAG_MIN_WAIT_S = 5.0
JITTER = 0.25
MAX_BODY_BYTES = 16 * 1024 * 1024
MAX_REDIRECTS = 5
MAX_RETRY_AFTER_S = 365 * 86400.0

HTTP_STATUS_REASON = "HTTP {status} after {attempts} attempt(s)"
TRANSPORT_REASON = "{error} after {attempts} attempt(s)"
API_ERROR_REASON = "API error '{code}': {info} after {attempts} attempt(s)"
NOT_JSON_REASON = "an answer that is not JSON after {attempts} attempt(s)"
WAIT_TOO_LONG_REASON = "{what}; the server asked to wait {wait:.0f} s, more than {limit:.0f} s"
SLOW_REASON = "no complete answer within {timeout:g} s after {attempts} attempt(s)"
TOO_LARGE_REASON = "an answer larger than {limit} MB after {attempts} attempt(s)"
OFF_HOST_REASON = "a redirect to another host ({host}), not followed, after {attempts} attempt(s)"
REDIRECTS_REASON = "more than {limit} redirects after {attempts} attempt(s)"

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


class ApiUnavailable(Exception):
    """The API gave no usable answer within the allowed attempts."""

    def __init__(self, reason: str, requests: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.requests = requests


@dataclass(frozen=True)
class ApiReply:
    """A decoded API answer and the number of HTTP requests it took."""

    data: dict[str, Any]
    requests: int


@dataclass(frozen=True)
class _Failure:
    """Why one attempt failed, and the least wait the server asked for."""

    reason: str
    retry: bool
    wait_s: float | None = None


def parse_retry_after(value: str | None, now: float) -> float | None:
    """Seconds a `Retry-After` header asks for (delta-seconds or HTTP-date)."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return min(float(text), MAX_RETRY_AFTER_S)
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, OverflowError):
        return None
    return min(max(0.0, moment.timestamp() - now), MAX_RETRY_AFTER_S)


def scrub_surrogates(value: Any) -> Any:
    """`value` (decoded JSON) with every lone surrogate replaced by U+FFFD."""
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [scrub_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {scrub_surrogates(key): scrub_surrogates(item) for key, item in value.items()}
    return value


def backoff_delay(failures: int, base_s: float, max_s: float, rand: Callable[[], float]) -> float:
    """Exponential backoff after the `failures`-th failure, with up to 25% jitter."""
    step = min(max_s, base_s * 2 ** (failures - 1))
    return step * (1 + JITTER * rand())


class ApiClient:
    """GET requests to one Action API endpoint, throttled and retried.

    The lock is held through the backoff sleeps too: while the server asks us
    to wait, no other thread of this client sends anything.
    """

    def __init__(
        self,
        api_url: str,
        user_agent: str,
        *,
        min_interval_s: float = 1.0,
        timeout_s: float = 10.0,
        max_attempts: int = 4,
        backoff_base_s: float = 1.0,
        backoff_max_s: float = 30.0,
        max_wait_s: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        rand: Callable[[], float] = random.random,
    ) -> None:
        if max_attempts < 1:
            raise ValueError(f"max_attempts must be at least 1, got {max_attempts}")
        self.api_url = api_url
        self.user_agent = user_agent
        self.min_interval_s = min_interval_s
        self.timeout_s = timeout_s
        self.max_attempts = max_attempts
        self.backoff_base_s = backoff_base_s
        self.backoff_max_s = backoff_max_s
        self.max_wait_s = max_wait_s
        self._sleep = sleep
        self._clock = clock
        self._rand = rand
        self._lock = threading.Lock()
        self._last_request_at: float | None = None
        self._http = httpx.Client(
            headers={"User-Agent": user_agent, "Accept": "application/json"},
            timeout=httpx.Timeout(timeout_s),
            follow_redirects=False,
        )

    def close(self) -> None:
        """Close the underlying connection pool."""
        self._http.close()

    def get(self, params: Mapping[str, str]) -> ApiReply:
        """The decoded JSON answer to `params`, or `ApiUnavailable`."""
        with self._lock:
            for attempt in range(1, self.max_attempts + 1):
                self._wait_for_turn()
                outcome = self._attempt(params, attempt)
                self._last_request_at = self._clock()
                if isinstance(outcome, dict):
                    return ApiReply(data=outcome, requests=attempt)
                if not outcome.retry or attempt == self.max_attempts:
                    raise ApiUnavailable(outcome.reason, attempt)
                delay = backoff_delay(attempt, self.backoff_base_s, self.backoff_max_s, self._rand)
                if outcome.wait_s is not None:
                    if outcome.wait_s > self.max_wait_s:
                        raise ApiUnavailable(
                            WAIT_TOO_LONG_REASON.format(
                                what=outcome.reason, wait=outcome.wait_s, limit=self.max_wait_s
                            ),
                            attempt,
                        )
                    delay = max(delay, outcome.wait_s)
                logger.warning("%s: %s; retrying in %.1f s", self.api_url, outcome.reason, delay)
                self._sleep(delay)
        raise AssertionError("unreachable: the loop returns or raises")

    def _wait_for_turn(self) -> None:
        if self._last_request_at is None:
            return
        wait = self._last_request_at + self.min_interval_s - self._clock()
        if wait > 0:
            self._sleep(wait)

    def _attempt(self, params: Mapping[str, str], attempt: int) -> dict[str, Any] | _Failure:
        try:
            received = self._download(params, attempt)
        except httpx.TimeoutException:
            problem = f"no answer within {self.timeout_s:g} s"
            return _Failure(TRANSPORT_REASON.format(error=problem, attempts=attempt), retry=True)
        except httpx.TransportError as exc:
            problem = f"connection failed ({type(exc).__name__})"
            return _Failure(TRANSPORT_REASON.format(error=problem, attempts=attempt), retry=True)
        if isinstance(received, _Failure):
            return received
        response, body = received
        retry_after = parse_retry_after(response.headers.get("Retry-After"), self._clock())
        if response.status_code != 200:
            return _Failure(
                HTTP_STATUS_REASON.format(status=response.status_code, attempts=attempt),
                retry=response.status_code in RETRY_STATUSES,
                wait_s=retry_after,
            )
        try:
            data = scrub_surrogates(json.loads(body))
        except ValueError:
            return _Failure(NOT_JSON_REASON.format(attempts=attempt), retry=True)
        if not isinstance(data, dict):
            return _Failure(NOT_JSON_REASON.format(attempts=attempt), retry=True)
        api_error = data.get("error")
        if isinstance(api_error, dict):
            code = str(api_error.get("code", "unknown"))
            if code == "maxlag" and retry_after is None:
                retry_after = _lag_wait(api_error.get("lag"))
            info = api_error.get("info", "")
            return _Failure(
                API_ERROR_REASON.format(code=code, info=info, attempts=attempt),
                retry=code in RETRY_API_ERRORS,
                wait_s=retry_after,
            )
        return data

    def _download(
        self, params: Mapping[str, str], attempt: int
    ) -> tuple[httpx.Response, bytes] | _Failure:
        """One answer, its redirects followed on the same host, read within the deadline."""
        deadline = time.monotonic() + self.timeout_s
        request = self._http.build_request("GET", self.api_url, params=dict(params))
        for _ in range(MAX_REDIRECTS + 1):
            response = self._http.send(request, stream=True)
            try:
                target = response.next_request
                if target is None:
                    return self._read_body(response, deadline, attempt)
            finally:
                response.close()
            if target.url.host != request.url.host:
                return _Failure(
                    OFF_HOST_REASON.format(host=target.url.host, attempts=attempt), False
                )
            request = target
        return _Failure(REDIRECTS_REASON.format(limit=MAX_REDIRECTS, attempts=attempt), retry=False)

    def _read_body(
        self, response: httpx.Response, deadline: float, attempt: int
    ) -> tuple[httpx.Response, bytes] | _Failure:
        too_large = _Failure(
            TOO_LARGE_REASON.format(limit=MAX_BODY_BYTES // 2**20, attempts=attempt), retry=False
        )
        declared = response.headers.get("Content-Length", "")
        if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
            return too_large
        chunks: list[bytes] = []
        size = 0
        for chunk in response.iter_bytes():
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                return too_large
            if time.monotonic() > deadline:
                return _Failure(SLOW_REASON.format(timeout=self.timeout_s, attempts=attempt), True)
            chunks.append(chunk)
        return response, b"".join(chunks)


def _lag_wait(lag: object) -> float:
    """The least wait after a `maxlag` error reporting `lag` seconds."""
    try:
        seconds = float(lag or 0)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        seconds = 0.0
    return min(max(MAXLAG_MIN_WAIT_S, seconds), MAX_RETRY_AFTER_S)
