"""What the verifier's verdict on a Finish answer does to the episode (the `verify` node's
outcome): the finish step it records, and whether the episode ends or goes back to the model.
"""

from __future__ import annotations

import logging
from typing import Any

from langgraph.runtime import Runtime

from graph.core.node_support import bump, emit
from graph.core.state import AgentState, Proposal, Step
from graph.core.trajectory import now_iso, returned_grounded, same_answer, unverified_answer
from graph.settings.context import Context
from tools.base import Environment, Verdict, verdict_outcome

UNSUPPORTED = (
    "Your answer [{answer}] is not supported by the evidence stored so far. {missing}. "
    "Find a source that states it, or answer with what the evidence states."
)
GROUNDED = (
    "Your answer [{answer}] is stated by the stored evidence, but it could not be tied to "
    "what the question asks: {untied}. Check that it answers the question: find a source "
    "that ties it, or change it. Finishing again with the same answer ends the episode "
    "with it reported as grounded, not verified."
)
NOT_CHECKED = (
    "Not checked: the verifier failed ({error}). The answer stands unverified: the failure"
    " is a defect of the verifier, not a judgement of the answer; please report it."
)
MAX_ERROR_CHARS = 300
JUDGE_NOTE = " (Note: {note}.)"
NOT_STATED = "No stored evidence states: {parts}"


def verdict_update(
    state: AgentState,
    runtime: Runtime[Context],
    env: Environment,
    proposal: Proposal,
    answer: str,
    verdict: Verdict,
    note: str,
    counters: dict[str, Any],
) -> dict[str, Any]:
    """The state update for `verdict` (and the judge's `note`) on the Finish `answer`:
    see `Nodes.verify` for when the episode ends."""
    ctx = runtime.context
    outcome = verdict_outcome(verdict)
    step = _finish_step(state, env, proposal, answer, list(verdict["evidence_ids"]))
    judge_note = JUDGE_NOTE.format(note=note) if note else ""
    ended: dict[str, Any] = {"proposal": None, "counters": counters, "verdict": verdict}
    if outcome == "verified":
        observation = f"Verified: {verdict['reason']}{judge_note}"
        step.update(Step(kind="finish", observation=observation))
        emit(runtime, "step", step=dict(step))
        evidence = state.get("evidence") or []
        return ended | {
            "steps": [step],
            "status": "verified",
            "stop_reason": "verified",
            "answer": env.final_answer(state["question"], answer, verdict, evidence),
        }
    if outcome == "grounded":
        returned = returned_grounded(state.get("steps") or [])
        if (
            ctx.verify_mode == "record"
            or same_answer(answer, returned)
            or (counters.get("grounded_returns", 0) >= ctx.max_verifier_rejections)
        ):
            observation = f"Grounded: {verdict['reason']}{judge_note}"
            step.update(Step(kind="finish", observation=observation))
            emit(runtime, "step", step=dict(step))
            stop = "finished_grounded" if ctx.verify_mode == "record" else "grounded"
            return ended | {
                "steps": [step],
                "status": "grounded",
                "stop_reason": stop,
                "answer": answer,
            }
        bump(counters, "grounded_returns")
        untied = "; ".join(verdict["missing"]) or verdict["reason"]
        observation = GROUNDED.format(answer=answer, untied=untied.rstrip(". "))
        step.update(Step(kind="grounded", observation=observation + judge_note))
        emit(runtime, "step", step=dict(step))
        return ended | {"steps": [step], "answer": answer}
    bump(counters, "rejections")
    if ctx.verify_mode == "record":
        step.update(Step(kind="finish", observation=f"Not verified: {verdict['reason']}"))
        emit(runtime, "step", step=dict(step))
        return ended | {
            "steps": [step],
            "status": "unverified",
            "stop_reason": "finished_unverified",
            "answer": answer,
        }
    if verdict["missing"]:
        missing = NOT_STATED.format(parts="; ".join(verdict["missing"]).rstrip(". "))
    else:
        missing = verdict["reason"].rstrip(". ")
    observation = UNSUPPORTED.format(answer=answer, missing=missing)
    step.update(Step(kind="unsupported", observation=observation))
    emit(runtime, "step", step=dict(step))
    update = ended | {"steps": [step], "answer": answer}
    if counters.get("rejections", 0) > ctx.max_verifier_rejections:
        text = unverified_answer("", answer, verdict, state.get("evidence") or [])
        update |= {"status": "unverified", "stop_reason": "verifier_rejected", "answer": text}
    return update


def unchecked_update(
    state: AgentState,
    runtime: Runtime[Context],
    env: Environment,
    proposal: Proposal,
    answer: str,
    error: Exception,
    counters: dict[str, Any],
) -> dict[str, Any]:
    """The state update when the answer check itself raised `error`: the episode ends
    `unverified` (stop reason `verifier_error`) with the answer and the error said, rather
    than failing the run, which a resume would only repeat."""
    logging.getLogger(__name__).error("the answer check failed", exc_info=error)
    described = f"{type(error).__name__}: {error}"
    if len(described) > MAX_ERROR_CHARS:
        described = described[: MAX_ERROR_CHARS - 1] + "…"
    step = _finish_step(state, env, proposal, answer, [])
    step.update(Step(kind="finish", observation=NOT_CHECKED.format(error=described)))
    emit(runtime, "step", step=dict(step))
    return {
        "proposal": None,
        "counters": counters,
        "verdict": None,
        "steps": [step],
        "status": "unverified",
        "stop_reason": "verifier_error",
        "answer": answer,
    }


def _finish_step(
    state: AgentState, env: Environment, proposal: Proposal, answer: str, evidence_ids: list[str]
) -> Step:
    return Step(
        index=len(state.get("steps") or []) + 1,
        thought=proposal.get("thought", ""),
        action=env.finish_action,
        argument=answer,
        args={"answer": answer},
        action_text=proposal.get("action_text", ""),
        at=now_iso(),
        evidence_ids=evidence_ids,
    )
