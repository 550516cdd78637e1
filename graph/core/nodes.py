"""The graph's nodes: reason, review, act, observe, verify.

Each node is thin: the decisions live in helpers (`graph.core.proposals`,
`graph.core.trajectory`, `graph.core.review`, `graph.core.verdicts`, the checker of
`graph.verifier.checkers`). Live dependencies come from `AgentDeps`, settings from
`Runtime[Context]` (the thread's stored ones: `graph.core.thread_guard` binds them),
and everything else from state.
"""

from __future__ import annotations

import time
from dataclasses import asdict
from typing import Any

from langgraph.runtime import Runtime

from graph.core.guarded_decisions import rule_of
from graph.core.node_support import (
    MODEL_BACKOFF_S,
    AgentDeps,
    add_elapsed,
    bump,
    counters_of,
    emit,
    exec_context,
    judge_allowance,
    reply_text,
)
from graph.core.outcomes import outcome_evidence, stored_outcome
from graph.core.passwords import recorded
from graph.core.proposals import propose
from graph.core.review import governing, review_write, unapproved
from graph.core.state import AgentState, Step
from graph.core.trajectory import (
    add_evidence,
    budget_exceeded,
    budget_message,
    build_messages,
    fingerprint,
    now_iso,
    repeat_key,
    unverified_answer,
)
from graph.core.verdicts import unchecked_update, verdict_update
from graph.settings.context import Context
from graph.settings.validation import validate_run
from tools.base import ToolOutcome
from tools.dbfiles import DiskFullError
from tools.fencing import TakenOverError
from tools.interrupts import call_interruptibly

__all__ = ["MODEL_BACKOFF_S", "AgentDeps", "Nodes"]

STOP_SEQUENCES = ["\nObservation"]
MODEL_ATTEMPTS = 3

TOOL_FAILED = "{action} failed: {error}. Nothing was changed; try again later or differently."
GOAL_UNREACHABLE = "goal_unreachable"


