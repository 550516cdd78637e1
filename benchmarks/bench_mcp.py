"""Measure what one MCP tool call costs the agent, on stdio and on streamable HTTP.

Run with `python benchmarks/bench_mcp.py [--calls N]`. Each call of the MCP
environment opens its own session (`tools.mcp.client`): on stdio that starts the
server process, on HTTP it opens a connection to a running server. Both call the
example notes server's `get_note`; the baseline is the same tool function called
in this process, with no protocol at all. Prints seconds per call and the ratios.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "examples"))

from mcp_utils import http_server, stdio_command  # noqa: E402

from tools.mcp.client import McpServer, ServerTarget  # noqa: E402


def per_call(call: Callable[[], object], calls: int) -> float:
    """The median seconds of one call, after one warm-up call."""
    call()
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> None:
    """Print the per-call cost of stdio, HTTP and the direct function."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5, help="measured calls per transport")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        notes = Path(folder) / "notes.sqlite3"
        os.environ["NOTES_DB"] = str(notes)
        import notes_server  # the SDK's server sets up logging: keep its request lines out

        logging.getLogger("httpx2").setLevel(logging.WARNING)

        direct = per_call(lambda: notes_server.get_note(1), args.calls)
        stdio = McpServer(ServerTarget(stdio_command(notes)), 60)
        on_stdio = per_call(lambda: stdio.call_tool("get_note", {"note_id": 1}), args.calls)
        with http_server(notes) as url:
            http = McpServer(ServerTarget(url), 60)
            on_http = per_call(lambda: http.call_tool("get_note", {"note_id": 1}), args.calls)
    print(f"direct function: {direct * 1000:8.2f} ms per call (baseline)")
    print(f"streamable HTTP: {on_http * 1000:8.2f} ms per call ({on_http / direct:,.0f}x direct)")
    print(
        f"stdio:           {on_stdio * 1000:8.2f} ms per call ({on_stdio / direct:,.0f}x direct, "
        f"{on_stdio / on_http:.1f}x HTTP: a server start per call)"
    )


if __name__ == "__main__":
    main()
