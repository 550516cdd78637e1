"""One validation of a run's question and settings, shared by the CLI and the server.

The CLI calls `validate_run` before it builds anything; the graph's `reason`
node calls it first thing, so a server run with bad settings (Studio, the
API) fails with the same message. `SettingsError` is a `ValueError` (through
`AgentError`), which langgraph-api passes on to API clients instead of
masking it as "An internal error occurred".

Every setting of every `Context` has a rule here (a test checks it); a bad
value gets one line naming it and the accepted forms, e.g.
`--now: 'yesterday' is not a date-time; use YYYY-MM-DDTHH:MM (e.g. 2026-09-26T14:00)`.
The CLI names settings by their flags (`--now`), the server by their names (`now`).
The rules' kinds are in `graph.settings.setting_rules`, the library's own in
`graph.settings.library_rules`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any, Literal

from graph.errors import SettingsError
from graph.settings.context import Context, LibraryContext
from graph.settings.durability import MODES
from graph.settings.library_rules import (
    check_library_db,
    check_policy,
    check_policy_actions,
    deadline,
    faults,
    local_datetime,
    origin,
    patron,
)
from graph.settings.mcp_rules import mcp_env, mcp_headers, mcp_server
from graph.settings.setting_rules import Rule, api_url, choice, number, text, whole

MAX_QUESTION_CHARS = 4000
# The recursion limit follows the budgets (graph.agent.recursion_limit), so these caps
# only keep a typo from asking for an endless episode.
MAX_MODEL_TURNS = 10_000
MAX_TOOL_CALLS = 10_000
Naming = Literal["flag", "setting"]
QUESTION_EMPTY = 'the question is empty; ask something, e.g. "Who directed The Prestige?"'
QUESTION_TOO_LONG = (
    "the question is longer than {limit:,} characters, the limit; ask about one thing at a time"
)
QUESTION_NOT_TEXT = "the question is not Unicode text (it holds a lone surrogate); send it as text"
FOREIGN = "{flags}: not a setting of the {env} environment"


def label(name: str, naming: Naming) -> str:
    """How a message names a setting: `--max-tokens` (CLI) or `max_tokens` (API)."""
    return "--" + name.replace("_", "-") if naming == "flag" else name


RULES: dict[str, Rule] = {
    "model": text(500, empty=False),
    "judge": text(500),
    "temperature": number(0, 2),
    "max_tokens": whole(1, 131_072),
    "max_model_turns": whole(1, MAX_MODEL_TURNS),
    "max_tool_calls": whole(1, MAX_TOOL_CALLS),
    "max_seconds": number(0, 86_400, above_low=True),
    "max_verifier_rejections": whole(0, 20),
    "max_repeats": whole(0, 20),
    "prompt_style": choice("react", "act"),
    "verify_mode": choice("enforce", "record"),
    "approvals": choice("ask", "deny", "auto"),
    "durability": choice(*MODES),
    "source": choice("snapshot", "live"),
    "lang": text(
        20,
        empty=False,
        pattern=r"[a-z]{2,12}(-[a-z0-9]{1,12})*",
        form="a Wikipedia language code (e.g. en, zh, simple)",
    ),
    "wiki_api_url": api_url,
    "user_agent": text(300),
    "live_timeout_s": number(0, 600, above_low=True),
    "live_attempts": whole(1, 10),
    "observation_chars": whole(200, 100_000),
    "library_db": check_library_db,
    "patron": patron,
    "now": local_datetime,
    "origin": origin,
    "deadline": deadline,
    "faults": faults,
    "tool_timeout_s": number(0, 600, above_low=True),
    "policy": check_policy,
    "mcp": mcp_server,
    "mcp_headers": mcp_headers,
    "mcp_env": mcp_env,
    "mcp_db": text(4000),
    "mcp_timeout_s": number(0, 3600, above_low=True),
}


def validate_question(question: Any) -> str:
    """The question, stripped; raises `SettingsError` if it is empty, too long or not text."""
    text = question.strip() if isinstance(question, str) else ""
    if not text:
        raise SettingsError(QUESTION_EMPTY)
    if len(text) > MAX_QUESTION_CHARS:
        raise SettingsError(QUESTION_TOO_LONG.format(limit=MAX_QUESTION_CHARS))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: JSON's "\udcff", a byte that was not UTF-8
        raise SettingsError(QUESTION_NOT_TEXT) from None
    return text


def validate_settings(ctx: Context, naming: Naming = "flag") -> None:
    """Check every setting of `ctx`; raise `SettingsError` naming the first bad one."""
    for item in fields(ctx):
        rule = RULES[item.name]
        problem = rule(getattr(ctx, item.name))
        if problem:
            raise SettingsError(f"{label(item.name, naming)}: {problem}")
    if isinstance(ctx, LibraryContext):
        problem = check_policy_actions(ctx.policy)
        if problem:
            raise SettingsError(f"{label('policy', naming)}: {problem}")


def validate_run(question: Any, ctx: Context, naming: Naming = "flag") -> str:
    """Check the question and every setting; returns the stripped question."""
    text = validate_question(question)
    validate_settings(ctx, naming)
    return text


def refuse_foreign(env_name: str, context_type: type[Context], names: Iterable[str]) -> None:
    """Refuse settings that belong to another environment (e.g. `--faults` for Wikipedia)."""
    known = {item.name for item in fields(context_type)}
    foreign = sorted(name for name in names if name not in known)
    if foreign:
        flags = ", ".join(label(name, "flag") for name in foreign)
        raise SettingsError(FOREIGN.format(flags=flags, env=env_name))
