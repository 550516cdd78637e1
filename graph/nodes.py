"""The graph's nodes: reason, review, act, observe, verify.

Each node is thin: the decisions live in pure helpers (`graph.protocol`,
`graph.trajectory`, the environment's checker). Live dependencies come from
`AgentDeps`, settings from `Runtime[Context]`, and everything else from state.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from graph.approval import approval_request, parse_decision
from graph.context import Context
from graph.errors import DecisionError
from graph.models import load_chat_model
from graph.outcomes import outcome_evidence, stored_outcome
from graph.protocol import ParseFailure, parse_react_output
from graph.state import AgentState, Proposal, Step
from graph.trajectory import (
    REPEATED,
    action_text,
    add_evidence,
    budget_exceeded,
    budget_message,
    build_messages,
    find_repeat,
    fingerprint,
    now_iso,
    repeat_key,
    unverified_answer,
)
from graph.validation import validate_run
from graph.verifier.judge import JUDGE_MAX_TOKENS, JUDGE_TIMEOUT_S, judge, judge_unaffordable
from tools.base import ArgumentError, Environment, ExecContext, ToolOutcome, Verdict

STOP_SEQUENCES = ["\nObservation"]
MODEL_ATTEMPTS = 3
MODEL_BACKOFF_S = 2.0

TOOL_FAILED = "{action} failed: {error}. Nothing was changed; try again later or differently."
UNSUPPORTED = (
    "Your answer [{answer}] is not supported by the evidence stored so far. {missing}. "
    "Find a source that states it, or answer with what the evidence states."
)
NOT_STATED = "No stored evidence states: {parts}"
REJECTED = "A human rejected {action}: {message} It was not run."
DENIED = "{action} was not run: write actions are turned off for this run (approvals=deny)."
EDIT_NOT_ACTION = "edited_action must name one of: {names}"
GOAL_UNREACHABLE = "goal_unreachable"

EnvironmentFactory = Callable[[Context], Environment]


def _cache_key(ctx: Context, names: tuple[str, ...]) -> tuple[Any, ...]:
    return tuple(getattr(ctx, name, None) for name in names)


@dataclass
class AgentDeps:
    """Live dependencies, bound when the graph is built (never stored in state).

    `model` overrides the context's model spec (the CLI and tests pass a
    ready model); otherwise models are loaded from `Context.model` and cached.
    """

    environment_factory: EnvironmentFactory
    environment_keys: tuple[str, ...] = ()
    model: BaseChatModel | None = None
    judge: BaseChatModel | None = None
    model_backoff_s: float = MODEL_BACKOFF_S
    _models: dict[tuple[Any, ...], BaseChatModel] = field(default_factory=dict)
    _environments: dict[tuple[Any, ...], Environment] = field(default_factory=dict)

    def chat_model(self, ctx: Context) -> BaseChatModel:
        """The chat model for this run."""
        if self.model is not None:
            return self.model
        key = (ctx.model, ctx.temperature, ctx.max_tokens)
        if key not in self._models:
            self._models[key] = load_chat_model(ctx.model, ctx.temperature, ctx.max_tokens)
        return self._models[key]

    def judge_model(self, ctx: Context) -> BaseChatModel:
        """The judge model for this run (`judge` overrides `Context.judge`)."""
        if self.judge is not None:
            return self.judge
        key = ("judge", ctx.judge)
        if key not in self._models:
            self._models[key] = load_chat_model(ctx.judge, 0.0, JUDGE_MAX_TOKENS)
        return self._models[key]

    def environment(self, ctx: Context) -> Environment:
        """The environment for this run (one per distinct set of its settings)."""
        key = _cache_key(ctx, self.environment_keys)
        if key not in self._environments:
            self._environments[key] = self.environment_factory(ctx)
        return self._environments[key]


def _counters(state: AgentState) -> dict[str, Any]:
    """A mutable copy of the episode's counters (see `Counters` for the keys)."""
    return dict(state.get("counters") or {})


def _bump(counters: dict[str, Any], key: str, amount: float = 1) -> None:
    counters[key] = counters.get(key, 0) + amount


