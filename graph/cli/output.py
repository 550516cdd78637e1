"""How the CLI prints episodes: live steps, the outcome, `show` and `threads`.

Everything that comes from outside the program (page text, catalogue
records, messages, model output, questions) goes through `graph.terminal`
first, so no control or escape sequence reaches the terminal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from graph import terminal
from graph.episodes.results import EXIT_CODES
from graph.store.locations import db_words, password_note, server_words

STATUS_LABELS = {
    "verified": "verified",
    "grounded": "grounded",
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
    "grounded_returns",
)
QUESTION_CHARS = 60


def print_event(event: Mapping[str, Any]) -> None:
    """One finished step as Thought / Action / Observation lines (other events are skipped)."""
    if event.get("event") != "step":
        return
    step = event["step"]
    index = step.get("index")
    if step.get("thought"):
        print(f"Thought {index}: {terminal.line(step['thought'])}")
    print(f"Action {index}: {terminal.line(step.get('action_text', ''))}")
    observation = terminal.block(step.get("observation", ""))
    for number, line in enumerate(observation.splitlines() or [""]):
        print(f"Observation {index}: {line}" if number == 0 else f"  {line}")
    if step.get("decision_note"):
        print(f"Decision {index}: {terminal.line(step['decision_note'])}")
    print(flush=True)


def resume_hint(
    thread_id: str, request_id: str = "", db: str | None = None, server: str | None = None
) -> str:
    """The command that answers a pending request (through the LangGraph `server`, if any),
    from any directory (`db_words`), shell-quoted and terminal-safe."""
    where, note = server_words(server) if server else (db_words(db), password_note(db))
    request = ["--request", request_id] if request_id else []
    words = terminal.command("react-agent", "resume", thread_id, *where, *request)
    return f"{words} --approve | --reject REASON | --edit ARGS{note}"


def _print_pending(result: Mapping[str, Any], db: str | None, server: str | None) -> None:
    request_id = ""
    for pending in result.get("pending", []):
        request_id = str(pending["value"].get("request_id") or "")
        label = f" (request {request_id})" if request_id else ""
        for request in pending["value"].get("action_requests", []):
            arguments = terminal.line(json.dumps(request["args"], ensure_ascii=False))
            print(f"Awaiting approval{label}: {terminal.line(request['name'])} {arguments}")
            print(f"  {terminal.line(request.get('description', ''))}")
    print(f"Resume with: {resume_hint(result['thread_id'], request_id, db, server)}")


def print_result(
    result: Mapping[str, Any], db: str | None = None, server: str | None = None
) -> None:
    """The outcome: the pending approval, or the answer with its evidence."""
    status = result["status"]
    if status == "awaiting_approval":
        _print_pending(result, db, server)
    elif status == "interrupted":
        place = server_words(server)[0] if server else db_words(db)
        resume = terminal.command("react-agent", "resume", result["thread_id"], *place)
        print(f"Interrupted: no process runs it now. Resume with: {resume}")
    else:
        answer = terminal.block(result["answer"])
        print(f"Answer ({STATUS_LABELS.get(status, status)}): {answer}")
        if status == "grounded":
            reason = (result.get("verdict") or {}).get("reason", "")
            print(f"Not tied to the question: {terminal.line(reason)}")
        elif status != "verified" and result.get("stop_reason"):
            print(f"Stopped: {terminal.line(result['stop_reason'])}")
        if result["evidence"]:
            print("Evidence:")
            for row in result["evidence"]:
                index = row["sentence_index"]
                where = terminal.line(row["title"]) + (f" #{index}" if index is not None else "")
                text = terminal.line(row["text"])
                print(f"  [{row['id']}] {where} (retrieved {row['retrieved_at']}): {text}")
    print(f"Thread: {result['thread_id']}")


def emit(
    result: Mapping[str, Any], as_json: bool, db: str | None = None, server: str | None = None
) -> int:
    """Print the outcome (text or one JSON object); returns its exit status."""
    if as_json:
        print(terminal.dumps(result, default=str))
    else:
        print_result(result, db, server)
    return EXIT_CODES.get(result["status"], 1)


def print_episode(
    result: Mapping[str, Any], db: str | None = None, server: str | None = None
) -> None:
    """`show`: the question, every step, the outcome and the counters."""
    print(f"Question: {terminal.line(result['question'])}")
    for step in result["trajectory"]:
        print_event({"event": "step", "step": step})
    print_result(result, db, server)
    print("Counters: " + ", ".join(f"{key}={result[key]}" for key in COUNTERS))


def print_threads(rows: Iterable[Mapping[str, Any]]) -> None:
    """`threads`: one line per episode (status from the thread registry)."""
    for row in rows:
        question = terminal.line(str(row["question"])[:QUESTION_CHARS])
        print(f"{row['thread_id']}  {row['status']:<17} {row['env']:<9} {question}")
