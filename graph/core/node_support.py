"""What the nodes share: their live dependencies and small helpers on counters and context.

Live dependencies (chat model, environment) are bound when the graph is built
and never stored in state; settings come from `Runtime[Context]` (the thread's
stored ones, see `graph.core.thread_guard`); everything else comes from state.

The chat-model loader and the verifier are imported inside the helpers that use them:
`react-agent show`, `history` and `audit` import this module with the graph, and at the
top they would add about 0.17 s (the chat-model stack, the verifier) to `show`, which
takes about 1.1 s (python -X importtime).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from langgraph.runtime import Runtime

from graph.core.state import AgentState
from graph.core.thread_guard import actor_of, fence_token
from graph.core.trajectory import budget_message
from graph.settings.context import Context
from tools.base import Environment, Evidence, ExecContext, Verdict

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

    from graph.verifier.checkers import Allowance, Checker

MODEL_BACKOFF_S = 2.0
JUDGE_AUTO = "auto"
JUDGE_OFF = frozenset({"off", ""})
FAKE_MODEL_MODULES = (
    "graph.core.scripted",
    "graph.testing",
    "graph.evaluation.oracles",
    "langchain_core.language_models.fake",
)

EnvironmentFactory = Callable[[Context], Environment]


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def reply_text(reply: Any) -> str:
    """A model reply's text, every lone surrogate (a provider's JSON may decode to one)
    replaced by U+FFFD: such a string cannot be hashed, stored or printed as UTF-8."""
    return _LONE_SURROGATE.sub("\ufffd", str(reply.content))


def is_test_model(model: BaseChatModel) -> bool:
    """Whether `model` is a scripted or fake model (`graph.core.scripted`'s, LangChain's
    fakes, or a subclass of one), which `--judge auto` never asks."""
    return (
        any(cls.__module__.startswith(FAKE_MODEL_MODULES) for cls in type(model).__mro__)
        or "fake" in getattr(model, "_llm_type", "").lower()
    )


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
            from graph.core.models import load_chat_model

            self._models[key] = load_chat_model(ctx.model, ctx.temperature, ctx.max_tokens)
        return self._models[key]

    def checker(self, ctx: Context, env: Environment, exec_ctx: ExecContext) -> Checker:
        """The environment's rules, then this run's judge (if any)."""
        # Imported here: the verifier takes a quarter of a second to import
        # (`python -X importtime`), and the commands that only read threads never need it.
        from graph.verifier.checkers import checker_for

        def rules(question: str, answer: str, evidence: Sequence[Evidence]) -> Verdict:
            return env.check_answer(question, answer, evidence, exec_ctx)

        return checker_for(rules, self.judge_model(ctx))

    def judge_model(self, ctx: Context) -> BaseChatModel | None:
        """The judge model for this run, or None (`judge` overrides `Context.judge`).

        `auto` is the agent's own model when it is a real chat model (scripted and fake
        models have none); `off` or empty: none; anything else names the judge's model.
        """
        if self.judge is not None:
            return self.judge
        spec = ctx.judge.strip()
        if spec in JUDGE_OFF:
            return None
        if spec == JUDGE_AUTO:
            own = self.model if self.model is not None else self._loaded(ctx.model)
            return None if is_test_model(own) else own
        return self._loaded(spec)

    def _loaded(self, spec: str) -> BaseChatModel:
        """`spec` loaded as a judge (temperature 0, a short reply), cached."""
        key = ("judge", spec)
        if key not in self._models:
            from graph.core.models import load_chat_model
            from graph.verifier.judge import JUDGE_MAX_TOKENS

            self._models[key] = load_chat_model(spec, 0.0, JUDGE_MAX_TOKENS)
        return self._models[key]

    def environment(self, ctx: Context) -> Environment:
        """The environment for this run (one per distinct set of its settings)."""
        key = _cache_key(ctx, self.environment_keys)
        if key not in self._environments:
            self._environments[key] = self.environment_factory(ctx)
        return self._environments[key]


def counters_of(state: AgentState) -> dict[str, Any]:
    """A mutable copy of the episode's counters (see `Counters` for the keys)."""
    return dict(state.get("counters") or {})


def bump(counters: dict[str, Any], key: str, amount: float = 1) -> None:
    """Add `amount` to one counter."""
    counters[key] = counters.get(key, 0) + amount


def judge_allowance(ctx: Context, counters: dict[str, Any]) -> Allowance:
    """What the judge may spend of the run's budgets: the model turns and seconds left."""
    from graph.verifier.checkers import Allowance  # see `AgentDeps.checker`

    return Allowance(
        calls=ctx.max_model_turns - counters.get("model_calls", 0),
        seconds=ctx.max_seconds - counters.get("elapsed_s", 0.0),
        exhausted=budget_message("model_turns", ctx),
    )


def add_elapsed(counters: dict[str, Any], started: float) -> None:
    """Charge the time since `started` (a `time.monotonic()` reading) to the time budget."""
    counters["elapsed_s"] = counters.get("elapsed_s", 0.0) + time.monotonic() - started


def write_key(thread_id: str, step_index: int, request_id: str = "") -> str:
    """The idempotency key of a write: its approval request's, else the thread's step."""
    return f"{thread_id}:{request_id}" if request_id else f"{thread_id}:{step_index}"


def exec_context(
    state: AgentState,
    runtime: Runtime[Context],
    *,
    request_id: str | None = None,
    actor: str | None = None,
) -> ExecContext:
    """What an environment may read while executing one action of this state.

    The request is the proposal's (unless given), the actor whoever drives the
    run (`graph.core.thread_guard.actor_of`) unless given.
    """
    info = runtime.execution_info
    thread_id = str(info.thread_id or "") if info is not None else ""
    step_index = len(state.get("steps") or []) + 1
    counters = state.get("counters") or {}
    if request_id is None:
        request_id = str((state.get("proposal") or {}).get("request_id") or "")
    return ExecContext(
        settings=runtime.context,
        env_state=dict(state.get("env_state") or {}),
        thread_id=thread_id,
        step_index=step_index,
        idempotency_key=write_key(thread_id, step_index, request_id),
        tool_calls_left=max(0, runtime.context.max_tool_calls - counters.get("tool_calls", 0)),
        request_id=request_id,
        actor=actor_of() if actor is None else actor,
        fence=fence_token(thread_id),
    )


def recorded_decisions(env: Environment, ctx: ExecContext) -> list[dict[str, Any]]:
    """The audit log's `decision` rows for `ctx`'s request, oldest first; [] for an
    environment that keeps no audit log."""
    backend = getattr(env, "backend", None)
    if not callable(backend) or not ctx.request_id:
        return []
    rows = backend(ctx.settings).audit_events(ctx.thread_id)
    return [r for r in rows if r["event"] == "decision" and r["request_id"] == ctx.request_id]


def emit(runtime: Runtime[Context], event: str, **data: Any) -> None:
    """Stream one custom event (`proposal`, `step`, `stop`) to whoever watches the run."""
    runtime.stream_writer({"event": event, **data})