def _add_elapsed(counters: dict[str, Any], started: float) -> None:
    """Charge the time since `started` (a `time.monotonic()` reading) to the time budget."""
    counters["elapsed_s"] = counters.get("elapsed_s", 0.0) + time.monotonic() - started


def _exec_context(state: AgentState, runtime: Runtime[Context]) -> ExecContext:
    info = runtime.execution_info
    thread_id = str(info.thread_id or "") if info is not None else ""
    step_index = len(state.get("steps") or []) + 1
    counters = state.get("counters") or {}
    return ExecContext(
        settings=runtime.context,
        env_state=dict(state.get("env_state") or {}),
        thread_id=thread_id,
        step_index=step_index,
        idempotency_key=f"{thread_id}:{step_index}",
        tool_calls_left=max(0, runtime.context.max_tool_calls - counters.get("tool_calls", 0)),
    )


def _emit(runtime: Runtime[Context], event: str, **data: Any) -> None:
    runtime.stream_writer({"event": event, **data})


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
            _exec_context(state, runtime),
        )
        answer = unverified_answer(why, proposed, verdict, state.get("evidence") or [])
        _emit(runtime, "stop", status=status, stop_reason=reason, answer=answer)
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
        counters = _counters(state)
        update: dict[str, Any] = {} if state.get("status") == "running" else {"status": "running"}
        if not state.get("settings"):
            update["settings"] = asdict(ctx) | {"env": env.name}
        exec_ctx = _exec_context(state, runtime)
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
                reply = model.invoke(messages, stop=STOP_SEQUENCES)
                break
            except Exception as error:  # a provider's errors have no common base class
                if attempt + 1 == MODEL_ATTEMPTS:
                    _add_elapsed(counters, started)
                    return update | {
                        "status": "error",
                        "counters": counters,
                        "stop_reason": f"model_error: {type(error).__name__}: {error}",
                    }
                time.sleep(self.deps.model_backoff_s * 2**attempt)
        _bump(counters, "model_calls")
        usage = getattr(reply, "usage_metadata", None) or {}
        _bump(counters, "input_tokens", usage.get("input_tokens", 0))
        _bump(counters, "output_tokens", usage.get("output_tokens", 0))
        proposal = self.propose(env, str(reply.content), steps, exec_ctx)
        wants_tool = (
            "action" in proposal and not proposal.get("finish") and not proposal.get("kind")
        )
        if wants_tool and counters.get("tool_calls", 0) >= ctx.max_tool_calls:
            _add_elapsed(counters, started)
            message = budget_message("tool_calls", ctx)
            stop = self._stop(state, runtime, "budget_exhausted", "tool_calls", message)
            return update | stop | {"counters": counters}
        _emit(
            runtime,
            "proposal",
            step=exec_ctx.step_index,
            thought=proposal.get("thought", ""),
            action=proposal.get("action_text", ""),
        )
        _add_elapsed(counters, started)
        update |= {"proposal": proposal, "counters": counters}
        return update | ({"outcome": None} if state.get("outcome") else {})

    @staticmethod
    def propose(env: Environment, text: str, steps: list[Step], exec_ctx: ExecContext) -> Proposal:
        """Parse one model turn: an invalid or repeated action, a Finish, or an action to run."""
        specs = env.specs()
        parsed = parse_react_output(text, specs.keys())
        if isinstance(parsed, ParseFailure):
            shown = " ".join(text.split())[:80]
            return Proposal(
                thought=parsed.thought,
                kind="invalid",
                observation=parsed.message,
                action_text=shown or "(nothing)",
            )
        shown = action_text(parsed.name, parsed.argument)
        base = Proposal(
            thought=parsed.thought, action=parsed.name, argument=parsed.argument, action_text=shown
        )
        try:
            args = env.parse_args(parsed.name, parsed.argument)
        except ArgumentError as error:
            return base | Proposal(kind="invalid", observation=f"Invalid action: {error}")
        base["args"] = args
        if parsed.name == env.finish_action:
            return base | Proposal(finish=True)
        earlier = find_repeat(
            steps, repeat_key(parsed.name, args), exec_ctx.env_state, specs[parsed.name].reads_state
        )
        if earlier is not None:
            message = REPEATED.format(action=shown, step=earlier.get("index"))
            return base | Proposal(kind="repeat", observation=message)
        return base | Proposal(writes=specs[parsed.name].writes)

    def review(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Ask a human about a write action before anything runs.

        The interrupt is the first effectful thing here (an exact replay of an
        audit row is not written again), so re-running this node on resume repeats
        nothing. The `executed` row is written by the environment with the write itself.
        """
        ctx = runtime.context
        env = self.deps.environment(ctx)
        proposal = Proposal(**(state.get("proposal") or {}))
        exec_ctx = _exec_context(state, runtime)
        name, args = proposal["action"], proposal.get("args", {})
        env.record_audit("proposed", {"action": name, "args": args}, exec_ctx)
        if ctx.approvals == "deny":
            env.record_audit("decision", {"type": "deny", "policy": "deny"}, exec_ctx)
            return {
                "proposal": proposal
                | Proposal(
                    kind="rejected", observation=DENIED.format(action=proposal["action_text"])
                )
            }
        if ctx.approvals == "auto":
            env.record_audit("decision", {"type": "approve", "policy": "auto"}, exec_ctx)
            return {"proposal": proposal | Proposal(decision={"type": "approve", "policy": "auto"})}
        description = f"{env.specs()[name].description} (proposed at step {exec_ctx.step_index})"
        error: str | None = None
        while True:
            value = interrupt(approval_request(name, args, description, error))
            try:
                decision = parse_decision(value)
                edited = (
                    self._edited(env, decision.name, decision.args)
                    if decision.type == "edit"
                    else None
                )
                break
            except (DecisionError, ArgumentError) as problem:
                error = f"Invalid decision: {problem}"
        started = time.monotonic()
        env.record_audit("decision", decision.as_dict(), exec_ctx)
        counters = _counters(state)
        _add_elapsed(counters, started)
        if decision.type == "reject":
            reason = decision.message.rstrip()
            reason = reason if reason.endswith((".", "!", "?", "。")) else reason + "."
            message = REJECTED.format(action=proposal["action_text"], message=reason)
            return {
                "counters": counters,
                "proposal": proposal
                | Proposal(kind="rejected", observation=message, decision=decision.as_dict()),
            }
        if edited is not None:
            proposal = proposal | edited
        return {"counters": counters, "proposal": proposal | Proposal(decision=decision.as_dict())}

    @staticmethod
    def _edited(env: Environment, name: str, args: Mapping[str, Any] | None) -> Proposal:
        """An edited action is a new proposal: validated again like the model's."""
        specs = {key.casefold(): spec for key, spec in env.specs().items()}
        spec = specs.get(name.casefold())
        if spec is None or spec.name == env.finish_action:
            names = ", ".join(k for k in env.specs() if k != env.finish_action)
            raise DecisionError(EDIT_NOT_ACTION.format(names=names))
        argument = json.dumps(dict(args or {}), ensure_ascii=False)
        parsed_args = env.parse_args(spec.name, argument)
        return Proposal(
            action=spec.name,
            argument=argument,
            args=parsed_args,
            action_text=action_text(spec.name, argument),
            writes=spec.writes,
        )

    def act(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Run the approved or read-only action; a tool's failure becomes an observation."""
        started = time.monotonic()
        env = self.deps.environment(runtime.context)
        proposal = state.get("proposal") or {}
        exec_ctx = _exec_context(state, runtime)
        name, args = proposal["action"], proposal.get("args", {})
        try:
            outcome = env.execute(name, args, exec_ctx)
        except Exception as error:  # a tool bug must not lose the episode
            message = TOOL_FAILED.format(action=proposal.get("action_text", name), error=error)
            outcome = ToolOutcome(observation=message, failed=True)
        counters = _counters(state)
        _bump(counters, "tool_calls", outcome.calls)
        _bump(counters, "http_requests", outcome.requests)
        _bump(counters, "cache_hits", outcome.cache_hits)
        _add_elapsed(counters, started)
        return {"outcome": stored_outcome(outcome), "counters": counters}

    def observe(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Store the turn: its observation, new evidence, environment changes, counters."""
        proposal = state.get("proposal") or {}
        outcome = state.get("outcome") or {}
        counters = _counters(state)
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
                _bump(counters, counter)
        _emit(runtime, "step", step=dict(step))
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

    def _confirm(
        self,
        state: AgentState,
        ctx: Context,
        answer: str,
        verdict: Verdict,
        counters: dict[str, Any],
    ) -> Verdict:
        """Ask the judge model about an accepted answer; its call is a model turn."""
        if counters.get("model_calls", 0) >= ctx.max_model_turns:
            return judge_unaffordable(answer, budget_message("model_turns", ctx))
        started = time.monotonic()
        left = ctx.max_seconds - counters.get("elapsed_s", 0.0)
        judged = judge(
            self.deps.judge_model(ctx),
            state["question"],
            answer,
            verdict,
            state.get("evidence") or [],
            timeout_s=max(0.0, min(JUDGE_TIMEOUT_S, left)),
        )
        _bump(counters, "model_calls")
        _bump(counters, "input_tokens", judged.input_tokens)
        _bump(counters, "output_tokens", judged.output_tokens)
        _add_elapsed(counters, started)
        return judged.verdict

    def verify(self, state: AgentState, runtime: Runtime[Context]) -> dict[str, Any]:
        """Accept the Finish answer only if stored evidence supports it."""
        ctx = runtime.context
        env = self.deps.environment(ctx)
        proposal = state.get("proposal") or {}
        answer = str((proposal.get("args") or {}).get("answer", proposal.get("argument", "")))
        exec_ctx = _exec_context(state, runtime)
        verdict = env.check_answer(state["question"], answer, state.get("evidence") or [], exec_ctx)
        counters = _counters(state)
        if verdict["supported"] and ctx.judge:
            verdict = self._confirm(state, ctx, answer, verdict, counters)
        step = Step(
            index=len(state.get("steps") or []) + 1,
            thought=proposal.get("thought", ""),
            action=env.finish_action,
            argument=answer,
            args={"answer": answer},
            action_text=proposal.get("action_text", ""),
            at=now_iso(),
            evidence_ids=list(verdict["evidence_ids"]),
        )
        if verdict["supported"]:
            step.update(Step(kind="finish", observation=f"Verified: {verdict['reason']}"))
            _emit(runtime, "step", step=dict(step))
            evidence = state.get("evidence") or []
            return {
                "steps": [step],
                "status": "verified",
                "stop_reason": "verified",
                "answer": env.final_answer(state["question"], answer, verdict, evidence),
                "verdict": verdict,
                "proposal": None,
                "counters": counters,
            }
        _bump(counters, "rejections")
        if ctx.verify_mode == "record":
            step.update(Step(kind="finish", observation=f"Not verified: {verdict['reason']}"))
            _emit(runtime, "step", step=dict(step))
            return {
                "steps": [step],
                "status": "unverified",
                "stop_reason": "finished_unverified",
                "answer": answer,
                "verdict": verdict,
                "proposal": None,
                "counters": counters,
            }
        if verdict["missing"]:
            missing = NOT_STATED.format(parts="; ".join(verdict["missing"]).rstrip(". "))
        else:
            missing = verdict["reason"].rstrip(". ")
        observation = UNSUPPORTED.format(answer=answer, missing=missing)
        step.update(Step(kind="unsupported", observation=observation))
        _emit(runtime, "step", step=dict(step))
        update: dict[str, Any] = {
            "steps": [step],
            "counters": counters,
            "proposal": None,
            "answer": answer,
            "verdict": verdict,
        }
        if counters.get("rejections", 0) > ctx.max_verifier_rejections:
            text = unverified_answer("", answer, verdict, state.get("evidence") or [])
            update |= {"status": "unverified", "stop_reason": "verifier_rejected", "answer": text}
        return update
