"""Pure helpers over the state: prompts, evidence ids, repeats, budgets, summaries."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from graph.core.derived import PrefixCache
from graph.core.state import Step
from graph.prompts import render
from graph.settings.context import Context
from tools.base import Environment, Evidence, EvidenceDraft, Verdict

MAX_ACTION_TEXT = 200
QUOTE = "| "

BUDGET_MESSAGES = {
    "model_turns": "the model-turn budget ({limit}) is spent",
    "tool_calls": "the tool-call budget ({limit}) is spent",
    "wall_time": "the time budget ({limit:g} s) is spent",
    "repeated_actions": "the model repeated actions {limit} times without progress",
}
REPEATED = (
    "You already ran {action} at step {step} and nothing has changed since, so it was not run "
    "again: it would return the same result. Use what it returned, or try a different action."
)
COULD_NOT_VERIFY = "Could not verify an answer{why}."
PROPOSED = "Proposed, unverified: {answer}."
ESTABLISHED = "Established by stored evidence: {facts}."
NOT_ESTABLISHED = "Not established: {missing}."
KNOWN_CHARS = 160
_NOT_WORD = re.compile(r"[\W_]+")


def now_iso() -> str:
    """The current UTC time, to the second, for evidence and steps."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def quote(text: str) -> str:
    """Show untrusted tool output as quoted data: every line starts with `| `."""
    lines = text.splitlines() or [""]
    return "\n".join(QUOTE + line for line in lines)


def one_line(question: str) -> str:
    """The question on one line, so its text cannot stand for lines of the trajectory."""
    return " ".join(question.split())


def action_text(name: str, argument: str) -> str:
    """`Name[argument]`, shortened for display."""
    text = f"{name}[{argument}]"
    return text if len(text) <= MAX_ACTION_TEXT else text[: MAX_ACTION_TEXT - 3] + "..."


def render_step(step: Step) -> str:
    """One past turn as the model sees it (no Thought line when there was none)."""
    return render(
        "step.txt" if step.get("thought") else "step_act.txt",
        index=step.get("index", 0),
        thought=step.get("thought", ""),
        action=step.get("action_text", ""),
        observation=quote(step.get("observation", "")),
    )


def _examples_file(env_name: str, style: str) -> str:
    return f"{env_name}_examples.txt" if style == "react" else f"{env_name}_examples_{style}.txt"


@lru_cache(maxsize=64)
def _system_prompt(
    env_name: str,
    actions: tuple[tuple[str, str], ...],
    finish_action: str,
    settings: tuple[tuple[str, Any], ...],
    situation: str,
) -> str:
    rules = render(f"{env_name}_rules.txt", **dict(settings)).strip()
    if situation:
        rules = f"{rules}\n\n{situation.strip()}"
    style = dict(settings)["prompt_style"]
    return render(
        "system.txt",
        environment_rules=rules,
        action_list="\n".join(f"{usage}: {description}" for usage, description in actions),
        finish_action=finish_action,
        examples=render(_examples_file(env_name, style)).strip(),
    )


def build_messages(
    env: Environment, ctx: Context, question: str, steps: Sequence[Step], situation: str = ""
) -> list[BaseMessage]:
    """System prompt with rules, the run's situation and examples, then the trajectory.

    The question is put on its one `Question:` line: a line break in it would
    let its text pose as past Thoughts, Actions and Observations.

    The system prompt is rendered once per distinct settings and situation,
    and each past step once (see `graph.core.derived`).
    """
    actions = tuple((spec.usage, spec.description) for spec in env.specs().values())
    settings = tuple(vars(ctx).items())
    system = _system_prompt(env.name, actions, env.finish_action, settings, situation)
    trajectory = "".join(_RENDERED_STEPS.of(steps).values())
    return [
        SystemMessage(system),
        HumanMessage(render("turn.txt", question=one_line(question), trajectory=trajectory)),
    ]


def fingerprint(value: Any) -> str:
    """A short stable hash of JSON-able data."""
    data = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def repeat_key(action: str, args: Mapping[str, Any]) -> str:
    """Action name plus normalised arguments (case and spacing folded)."""
    normal = {
        key: " ".join(value.split()).casefold() if isinstance(value, str) else value
        for key, value in args.items()
    }
    return f"{action}:{fingerprint(normal)}"


def _tool_repeat_key(step: Step) -> str | None:
    """The repeat key of a step whose tool ran (only those can be repeated)."""
    return step.get("repeat_key") if step.get("kind") == "tool" else None


def evidence_key(item: Evidence | EvidenceDraft) -> str:
    """What makes two pieces of evidence the same: their source and their text."""
    return json.dumps([item["source"], item["text"]], sort_keys=True, default=str)