class Nodes:
    """The node functions, bound to one `AgentDeps`."""

    def __init__(self, deps: AgentDeps) -> None:
        self.deps = deps

    def _stop(
        self,
        state: AgentState,
        runtime: Runtime[Context],
        status: str,
        reason: str,
        why: str,
    ) -> dict[str, Any]:
        """End the episode honestly, saying what is and is not established."""
        env = self.deps.environment(runtime.context)
        proposed = state.get("answer", "")
        verdict = env.check_answer(
            state["question"],
            proposed,
            state.get("evidence") or [],
            exec_context(state, runtime),
        )
        answer = unverified_answer(why, proposed, verdict, state.get("evidence") or [])
        emit(runtime, "stop", status=status, stop_reason=reason, answer=answer)
        return {
            "status": status,
            "stop_reason": reason,
            "answer": answer,
            "verdict": verdict,
            "proposal": None,
        }

    def reason(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Ask the model for the next Thought and Action, and parse them."""
        validate_run(state.get("question"), runtime.context, naming="setting")
        started = time.monotonic()
        ctx = runtime.context
        env = self.deps.environment(ctx)
        counters = counters_of(state)
        update: dict[str, Any] = {} if state.get("status") == "running" else {"status": "running"}
        if not state.get("settings"):
            update["settings"] = recorded(asdict(ctx) | {"env": env.name})
        exec_ctx = exec_context(state, runtime)
        unreachable = env.goal_unreachable(state["question"], exec_ctx)
        if unreachable:
            return update | self._stop(state, runtime, "unverified", GOAL_UNREACHABLE, unreachable)
        spent = budget_exceeded(counters, ctx)
        if spent:
            return update | self._stop(
                state, runtime, "budget_exhausted", spent, budget_message(spent, ctx)
            )
        steps = state.get("steps") or []
        situation = env.situation(state["question"], exec_ctx)
        messages = build_messages(env, ctx, state["question"], steps, situation)
        model = self.deps.chat_model(ctx)
        for attempt in range(MODEL_ATTEMPTS):
            try:
                reply = call_interruptibly(lambda: model.invoke(messages, stop=STOP_SEQUENCES))
                break
            except Exception as error:  # a provider's errors have no common base class
                if attempt + 1 == MODEL_ATTEMPTS:
                    add_elapsed(counters, started)
                    return update | {
                        "status": "error",
                        "counters": counters,
                        "stop_reason": f"model_error: {type(error).__name__}: {error}",
                    }
                time.sleep(self.deps.model_backoff_s * 2**attempt)
        bump(counters, "model_calls")
        usage = getattr(reply, "usage_metadata", None) or {}
        bump(counters, "input_tokens", usage.get("input_tokens", 0))
        bump(counters, "output_tokens", usage.get("output_tokens", 0))
        proposal = propose(env, reply_text(reply), steps, exec_ctx)
        wants_tool = (
            "action" in proposal and not proposal.get("finish") and not proposal.get("kind")
        )
        if wants_tool and counters.get("tool_calls", 0) >= ctx.max_tool_calls:
            add_elapsed(counters, started)
            message = budget_message("tool_calls", ctx)
            stop = self._stop(state, runtime, "budget_exhausted", "tool_calls", message)
            return update | stop | {"counters": counters}
        emit(
            runtime,
            "proposal",
            step=exec_ctx.step_index,
            thought=proposal.get("thought", ""),
            action=proposal.get("action_text", ""),
        )
        add_elapsed(counters, started)
        update |= {"proposal": proposal, "counters": counters}
        return update | ({"outcome": None} if state.get("outcome") else {})

    def review(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Ask a human about a write action before anything runs (see `graph.core.review`)."""
        return review_write(self.deps, state, runtime)

    def act(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Run the approved or read-only action; a tool's failure becomes an observation."""
        started = time.monotonic()
        env = self.deps.environment(runtime.context)
        proposal = state.get("proposal") or {}
        exec_ctx = exec_context(state, runtime)
        name, args = proposal["action"], proposal.get("args", {})
        refusal = unapproved(env, proposal, exec_ctx) if proposal.get("writes") else ""
        try:
            outcome = (
                ToolOutcome(observation=refusal, calls=0)
                if refusal
                else env.execute(name, args, exec_ctx)
            )
        except (TakenOverError, DiskFullError):
            raise  # a write refused or not stored: the run stops, the step is run again

        except Exception as error:  # a tool bug must not lose the episode
            message = TOOL_FAILED.format(action=proposal.get("action_text", name), error=error)
            outcome = ToolOutcome(observation=message, failed=True)
        counters = counters_of(state)
        bump(counters, "tool_calls", outcome.calls)
        bump(counters, "http_requests", outcome.requests)
        bump(counters, "cache_hits", outcome.cache_hits)
        add_elapsed(counters, started)
        return {"outcome": stored_outcome(outcome), "counters": counters}

    def observe(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Store the turn: its observation, new evidence, environment changes, counters."""
        proposal = state.get("proposal") or {}
        outcome = state.get("outcome") or {}
        counters = counters_of(state)
        env_state = dict(state.get("env_state") or {})
        steps = state.get("steps") or []
        step = Step(
            index=len(steps) + 1,
            thought=proposal.get("thought", ""),
            action=proposal.get("action", ""),
            argument=proposal.get("argument", ""),
            args=dict(proposal.get("args") or {}),
            action_text=proposal.get("action_text", ""),
            at=now_iso(),
        )
        if proposal.get("decision"):
            step["decision"] = proposal["decision"]
        if proposal.get("request_id"):
            step["request_id"] = proposal["request_id"]
            env, ctx = self.deps.environment(runtime.context), runtime.context
            mode = rule_of(env, ctx, str(proposal.get("action") or "")).mode(ctx.approvals)
            step.update(governing(env, proposal, exec_context(state, runtime), mode))
        new_evidence: list[Any] = []
        if outcome:
            step["state_before"] = fingerprint(env_state)
            env_state.update(outcome.get("env_update") or {})
            drafts = outcome_evidence(outcome)
            new_evidence, ids = add_evidence(state.get("evidence") or [], drafts)
            step.update(
                Step(
                    kind="failed" if outcome.get("failed") else "tool",
                    observation=outcome["observation"],
                    evidence_ids=ids,
                    repeat_key=repeat_key(step["action"], step["args"]),
                    state_after=fingerprint(env_state),
                )
            )
        else:
            kind = proposal.get("kind", "invalid")
            step.update(Step(kind=kind, observation=proposal.get("observation", "")))
            counter = {"invalid": "invalid_actions", "repeat": "repeats"}.get(kind)
            if counter:
                bump(counters, counter)
        emit(runtime, "step", step=dict(step))
        update: dict[str, Any] = {"steps": [step], "proposal": None}
        if new_evidence:
            update["evidence"] = new_evidence
        for key, value in (("env_state", env_state), ("counters", counters)):
            if value != state.get(key):
                update[key] = value
        if outcome:
            update["outcome"] = None
        if outcome.get("stop_reason"):
            update |= {
                "status": "unverified",
                "stop_reason": outcome["stop_reason"],
                "answer": outcome["observation"],
            }
        return update

    def verify(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Check the Finish answer against the stored evidence (and the judge, if any).

        `verified` ends the episode. `rejected` goes back to the model, at most
        `max_verifier_rejections` times, then the episode ends unverified. `grounded`
        goes back once per distinct answer, at most `max_verifier_rejections` times in
        all; the same answer again, or a grounded one once no return is left, ends
        the episode `grounded`.
        """
        ctx = runtime.context
        env = self.deps.environment(ctx)
        proposal = state.get("proposal") or {}
        answer = str((proposal.get("args") or {}).get("answer", proposal.get("argument", "")))
        exec_ctx = exec_context(state, runtime)
        counters = counters_of(state)
        checker = self.deps.checker(ctx, env, exec_ctx)
        started = time.monotonic()
        try:
            judged = checker.check(
                state["question"],
                answer,
                state.get("evidence") or [],
                judge_allowance(ctx, counters),
            )
        except Exception as error:  # a defect of a checker must not fail the whole run
            return unchecked_update(state, runtime, env, proposal, answer, error, counters)
        if judged.called:
            bump(counters, "model_calls")
            bump(counters, "input_tokens", judged.input_tokens)
            bump(counters, "output_tokens", judged.output_tokens)
            add_elapsed(counters, started)
        verdict, note = judged.verdict, judged.note
        return verdict_update(state, runtime, env, proposal, answer, verdict, note, counters)
