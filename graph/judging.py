"""The judge's confirmation of an answer the evidence states (see `graph.verifier.judge`):
its call is a model turn, counted, budgeted and timed like the agent model's.
"""

from __future__ import annotations

import time
from typing import Any

from graph.context import Context
from graph.node_support import AgentDeps, add_elapsed, bump
from graph.state import AgentState
from graph.trajectory import budget_message
from tools.base import Verdict, verdict_outcome


def confirm_with_judge(
    deps: AgentDeps,
    state: AgentState,
    ctx: Context,
    answer: str,
    verdict: Verdict,
    counters: dict[str, Any],
) -> tuple[Verdict, str]:
    """The verdict after the run's judge (if any) was asked about it, and a note saying why
    the judge left it as it was ('' when it did not, or was not asked)."""
    if verdict_outcome(verdict) == "rejected":
        return verdict, ""
    model = deps.judge_model(ctx)
    if model is None:
        return verdict, ""
    from graph.verifier.judge import JUDGE_TIMEOUT_S, asks_judge, judge, judge_unaffordable

    if not asks_judge(verdict):
        return verdict, ""
    if counters.get("model_calls", 0) >= ctx.max_model_turns:
        unaffordable = judge_unaffordable(verdict, budget_message("model_turns", ctx))
        return unaffordable.verdict, unaffordable.note
    started = time.monotonic()
    left = ctx.max_seconds - counters.get("elapsed_s", 0.0)
    judged = judge(
        model,
        state["question"],
        answer,
        verdict,
        state.get("evidence") or [],
        timeout_s=max(0.0, min(JUDGE_TIMEOUT_S, left)),
    )
    bump(counters, "model_calls")
    bump(counters, "input_tokens", judged.input_tokens)
    bump(counters, "output_tokens", judged.output_tokens)
    add_elapsed(counters, started)
    return judged.verdict, judged.note