_RENDERED_STEPS: PrefixCache[Step, str] = PrefixCache(render_step, indexed=False)
_REPEAT_KEYS: PrefixCache[Step, str | None] = PrefixCache(_tool_repeat_key)
_EVIDENCE_KEYS: PrefixCache[Evidence, str] = PrefixCache(evidence_key)


def find_repeat(
    steps: Sequence[Step], key: str, env_state: Mapping[str, Any], reads_state: bool
) -> Step | None:
    """The earlier step this action would merely repeat, if any.

    Same action, same normalised arguments, a run that did not fail, and
    nothing to gain: the state is what it was before that run (same input,
    same result), or, for an action whose result ignores the state, what that
    run left (same result, no change).
    """
    current = fingerprint(dict(env_state))
    for position in reversed(_REPEAT_KEYS.of(steps).positions(key)):
        step = steps[position]
        if step.get("state_before") == current:
            return step
        if not reads_state and step.get("state_after") == current:
            return step
    return None


BUDGET_COUNTERS = {
    "model_turns": "model_calls",
    "wall_time": "elapsed_s",
    "repeated_actions": "repeats",
    "tool_calls": "tool_calls",
}


def budget_limits(ctx: Context) -> dict[str, float]:
    """Each budget's limit, by stop reason."""
    return {
        "model_turns": ctx.max_model_turns,
        "wall_time": ctx.max_seconds,
        "repeated_actions": ctx.max_repeats + 1,
        "tool_calls": ctx.max_tool_calls,
    }


def budget_exceeded(counters: Mapping[str, Any], ctx: Context) -> str | None:
    """The stop reason of the first spent budget, if any.

    The tool-call budget is not among them: with no tool call left the model
    may still answer, and only a proposed tool call ends the episode.
    """
    for reason, limit in budget_limits(ctx).items():
        if reason != "tool_calls" and counters.get(BUDGET_COUNTERS[reason], 0) >= limit:
            return reason
    return None


def budget_message(reason: str, ctx: Context) -> str:
    """Words for a budget stop reason."""
    return BUDGET_MESSAGES[reason].format(limit=budget_limits(ctx)[reason])


def add_evidence(
    stored: Sequence[Evidence], drafts: Sequence[EvidenceDraft]
) -> tuple[list[Evidence], list[str]]:
    """New evidence items (each stored once) and the ids of all of `drafts`."""
    stored_keys = _EVIDENCE_KEYS.of(stored)
    known: dict[str, str] = {}
    new: list[Evidence] = []
    ids: list[str] = []
    for draft in drafts:
        key = evidence_key(draft)
        if key not in known:
            positions = stored_keys.positions(key)
            if positions:
                known[key] = stored[positions[-1]]["id"]
        if key not in known:
            item = Evidence(
                id=f"E{len(stored) + len(new) + 1}",
                text=draft["text"],
                tool=draft["tool"],
                source=dict(draft["source"]),
                facts=dict(draft.get("facts") or {}),
                retrieved_at=now_iso(),
            )
            new.append(item)
            known[key] = item["id"]
        if known[key] not in ids:
            ids.append(known[key])
    return new, ids


def answer_key(answer: str) -> str:
    """An answer with case, punctuation and spacing folded away, to compare answers."""
    return " ".join(_NOT_WORD.sub(" ", answer.casefold()).split())


def same_answer(answer: str, others: Sequence[str]) -> bool:
    """Whether `answer` is one of `others`, compared by `answer_key`."""
    key = answer_key(answer)
    return any(answer_key(other) == key for other in others)


def returned_grounded(steps: Sequence[Step]) -> list[str]:
    """The grounded answers already sent back to the model once."""
    return [step.get("argument", "") for step in steps if step.get("kind") == "grounded"]


def unverified_answer(
    why: str, proposed: str, verdict: Verdict, evidence: Sequence[Evidence]
) -> str:
    """The honest final text of an episode that did not verify: what was proposed,
    what the stored evidence does establish, and what it does not."""
    parts = [COULD_NOT_VERIFY.format(why=f": {why}" if why else "")]
    if proposed:
        parts.append(PROPOSED.format(answer=proposed.rstrip(" .")))
    by_id = {item["id"]: item for item in evidence}
    known = [by_id[i]["text"] for i in verdict["evidence_ids"] if i in by_id]
    if known:
        shown = [
            text if len(text) <= KNOWN_CHARS else text[: KNOWN_CHARS - 3] + "..." for text in known
        ]
        parts.append(ESTABLISHED.format(facts=" | ".join(shown)))
    missing = "; ".join(verdict["missing"]) or verdict["reason"]
    if missing:
        parts.append(NOT_ESTABLISHED.format(missing=missing.rstrip(". ")))
    return " ".join(parts)
