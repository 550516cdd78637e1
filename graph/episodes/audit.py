"""The thread's side of the audit log: the events the runner records (the command is
`graph.cli.audit`).

Library episodes keep an append-only audit log in their library database
(`tools.library.audit`): every proposal, decision, execution, fork and
settings change, with its request, actor and time. Wikipedia episodes have no
write actions and no audit log.

The library and MCP ledger modules are imported inside the functions that read them: at
the top they would add about 0.25 s (SQLAlchemy) to every `react-agent resume`, which
imports this module, on a Wikipedia thread too (python -X importtime).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import replace
from pathlib import Path
from typing import Any

from graph.agent import ENVIRONMENTS
from graph.core.node_support import recorded_decisions
from graph.episodes.runner import Agent, env_of, snapshot, stored_settings, thread_config
from graph.errors import AgentError, DatabaseError
from graph.settings.context import Context
from graph.store.leases import lease_of
from graph.store.locations import anywhere, hidden_password, without_password
from tools.base import ExecContext

OTHER_LIBRARY = (
    "--library-db names another database than thread {thread_id} used ({used}); give "
    "that one (a password may be added to its URL)"
)
NO_AUDIT = (
    "thread {thread_id} is a {env} episode: it has no audit log (only library and MCP "
    "episodes, whose write actions need approval, keep one)"
)
NO_LEDGER = "no MCP ledger at {path} (the one thread {thread_id} used)"
NO_LIBRARY_DB = "no library database at {path} (the one thread {thread_id} used)"
INHERITED = (
    "Inherited from thread {source} ({thread_id} is a copy of it; these rows, of the "
    "requests it copied, are that thread's: `react-agent audit {source}`):"
)
NONE_OF_ITS_OWN = (
    "(no rows of its own yet: this thread is a copy of {sources}, whose decisions are in "
    "that thread's audit log; a request pending here is recorded when it is decided)"
)


def record_thread_event(
    agent: Agent,
    ctx: Context,
    thread_id: str,
    event: str,
    detail: Mapping[str, Any],
    actor: str,
    step_index: int = 0,
) -> None:
    """Record a thread-level event (`fork`, `settings_changed`) in the env's audit log.

    `step_index` is the step the thread is about to take where the event happens. Each
    call is a new event (a second fork from one checkpoint too), so its detail carries
    an `event_id` of its own: an exact replay of a row is written once.
    """
    env = ENVIRONMENTS[env_of(agent)][1](ctx)
    unique = dict(detail) | {"event_id": uuid.uuid4().hex[:12]}
    lease = lease_of(agent.checkpointer)
    fence = lease.token_of(thread_id) if lease is not None else None
    exec_ctx = _thread_context(ctx, thread_id, actor=actor, step_index=step_index)
    env.record_audit(event, unique, replace(exec_ctx, fence=fence))


def _thread_context(
    ctx: Context, thread_id: str, request_id: str = "", actor: str = "", step_index: int = 0
) -> ExecContext:
    return ExecContext(
        settings=ctx,
        env_state={},
        thread_id=thread_id,
        step_index=step_index,
        idempotency_key="",
        request_id=request_id,
        actor=actor,
    )


def recorded_decision(
    agent: Agent, ctx: Context, thread_id: str, request_id: str
) -> dict[str, Any] | None:
    """The decision of record of a request (the first one the audit log holds), or None."""
    env = ENVIRONMENTS[env_of(agent)][1](ctx)
    found = recorded_decisions(env, _thread_context(ctx, thread_id, request_id))
    return dict(found[0]["detail"]) if found else None


def audit_rows(
    agent: Agent, thread_id: str, given: str | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """The library database a thread used and its audit rows, oldest first.

    The thread stores a database URL without its password: `given` (`--library-db`)
    may name the same database with it. Raises `AgentError` for a thread with no audit
    log (a Wikipedia episode) or a `given` database it did not use, and `DatabaseError`
    when its library database is missing (nothing is created).
    """
    from tools.library.db import audit_log, default_db_path
    from tools.library.engines import describe, parse_location

    state = snapshot(agent, thread_id)
    settings = stored_settings(agent, state)
    env_name = settings.get("env") or env_of(agent)
    if env_name == "mcp":
        return _mcp_rows(agent, thread_id, settings)
    if env_name != "library":
        raise AgentError(NO_AUDIT.format(thread_id=thread_id, env=env_name))
    used = str(settings.get("library_db") or default_db_path())
    if given is not None:
        if without_password(anywhere(given)) != without_password(anywhere(used)):
            shown = hidden_password(without_password(used))
            raise AgentError(OTHER_LIBRARY.format(thread_id=thread_id, used=shown))
        used = given
    location = parse_location(used)
    if isinstance(location, Path) and not location.exists():
        raise DatabaseError(NO_LIBRARY_DB.format(path=location, thread_id=thread_id))
    requests, _ = copied_from(agent, thread_id)
    inherited = [
        row | {"inherited_from": row["thread_id"]}
        for row in audit_log(location, request_ids=requests)
        if row["thread_id"] != thread_id
    ]
    return f"library database {describe(location)}", inherited + audit_log(
        location, thread_id=thread_id
    )


def _mcp_rows(
    agent: Agent, thread_id: str, settings: Mapping[str, Any]
) -> tuple[str, list[dict[str, Any]]]:
    """The MCP ledger a thread used and its audit rows (those of the requests it copied
    from another thread first)."""
    from tools.mcp.ledger import Ledger, default_ledger_path

    path = Path(str(settings.get("mcp_db") or default_ledger_path()))
    if not path.exists():
        raise DatabaseError(NO_LEDGER.format(path=path, thread_id=thread_id))
    ledger = Ledger(path)
    requests, _ = copied_from(agent, thread_id)
    inherited = [
        row | {"inherited_from": row["thread_id"]}
        for row in ledger.audit_events(request_ids=requests)
        if row["thread_id"] != thread_id
    ]
    return f"MCP ledger {path}", inherited + ledger.audit_events(thread_id)


def copied_from(agent: Agent, thread_id: str) -> tuple[set[str], list[str]]:
    """The approval requests a thread's checkpoints name (steps and proposals, every
    branch), and the other threads whose runs wrote some of its checkpoints (a copy's
    original, as the server's checkpoint metadata names it).

    A copy (`threads.copy`) keeps its original's checkpoints, and with them requests
    decided on the original, whose audit rows carry the original's thread id.
    """
    requests: set[str] = set()
    others: list[str] = []
    reading = getattr(agent.checkpointer, "reading_thread", None)
    with reading(thread_id) if reading is not None else nullcontext():
        for state in agent.get_state_history(thread_config(thread_id)):
            values = state.values if isinstance(state.values, Mapping) else {}
            for item in [*(values.get("steps") or []), values.get("proposal") or {}]:
                if item.get("request_id"):
                    requests.add(str(item["request_id"]))
            writer = str((state.metadata or {}).get("thread_id") or thread_id)
            if writer != thread_id and writer not in others:
                others.append(writer)
    return requests, others


def untruths(
    rows: Sequence[Mapping[str, Any]], reservations: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Where the audit log does not tell the truth about what ran.

    Every reservation has exactly one `reserved` executed row, for a request
    whose first decision approves it; no executed row belongs to a request
    whose decision of record rejects or denies it, or that has none; a request
    has one decision (its first) unless later ones only replay it, and runs at
    most once (one executed row per idempotency key, a refusal included).
    """
    problems = []
    decisions: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row["event"] == "decision":
            decisions.setdefault(row["request_id"], []).append(row["detail"])
    for request_id, made in decisions.items():
        if any(detail != made[0] for detail in made[1:]):
            problems.append(f"request {request_id} has different decisions: {made}")
    executed = [row for row in rows if row["event"] == "executed"]
    runs: dict[str, list[Mapping[str, Any]]] = {}
    for row in executed:
        runs.setdefault(row["idempotency_key"] or row["request_id"], []).append(row)
    for ran in runs.values():
        if len(ran) > 1:
            ids = ", ".join(str(r["audit_id"]) for r in ran)
            problems.append(
                f"request {ran[0]['request_id']} ran {len(ran)} times (executed rows {ids})"
            )
    for row in executed:
        first = (decisions.get(row["request_id"]) or [{}])[0]
        if first.get("type") not in ("approve", "edit"):
            problems.append(f"executed row {row['audit_id']} without an approval: {first}")
    for reservation in reservations:
        rows_for = [
            r
            for r in executed
            if r["detail"].get("reservation_id") == reservation["reservation_id"]
            and r["detail"].get("outcome") == "reserved"
        ]
        if len(rows_for) != 1:
            problems.append(
                f"reservation {reservation['reservation_id']} has {len(rows_for)} executed rows"
            )
    return problems
