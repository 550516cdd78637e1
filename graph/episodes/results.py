"""An episode's result as one JSON-able object, built from its state values and pending
interrupts alone: what `ask`, `resume` and `show` print whoever ran the episode
(this process or a LangGraph server), and the exit code its status maps to.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

EXIT_CODES = {
    "verified": 0,
    "error": 1,
    "unverified": 3,
    "budget_exhausted": 4,
    "awaiting_approval": 5,
    "grounded": 6,
}
ANSWERED = frozenset({"verified", "grounded"})  # statuses whose evidence is the verdict's


def _source_label(source: Mapping[str, Any]) -> str:
    """`tool(key=value, ...)` for sources that are not a page title."""
    details = ", ".join(f"{k}={v}" for k, v in source.items() if k not in ("tool", "live"))
    return f"{source.get('tool', 'source')}({details})"


def evidence_rows(values: Mapping[str, Any], ids: list[str] | None = None) -> list[dict[str, Any]]:
    """Evidence as output rows (all of it, or the ids given, in that order)."""
    evidence = {item["id"]: item for item in values.get("evidence") or []}
    chosen = ids if ids is not None else list(evidence)
    rows = []
    for evidence_id in chosen:
        item = evidence.get(evidence_id)
        if item is None:
            continue
        source = item.get("source", {})
        rows.append(
            {
                "id": item["id"],
                "title": source.get("title") or _source_label(source),
                "sentence_index": source.get("sentence_index"),
                "source": source,
                "text": item["text"],
                "retrieved_at": item.get("retrieved_at"),
            }
        )
    return rows


def outcome_of(
    thread_id: str, values: Mapping[str, Any], pending: list[dict[str, Any]], question: str
) -> dict[str, Any]:
    """An episode's outcome from its state `values` and `pending` interrupts (`id`,
    `value`): what `ask`, `resume` and `show` print, whoever ran the episode."""
    counters = values.get("counters") or {}
    status = "awaiting_approval" if pending else values.get("status", "running")
    verdict = values.get("verdict") or {}
    supporting = list(verdict.get("evidence_ids") or []) if status in ANSWERED else None
    result: dict[str, Any] = {
        "thread_id": thread_id,
        "question": values.get("question") or question,
        "status": status,
        "answer": values.get("answer", "") if status != "awaiting_approval" else "",
        "evidence": evidence_rows(values, supporting),
        "verdict": verdict or None,
        "stop_reason": values.get("stop_reason", "") if status != "awaiting_approval" else "",
        "steps": len(values.get("steps") or []),
        "model_calls": counters.get("model_calls", 0),
        "tool_calls": counters.get("tool_calls", 0),
        "invalid_actions": counters.get("invalid_actions", 0),
        "repeats": counters.get("repeats", 0),
        "verifier_rejections": counters.get("rejections", 0),
        "grounded_returns": counters.get("grounded_returns", 0),
        "tokens": {
            "input": counters.get("input_tokens", 0),
            "output": counters.get("output_tokens", 0),
        },
        "wikipedia": {
            "requests": counters.get("http_requests", 0),
            "cache_hits": counters.get("cache_hits", 0),
        },
        "elapsed_s": round(counters.get("elapsed_s", 0.0), 4),
        "trajectory": list(values.get("steps") or []),
    }
    if pending:
        result["pending"] = pending
    return result
