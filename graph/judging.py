"""The judge model's confirmation of an answer the verifier accepted: its call is a
model turn (counted, budgeted and timed like the agent model's).
"""

from __future__ import annotations

import time
from typing import Any

from graph.context import Context
from graph.node_support import AgentDeps, add_elapsed, bump
from graph.state import AgentState
from graph.trajectory import budget_message
from tools.base import Verdict


def confirm_with_judge(
    deps: AgentDeps,
    state: AgentState,
    ctx: Context,
    answer: str,
    verdict: Verdict,
    counters: dict[str, Any],
) -> Verdict:
    """Ask the judge model about an accepted answer; its call is a model turn."""
    from graph.verifier.judge import JUDGE_TIMEOUT_S, judge, judge_unaffordable

    if counters.get("model_calls", 0) >= ctx.max_model_turns:
        return judge_unaffordable(answer, budget_message("model_turns", ctx))
    started = time.monotonic()
    left = ctx.max_seconds - counters.get("elapsed_s", 0.0)
    judged = judge(
        deps.judge_model(ctx),
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
    return judged.verdict
