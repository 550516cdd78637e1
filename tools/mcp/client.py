"""Talking to one MCP server through the `mcp` SDK, from synchronous code.

A server is named by `--mcp`: an http(s) URL (streamable HTTP) or a command line
(a stdio server the agent starts). Each call opens its own session on a fresh
event loop in a worker thread and closes it (a stdio server is started and stopped
with it): nothing is left running between calls, a server that crashed is simply
started again by the next call, and a resumed episode in a new process needs
nothing from the old one. The price is a session's start per call.

Secrets are never part of the settings: `mcp_headers` names environment variables
(`Authorization=MCP_TOKEN`) whose values are read at call time, and `mcp_env`
names the variables a stdio server is given.

Every failure (the server cannot start, crashes, times out, breaks the protocol)
becomes an `McpFailure` with one line saying what happened.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shlex
import tempfile
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlparse

import httpx2
from mcp import Client, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Tool

T = TypeVar("T")
# The SDK logs what it cannot parse with a traceback; with no logging set up, Python would
# print it to stderr. The failure reaches the caller as one line instead (an application
# that configures logging still gets the records through the root logger).
logging.getLogger("mcp").addHandler(logging.NullHandler())
HTTP_TIMEOUT = httpx2.Timeout(30.0, read=300.0)
JOIN_MARGIN_S = 5.0
NO_VARIABLE = "{flag}: the environment variable {name} is not set"


class McpFailure(ConnectionError):
    """A call to an MCP server got no answer; the message is one line."""


@dataclass(frozen=True)
class ServerTarget:
    """Where the tools are: a URL (streamable HTTP) or a command line (stdio)."""

    spec: str
    headers: str = ""
    env: str = ""

    @property
    def is_url(self) -> bool:
        """Whether the server is reached over streamable HTTP."""
        return urlparse(self.spec.strip()).scheme in ("http", "https")

    @property
    def label(self) -> str:
        """A short name of the server for evidence sources and messages."""
        if self.is_url:
            parsed = urlparse(self.spec.strip())
            return f"{parsed.hostname}:{parsed.port}" if parsed.port else str(parsed.hostname)
        words = shlex.split(self.spec) or ["(none)"]
        scripts = [w for w in words[1:] if not w.startswith("-")]
        return os.path.basename(scripts[0] if scripts else words[0])

    def header_values(self) -> dict[str, str]:
        """The HTTP headers, each value read from the environment variable it names."""
        return {
            header.strip(): _variable(name.strip(), "--mcp-headers")
            for header, name in pairs(self.headers)
        }

    def env_values(self) -> dict[str, str]:
        """The environment variables handed to a stdio server, from this process's own."""
        names = [name.strip() for name in self.env.split(",") if name.strip()]
        return {name: _variable(name, "--mcp-env") for name in names}


def pairs(text: str) -> list[tuple[str, str]]:
    """`Header=VARIABLE` pairs of a comma-separated list (malformed items are skipped;
    the setting's rule refuses them first)."""
    found = []
    for item in text.split(","):
        header, sep, name = item.partition("=")
        if sep and header.strip() and name.strip():
            found.append((header, name))
    return found


def _variable(name: str, flag: str) -> str:
    value = os.environ.get(name)
    if value is None:
        raise McpFailure(NO_VARIABLE.format(flag=flag, name=name))
    return value


def one_line(text: str, most: int = 400) -> str:
    """`text` on one line, cut to `most` characters."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= most else flat[: most - 3] + "..."


def tail(text: str, most: int) -> str:
    """The end of `text` on one line, at most `most` characters (a message's end says most)."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= most else "..." + flat[3 - most :]


def _cause(error: BaseException) -> str:
    """The innermost message of an error (exception groups unwrapped)."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


class McpServer:
    """Synchronous access to one MCP server: list its tools, call one."""

    def __init__(self, target: ServerTarget, timeout_s: float) -> None:
        self.target = target
        self.timeout_s = timeout_s

    def list_tools(self) -> list[Tool]:
        """Every tool the server offers (all pages)."""

        async def listing(client: Client) -> list[Tool]:
            tools: list[Tool] = []
            cursor: str | None = None
            while True:
                page = await client.list_tools(cursor=cursor)
                tools.extend(page.tools)
                cursor = page.next_cursor
                if not cursor:
                    return tools

        return self._run(listing, "listing its tools")

    def call_tool(self, name: str, args: Mapping[str, Any]) -> CallToolResult:
        """Call one tool; the result may be a tool error (`is_error`), which is an answer."""

        async def call(client: Client) -> CallToolResult:
            return await client.call_tool(name, dict(args), read_timeout_seconds=self.timeout_s)

        return self._run(call, f"calling {name}")

    def _client(self, errlog: Any) -> Client:
        if self.target.is_url:
            http = httpx2.AsyncClient(headers=self.target.header_values(), timeout=HTTP_TIMEOUT)
            transport = streamable_http_client(self.target.spec.strip(), http_client=http)
            return Client(transport, read_timeout_seconds=self.timeout_s, cache=None)
        words = shlex.split(self.target.spec)
        params = StdioServerParameters(
            command=words[0], args=words[1:], env=self.target.env_values()
        )
        return Client(
            stdio_client(params, errlog=errlog), read_timeout_seconds=self.timeout_s, cache=None
        )

    def _run(self, work: Callable[[Client], Awaitable[T]], doing: str) -> T:
        """Run `work` in a session of its own, on a worker thread, within the timeout."""
        outcome: dict[str, Any] = {}
        with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:

            async def session() -> T:
                async with asyncio.timeout(self.timeout_s), self._client(errlog) as client:
                    return await work(client)

            def worker() -> None:
                try:
                    outcome["value"] = asyncio.run(session())
                except BaseException as error:  # reported to the caller below
                    outcome["error"] = error

            thread = threading.Thread(target=worker, name="mcp-call", daemon=True)
            thread.start()
            thread.join(self.timeout_s + JOIN_MARGIN_S)
            if "value" in outcome:
                return outcome["value"]
            errlog.seek(0)
            said = [line for line in errlog.read().splitlines() if line.strip()]
        error = outcome.get("error")
        if error is None or isinstance(error, TimeoutError):
            why = f"no answer within {self.timeout_s:g} s"
        else:
            why = _cause(error)
        if isinstance(error, McpFailure):
            raise McpFailure(str(error))
        last = f" (server said: {tail(said[-1], 200)})" if said else ""
        raise McpFailure(one_line(f"{doing} failed: {why}{last}"))
