"""How the CLI prints episodes: live steps, the outcome, `show` and `threads`."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

STATUS_LABELS = {
    "verified": "verified",
    "unverified": "NOT verified",
    "budget_exhausted": "budget exhausted",
    "error": "error",
}
COUNTERS = (
    "steps",
    "model_calls",
    "tool_calls",
    "invalid_actions",
    "repeats",
    "verifier_rejections",
)


def print_event(event: Mapping[str, Any]) -> None:
    """One finished step as Thought / Action / Observation lines (other events are skipped)."""
    if event.get("event") != "step":
        return
    step = event["step"]
    index = step.get("index")
    if step.get("thought"):
        print(f"Thought {index}: {step['thought']}")
    print(f"Action {index}: {step.get('action_text', '')}")
    for number, line in enumerate(str(step.get("observation", "")).splitlines() or [""]):
        print(f"Observation {index}: {line}" if number == 0 else f"  {line}")
    print(flush=True)


def _print_pending(result: Mapping[str, Any]) -> None:
    for pending in result.get("pending", []):
        for request in pending["value"].get("action_requests", []):
            arguments = json.dumps(request["args"], ensure_ascii=False)
            print(f"Awaiting approval: {request['name']} {arguments}")
            print(f"  {request.get('description', '')}")
    thread = result["thread_id"]
    print(f"Resume with: react-agent resume {thread} --approve | --reject REASON | --edit ARGS")


def print_result(result: Mapping[str, Any]) -> None:
    """The outcome: the pending approval, or the answer with its evidence."""
    status = result["status"]
    if status == "awaiting_approval":
        _print_pending(result)
    else:
        print(f"Answer ({STATUS_LABELS.get(status, status)}): {result['answer']}")
        if status != "verified" and result.get("stop_reason"):
            print(f"Stopped: {result['stop_reason']}")
        if result["evidence"]:
            print("Evidence:")
            for row in result["evidence"]:
                index = row["sentence_index"]
                where = row["title"] + (f" #{index}" if index is not None else "")
                print(f"  [{row['id']}] {where} (retrieved {row['retrieved_at']}): {row['text']}")
    print(f"Thread: {result['thread_id']}")


def emit(result: Mapping[str, Any], as_json: bool) -> int:
    """Print the outcome (text or one JSON object); returns its exit status."""
    from graph.runner import EXIT_CODES

    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=None, default=str))
    else:
        print_result(result)
    return EXIT_CODES.get(result["status"], 1)


def print_episode(result: Mapping[str, Any]) -> None:
    """`show`: the question, every step, the outcome and the counters."""
    print(f"Question: {result['question']}")
    for step in result["trajectory"]:
        print_event({"event": "step", "step": step})
    print_result(result)
    print("Counters: " + ", ".join(f"{key}={result[key]}" for key in COUNTERS))


def print_threads(rows: Iterable[Mapping[str, Any]]) -> None:
    """`threads`: one line per episode."""
    for row in rows:
        question = row["question"][:60]
        print(f"{row['thread_id']}  {row['status']:<17} {row['steps']:>3} steps  {question}")
