"""The campus-library environment the ReAct graph drives.

Backend calls run in a worker thread under `settings.tool_timeout_s`; a call that
times out (for real, or by a fault injected from `settings.faults`; both in
`tools.library.faults`) or meets a database error (SQLite locked, a PostgreSQL
server unreachable) is retried once when it is read-only and the budget has a call
left, then reported as UNKNOWN with no evidence except a cached status clearly
labelled as such. Writes are never retried: their outcome is UNKNOWN, and the
idempotency key makes a later retry safe.

The clock comes from the step (`clock.step_clock`). State kept in the
environment's slice of the checkpointed state (returned in
`ToolOutcome.env_update`, merged with `dict.update`) changes only when the
world does or may have: `faults_fired` (the `timeout-once` faults spent in this
episode), `reservations` (ids of the reservations this episode's writes made) and
`unknown_writes` (the steps whose write got no answer: it may have run), so the
graph's repeat detection sees a re-query after a write as new.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tools.base import ActionSpec, Evidence, ExecContext, ToolOutcome, Verdict
from tools.library.backend import LibraryBackend
from tools.library.clock import STEP_COST, iso, resolve_deadline, show_time, step_clock
from tools.library.completion import answer_caveat, check_completion
from tools.library.db import default_db_path
from tools.library.engines import TRANSIENT_FAILURES, failure_text, location_key, parse_location
from tools.library.faults import FAILURE_TIMEOUT, CallTimeout, matching_fault, run_with_timeout
from tools.library.observations import (
    Rendered,
    copy_evidence,
    render_copy,
    render_reservation,
    render_search,
    render_unknown,
)
from tools.library.place_observations import open_hours_observation, walk_observation
from tools.library.text import fold
from tools.library.tools import FINISH, SPECS, canonical_action, parse_args

DEADLINE_PASSED = (
    "It is already {now} on {date}, not before the deadline {deadline}: the goal can no longer "
    "be met. Say so, and ask whether a later time would do."
)
SITUATION = "Now: {now} ({weekday}). The patron ({patron}) starts from {origin}.{deadline}"
SITUATION_DEADLINE = " Deadline: arrive before {deadline}."
FAILURE_ERROR = "the library system reported an error ({error})"
ATTEMPTS = "{failure} ({attempts} attempts)"
NOT_RETRIED_BUDGET = "{failure} (not retried: no tool call left in the budget)"
NOT_RETRIED_WRITE = "{failure} (writes are not retried automatically)"
CACHED_FALLBACK = "\nCached fallback: {line}"


class LibraryEnvironment:
    """The `Environment` of the campus-library assistant."""

    name = "library"
    finish_action = FINISH

    def __init__(self, db_path: Path | str | None = None) -> None:
        self._db_path = db_path or None
        self._backends: dict[str, LibraryBackend] = {}
        self._lock = threading.Lock()

    def backend(self, settings: Any) -> LibraryBackend:
        """The backend of `settings.library_db` (a file or a PostgreSQL URL), else of this
        environment's database, else the default file."""
        location = parse_location(settings.library_db or self._db_path or default_db_path())
        key = location_key(location)
        with self._lock:
            if key not in self._backends:
                self._backends[key] = LibraryBackend(location)
            return self._backends[key]

    def specs(self) -> Mapping[str, ActionSpec]:
        """The five library actions and Finish."""
        return MappingProxyType(SPECS)

    def parse_args(self, action: str, argument: str) -> dict[str, Any]:
        """Validate an action's bracket text (see `tools.library.tools`)."""
        return parse_args(action, argument)

    def execute(self, action: str, args: Mapping[str, Any], ctx: ExecContext) -> ToolOutcome:
        """Run one library action with its faults, timeout, retry and clock."""
        action = canonical_action(action)
        if action == FINISH:
            raise ValueError("Finish is checked by check_answer, not executed")
        settings, spec = ctx.settings, SPECS[action]
        backend = self.backend(settings)
        fault = matching_fault(action, args, backend, settings)
        fired = list(ctx.env_state.get("faults_fired", []))
        clock = step_clock(settings, ctx.step_index)
        allowed = 1 if spec.writes or ctx.tool_calls_left < 2 else 2
        attempts, failure, rendered = 0, "", None
        while attempts < allowed and rendered is None:
            attempts += 1
            clock += STEP_COST
            if fault and (fault.mode == "timeout-always" or fault.key not in fired):
                if fault.mode == "timeout-once":
                    fired.append(fault.key)
                failure = FAILURE_TIMEOUT.format(seconds=settings.tool_timeout_s)
                continue
            try:
                rendered = run_with_timeout(
                    self._handler(action, args, backend, ctx, clock), settings.tool_timeout_s
                )
            except CallTimeout as exc:
                failure = str(exc)
            except TRANSIENT_FAILURES as exc:
                failure = FAILURE_ERROR.format(error=failure_text(exc))
        env_update: dict[str, Any] = {}
        if fired != list(ctx.env_state.get("faults_fired", [])):
            env_update["faults_fired"] = fired
        if rendered is not None:
            made = [
                e["facts"]["reservation_id"]
                for e in rendered.evidence
                if e["facts"].get("kind") == "reservation"
            ]
            if made:
                known = list(ctx.env_state.get("reservations", []))
                env_update["reservations"] = sorted({*known, *made})
            return ToolOutcome(rendered.text, rendered.evidence, env_update, calls=attempts)
        return self._unknown(
            action, args, ctx, backend, clock, failure, attempts, allowed, env_update
        )

    def _unknown(
        self,
        action: str,
        args: Mapping[str, Any],
        ctx: ExecContext,
        backend: LibraryBackend,
        clock: datetime,
        failure: str,
        attempts: int,
        allowed: int,
        env_update: dict[str, Any],
    ) -> ToolOutcome:
        """The outcome of a call that got no answer, with a labelled cached status if any."""
        writes = SPECS[action].writes
        if writes:
            failure = NOT_RETRIED_WRITE.format(failure=failure)
            unsettled = list(ctx.env_state.get("unknown_writes", []))
            env_update["unknown_writes"] = [*unsettled, ctx.step_index]
        elif attempts > 1:
            failure = ATTEMPTS.format(failure=failure, attempts=attempts)
        elif allowed < 2:
            failure = NOT_RETRIED_BUDGET.format(failure=failure)
        text = render_unknown(action, args, failure, writes)
        evidence = []
        if action == "get_copy_status":
            try:
                cached = run_with_timeout(
                    lambda: backend.cached_status(args["copy_id"], ctx.settings.patron),
                    ctx.settings.tool_timeout_s,
                )
            except (CallTimeout, *TRANSIENT_FAILURES):
                cached = None
            if cached is not None:
                draft = copy_evidence(cached, clock.date())
                evidence.append(draft)
                text += CACHED_FALLBACK.format(line=draft["text"])
        return ToolOutcome(
            text, evidence, env_update, calls=attempts, failed=True, cache_hits=len(evidence)
        )

    def _handler(
        self,
        action: str,
        args: Mapping[str, Any],
        backend: LibraryBackend,
        ctx: ExecContext,
        clock: datetime,
    ) -> Callable[[], Rendered]:
        """The backend work of one attempt, as a call the timeout can run."""
        settings, today = ctx.settings, clock.date()
        if action == "search_catalog":
            return lambda: render_search(args["title"], backend.search_catalog(args["title"]))
        if action == "get_copy_status":
            return lambda: render_copy(
                args["copy_id"], backend.copy_status(args["copy_id"], settings.patron), today
            )
        if action == "get_open_hours":
            return lambda: open_hours_observation(backend, args["branch"], args["date"], today)
        if action == "estimate_walk":
            return lambda: walk_observation(
                backend, args.get("origin") or settings.origin, args["destination"]
            )
        if action == "reserve_copy":
            return lambda: render_reservation(
                backend.reserve(
                    args["copy_id"],
                    settings.patron,
                    ctx.idempotency_key,
                    iso(clock),
                    ctx.thread_id,
                    ctx.step_index,
                    request_id=ctx.request_id,
                    actor=ctx.actor,
                    fence=ctx.fence,
                ),
                args["copy_id"],
                settings.patron,
                today,
            )
        raise ValueError(f"no handler for action {action!r}")

    def goal_unreachable(self, question: str, ctx: ExecContext) -> str | None:
        """A message when the clock is already at or past the deadline, else None."""
        clock = step_clock(ctx.settings, ctx.step_index)
        deadline = resolve_deadline(ctx.settings.deadline, question, clock)
        if deadline is None or clock < deadline:
            return None
        return DEADLINE_PASSED.format(
            now=clock.strftime("%H:%M"),
            date=clock.date().isoformat(),
            deadline=show_time(deadline, clock.date()),
        )

    def situation(self, question: str, ctx: ExecContext) -> str:
        """One line for the prompt: the clock, the patron's origin and the deadline."""
        settings = ctx.settings
        clock = step_clock(settings, ctx.step_index)
        deadline = resolve_deadline(settings.deadline, question, clock)
        return SITUATION.format(
            now=clock.strftime("%Y-%m-%d %H:%M"),
            weekday=clock.strftime("%A"),
            patron=settings.patron,
            origin=settings.origin,
            deadline=SITUATION_DEADLINE.format(deadline=show_time(deadline, clock.date()))
            if deadline
            else "",
        )

    def final_answer(
        self, question: str, answer: str, verdict: Verdict, evidence: Sequence[Evidence]
    ) -> str:
        """The answer plus the caveat that stock changes, with the status snapshot time."""
        supporting = [item for item in evidence if item["id"] in set(verdict["evidence_ids"])]
        return f"{answer.rstrip()} {answer_caveat(supporting or evidence, question)}"

    def record_audit(self, event: str, detail: Mapping[str, Any], ctx: ExecContext) -> None:
        """Append an audit row with the context's request, actor and idempotency key
        (an exact replay of a row already written is not written again)."""
        settings = ctx.settings
        self.backend(settings).record_event(
            event,
            thread_id=ctx.thread_id,
            request_id=ctx.request_id,
            step_index=ctx.step_index,
            actor=ctx.actor,
            patron=settings.patron,
            clock=iso(step_clock(settings, ctx.step_index)),
            detail=detail,
            idempotency_key=ctx.idempotency_key,
            fence=ctx.fence,
        )

    def check_answer(
        self, question: str, answer: str, evidence: Sequence[Evidence], ctx: ExecContext
    ) -> Verdict:
        """The program's completion check (`completion.check_completion`) at the current clock."""
        settings = ctx.settings
        clock = step_clock(settings, ctx.step_index)
        origin = self.backend(settings).resolve_place(settings.origin)
        return check_completion(
            question,
            answer,
            evidence,
            clock=clock,
            deadline=resolve_deadline(settings.deadline, question, clock),
            origin=origin.place_id if origin else fold(settings.origin),
            origin_name=origin.name if origin else settings.origin,
        )
