"""Per-run settings, read by the nodes through `Runtime[Context]`.

Studio shows every field with its description; the CLI fills them from flags.
Defaults can come from the environment (`REACT_AGENT_MODEL`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Literal

DEFAULT_MODEL = "groq:qwen/qwen3.6-27b"


def _default_model() -> str:
    return os.environ.get("REACT_AGENT_MODEL", DEFAULT_MODEL)


def _default_policy() -> str:
    return os.environ.get("REACT_AGENT_POLICY", "")


@dataclass(kw_only=True)
class Context:
    """Settings shared by every environment."""

    model: str = field(
        default_factory=_default_model,
        metadata={
            "description": "Chat model: 'provider:model' (groq, openai, ollama, ...), "
            "'path/to/file.py:factory' or 'package.module:factory' returning a chat model, "
            "or 'scripted:FILE' for a scripted test model."
        },
    )
    temperature: float = field(default=0.0, metadata={"description": "Sampling temperature."})
    max_tokens: int = field(
        default=512, metadata={"description": "Most tokens the model may write per turn."}
    )
    max_model_turns: int = field(
        default=8, metadata={"description": "Most model calls (decisions) in one episode."}
    )
    max_tool_calls: int = field(
        default=12, metadata={"description": "Most tool calls (retries included) in one episode."}
    )
    max_seconds: float = field(
        default=120.0,
        metadata={
            "description": "Most seconds the agent itself may work (time spent waiting "
            "for a human approval is not counted)."
        },
    )
    max_verifier_rejections: int = field(
        default=2,
        metadata={
            "description": "How many rejected Finish answers are sent back to the "
            "model before the episode ends as unverified; grounded answers (stated, not "
            "tied to the question) are sent back once each, at most this many in all, "
            "then end the episode as grounded."
        },
    )
    max_repeats: int = field(
        default=2,
        metadata={
            "description": "How many repeated actions are refused before the episode "
            "stops for lack of progress."
        },
    )
    prompt_style: Literal["react", "act"] = field(
        default="react",
        metadata={
            "description": "'react' (Thought + Action) or 'act' (Action only, the "
            "Act-only baseline of the ReAct paper)."
        },
    )
    verify_mode: Literal["enforce", "record"] = field(
        default="enforce",
        metadata={
            "description": "'enforce': an unsupported Finish goes back to the model; "
            "'record': the first Finish ends the episode and its verdict is only recorded "
            "(plain ReAct, for comparisons)."
        },
    )
    judge: str = field(
        default="auto",
        metadata={
            "description": "Judge model asked to confirm an answer the evidence states "
            "(grounded, or verified by statement): 'auto' (the agent's own model when it "
            "is a real chat model; scripted and test models have none), 'off', or any "
            "model spec --model takes. Agreeing makes it verified, disagreeing grounded. "
            "Its calls count as model turns and tokens."
        },
    )
    approvals: Literal["ask", "deny", "auto"] = field(
        default="ask",
        metadata={
            "description": "Write actions: 'ask' a human (default), 'deny' them all, "
            "or run them without asking ('auto', trusted automation only)."
        },
    )
    durability: Literal["auto", "sync", "async", "exit"] = field(
        default="auto",
        metadata={
            "description": "When checkpoints are saved: 'auto' ('async' for an environment "
            "without write actions, 'sync' for one with), 'sync' (before the next step "
            "starts: a kill repeats nothing), 'async' (while the next step runs: a kill "
            "repeats at most the last step) or 'exit' (when the run ends or pauses: a kill "
            "loses the run's steps)."
        },
    )


@dataclass(kw_only=True)
class WikipediaContext(Context):
    """Settings of the Wikipedia agent."""

    source: Literal["snapshot", "live"] = field(
        default="snapshot",
        metadata={"description": "'snapshot' (offline, reproducible) or 'live' Wikipedia."},
    )
    lang: str = field(default="en", metadata={"description": "Wikipedia language (live source)."})
    wiki_api_url: str = field(
        default="",
        metadata={
            "description": "MediaWiki Action API URL; empty means "
            "https://{lang}.wikipedia.org/w/api.php."
        },
    )
    user_agent: str = field(
        default="",
        metadata={
            "description": "User-Agent for live requests, 'name/version (contact)'; "
            "empty uses the built-in one."
        },
    )
    live_timeout_s: float = field(
        default=10.0,
        metadata={
            "description": "Seconds one live Wikipedia request may take, answer included; "
            "a slower one is tried again, up to the live attempts."
        },
    )
    live_attempts: int = field(
        default=4,
        metadata={
            "description": "Most tries of one live Wikipedia request (timeouts, 429s and "
            "server errors are tried again, with waits between tries)."
        },
    )
    observation_chars: int = field(
        default=1200,
        metadata={
            "description": "Most characters of one observation; longer ones are cut "
            "with a [truncated] marker."
        },
    )


@dataclass(kw_only=True)
class LibraryContext(Context):
    """Settings of the campus-library assistant (budgets as in the seed)."""

    max_model_turns: int = field(
        default=7, metadata={"description": "Most model decisions in one episode."}
    )
    max_tool_calls: int = field(
        default=6, metadata={"description": "Most tool calls (retries included) in one episode."}
    )
    max_seconds: float = field(
        default=20.0, metadata={"description": "Most seconds the agent itself may work."}
    )
    library_db: str = field(
        default="",
        metadata={
            "description": "Library database: an SQLite file, or a postgresql://user@host:port/db "
            "URL; empty uses the default file under the user's state directory (created "
            "from the seed data on first use)."
        },
    )
    patron: str = field(
        default="P1001",
        metadata={"description": "The patron the assistant acts for (never taken from the model)."},
    )
    now: str = field(
        default="2026-09-26T14:00",
        metadata={
            "description": "The clock: the local date and time the episode starts at, "
            "YYYY-MM-DDTHH:MM."
        },
    )
    origin: str = field(
        default="East Campus",
        metadata={
            "description": "Where the patron starts from (authorised coarse location): a "
            "campus place or a branch, e.g. 'East Campus' or '东校区'."
        },
    )
    deadline: str = field(
        default="",
        metadata={
            "description": "Latest time to arrive, 'HH:MM' on the clock's date; empty "
            "reads it from the question ('before 16:00'), else none."
        },
    )
    faults: str = field(
        default="",
        metadata={
            "description": "Injected faults, comma-separated 'tool:argument:mode' with "
            "mode 'timeout-once' or 'timeout-always', e.g. 'get_copy_status:W22:timeout-once'."
        },
    )
    tool_timeout_s: float = field(
        default=2.0, metadata={"description": "Seconds before a library call counts as timed out."}
    )
    policy: str = field(
        default_factory=_default_policy,
        metadata={
            "description": "Approval policy file (TOML, see docs/approvals.md): per write "
            "action, ask/auto/deny, who may decide, which decisions, when requests expire; "
            "read again at every decision. Default: $REACT_AGENT_POLICY, else none."
        },
    )


@dataclass(kw_only=True)
class McpContext(Context):
    """Settings of an MCP server's tools as the environment (no secrets: those are named
    environment variables, read when a call is made)."""

    mcp: str = field(
        default="",
        metadata={
            "description": "The MCP server: a command line that starts a stdio server "
            "(e.g. 'python examples/notes_server.py') or a streamable HTTP URL "
            "(e.g. http://127.0.0.1:8765/mcp)."
        },
    )
    mcp_headers: str = field(
        default="",
        metadata={
            "description": "HTTP headers for a URL server, 'Header=ENV_VAR,...': each value is "
            "read from the named environment variable when a call is made, never stored."
        },
    )
    mcp_env: str = field(
        default="",
        metadata={
            "description": "Environment variables handed to a stdio server, 'NAME,...' (their "
            "values come from this process's environment, never stored)."
        },
    )
    mcp_db: str = field(
        default="",
        metadata={
            "description": "SQLite file of the MCP audit log and write ledger; empty uses "
            "mcp.sqlite3 under the user's state directory."
        },
    )
    mcp_timeout_s: float = field(
        default=30.0,
        metadata={"description": "Seconds one MCP call may take (a stdio server's start too)."},
    )
    policy: str = field(
        default="",
        metadata={
            "description": "Approval policy file (TOML, see docs/approvals.md): a tool it names "
            "is a write whatever the server's hints say, with its ask/auto/deny, approvers, "
            "decisions and expiry; read again at every decision."
        },
    )


EnvName = Literal["wikipedia", "library", "mcp"]
CONTEXT_TYPES: dict[str, type[Context]] = {
    "wikipedia": WikipediaContext,
    "library": LibraryContext,
    "mcp": McpContext,
}
