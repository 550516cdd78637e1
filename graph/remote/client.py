"""A LangGraph server's API through `langgraph-sdk`, its failures as one-line errors.

An unreachable server, a refused request (a busy thread, a bad value) and an
unknown thread each become a `RemoteError` (an `AgentError`: the CLI prints
one line and exits with status 2), naming the server.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from langgraph_sdk import get_sync_client
from langgraph_sdk.client import SyncLangGraphClient
from langgraph_sdk.errors import APIConnectionError

from graph.errors import AgentError
from graph.store.locations import hidden_password

TIMEOUT_S = 30.0  # connect, write and pool; a streamed run may read for long
PROBE_S = 2.0  # how long the first connection may take before the server counts as unreachable
NOT_A_URL = "--server {url!r} is not a server URL; give one like http://127.0.0.1:2024"
UNREACHABLE = "cannot reach the LangGraph server at {url} ({problem}); is it running?"
REFUSED = "the LangGraph server at {url} refused the request ({status}): {detail}"
NO_THREAD = "no thread {thread_id} on the LangGraph server at {url}"
BUSY = "thread {thread_id} is busy on the LangGraph server at {url}: a run is in progress"


class RemoteError(AgentError):
    """The server could not be reached, or refused what was asked."""


def _is_server_url(url: str) -> bool:
    """Whether `url` is http(s) with a host and a port a socket can have."""
    if not url.startswith(("http://", "https://")):
        return False
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:  # e.g. an unclosed IPv6 bracket
        return False
    return bool(parsed.host) and (parsed.port is None or 0 < parsed.port < 1 << 16)


def connect(url: str) -> SyncLangGraphClient:
    """A client of the server at `url` (nothing is sent yet)."""
    url = url.strip().rstrip("/")
    if not _is_server_url(url):
        raise RemoteError(NOT_A_URL.format(url=hidden_password(url)))
    _probe(url)
    return get_sync_client(url=url, timeout=(TIMEOUT_S, None, TIMEOUT_S, TIMEOUT_S))


def _probe(url: str) -> None:
    """Refuse at once a server nothing listens for (the SDK would retry for seconds)."""
    parsed = httpx.URL(url)
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((parsed.host, port), timeout=PROBE_S):
            return
    except TimeoutError:
        problem = f"no answer within {PROBE_S:g} s"
    except OSError as error:
        problem = error.strerror or type(error).__name__
    raise RemoteError(UNREACHABLE.format(url=hidden_password(url), problem=problem))


def server_url(client: SyncLangGraphClient) -> str:
    """The URL the client talks to, as messages name it (a password shown as `***`)."""
    return hidden_password(plain_url(client))


def plain_url(client: SyncLangGraphClient) -> str:
    """The URL the client talks to, a password in it included (never to be printed)."""
    return str(client.http.client.base_url).rstrip("/")


def _detail(response: httpx.Response | None) -> str:
    """The server's own message from an error response."""
    if response is None:
        return ""
    try:
        body: Any = response.json()
    except ValueError:
        return " ".join(response.text.split())[:300]
    if isinstance(body, dict):
        return str(body.get("detail") or body.get("message") or body)
    return str(body)


@contextmanager
def talking_to(client: SyncLangGraphClient, thread_id: str = "") -> Iterator[None]:
    """Turn the transport's and the server's refusals inside the block into `RemoteError`."""
    url = server_url(client)
    try:
        yield
    except (httpx.TransportError, APIConnectionError) as error:
        problem = hidden_password(" ".join(str(error).split()) or type(error).__name__)
        raise RemoteError(UNREACHABLE.format(url=url, problem=problem)) from None
    except httpx.HTTPStatusError as error:
        status = error.response.status_code if error.response is not None else 0
        if status == 404 and thread_id:
            raise RemoteError(NO_THREAD.format(thread_id=thread_id, url=url)) from None
        if status == 409 and thread_id:
            raise RemoteError(BUSY.format(thread_id=thread_id, url=url)) from None
        detail = _detail(error.response)
        raise RemoteError(REFUSED.format(url=url, status=status, detail=detail)) from None
