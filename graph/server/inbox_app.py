"""The LangGraph server's `/inbox`: the requests waiting for a decision, as a web page
(`GET /inbox`) and as JSON (`GET /inbox/requests`), and decisions made there
(`POST /inbox/decide`), mounted as `http.app` in `langgraph.json`.

A decision goes through the same guarded path as any other: a server run resumes
the thread with it, bound to its request id, under the thread lease, and the
`review` node applies the policy (who may decide, which decisions, expiry) and
the audit log. The decider is the signed-in user when the server's custom
authentication is configured, else the name typed on the page: asserted, not
proven (see docs/approvals.md).

The SDK client and the episode modules are imported inside the handlers that use them:
at the top they would add about 0.8 s (LangGraph, the SDK) to importing this app (python
-X importtime).
"""

from __future__ import annotations

import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from graph.core.approval import parse_decision
from graph.errors import AgentError

PAGE = Path(__file__).with_name("inbox_page.html")
REFUSED = ("Refused decision: ", "Invalid decision: ")
NOT_PENDING = "request {request_id} is not pending on thread {thread_id}: {why}; nothing was run"
BAD_NAME = "give your name (letters, digits, '.', '-' and '_'): a policy may name who decides"


def _client() -> Any:
    from langgraph_sdk import get_client

    return get_client()  # the server itself, in process


async def _waiting(client: Any) -> list[tuple[str, dict[str, Any], list[Any]]]:
    """Every thread the server holds that waits for a decision: id, values, payloads."""
    found = []
    for thread in await client.threads.search(status="interrupted", limit=1000):
        state = await client.threads.get_state(thread["thread_id"])
        payloads = [item.get("value") for item in state.get("interrupts") or []]
        found.append((str(thread["thread_id"]), dict(state.get("values") or {}), payloads))
    return found


def _decide_hint(thread_id: str, request_id: str) -> str:
    return f"POST /inbox/decide {{thread_id: {thread_id}, request_id: {request_id}, ...}}"


async def requests(_: Request) -> Response:
    """`GET /inbox/requests`: `{"requests": [...]}`, each with its evidence."""
    from graph.episodes.inbox import entries_of

    try:
        entries = entries_of(await _waiting(_client()), _decide_hint)
    except AgentError as error:
        return JSONResponse({"error": str(error)}, status_code=400)
    return JSONResponse({"requests": entries})


async def page(_: Request) -> Response:
    """`GET /inbox`: the page, which reads `/inbox/requests` and posts decisions."""
    return HTMLResponse(PAGE.read_text(encoding="utf-8"))


def decider(request: Request, body: Mapping[str, Any]) -> str:
    """Who decides: the signed-in user, else the page's name field (one line, a name)."""
    user = request.scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False):
        return f"auth:{user.identity}"
    name = body.get("name")
    if not isinstance(name, str) or not name.strip() or any(c in name for c in ":@\n\r\t"):
        raise AgentError(BAD_NAME)
    return f"inbox:{name.strip()}@{socket.gethostname()}"


async def decide(request: Request) -> Response:
    """`POST /inbox/decide` `{thread_id, request_id, decision, name}`: 200 with the thread's
    status once a decision is taken; 409 for a request no longer pending, 403 for one the
    policy refuses, 400 for a malformed one; each with one line in `error`."""
    from graph.episodes.runner import make_context
    from graph.remote.episodes import run_config

    try:
        body = await request.json()
        if not isinstance(body, dict):
            raise AgentError("send a JSON object: {thread_id, request_id, decision, name}")
        actor = decider(request, body)
        thread_id, request_id = str(body.get("thread_id")), str(body.get("request_id"))
        parse_decision(body.get("decision"))
    except (AgentError, ValueError) as error:
        return JSONResponse({"error": str(error).splitlines()[0]}, status_code=400)
    client = _client()
    state = await client.threads.get_state(thread_id)
    pending = _pending_id(state)
    if pending != request_id:
        why = f"the pending request is {pending}" if pending else "nothing waits for a decision"
        message = NOT_PENDING.format(request_id=request_id, thread_id=thread_id, why=why)
        return JSONResponse({"error": message}, status_code=409)
    values = dict(state.get("values") or {})
    settings = dict(values.get("settings") or {})
    env_name = str(settings.get("env") or "library")
    value = _resume_value(body["decision"], request_id)
    config = run_config(make_context(env_name, settings), actor)
    try:
        await client.runs.wait(thread_id, env_name, command={"resume": value}, config=config)
    except Exception as error:  # the run failed: the server's one line says why
        return JSONResponse({"error": str(error).splitlines()[0]}, status_code=409)
    after = await client.threads.get_state(thread_id)
    refused = _refusal(after, request_id)
    if refused:
        status = 403 if refused.startswith(REFUSED[0]) else 400
        return JSONResponse({"error": refused}, status_code=status)
    status = (after.get("values") or {}).get("status", "")
    return JSONResponse({"thread_id": thread_id, "status": status, "decided_by": actor})


def _pending_id(state: Mapping[str, Any]) -> str:
    for item in state.get("interrupts") or []:
        value = item.get("value")
        if isinstance(value, Mapping):
            return str(value.get("request_id") or "")
    return ""


def _resume_value(decision: Any, request_id: str) -> Any:
    """The resume value: the decision bound to its request (an Agent Inbox list as is)."""
    if isinstance(decision, Mapping):
        return dict(decision) | {"request_id": request_id}
    return decision


def _refusal(state: Mapping[str, Any], request_id: str) -> str:
    """The reason the server gave for not taking a decision on `request_id` ('' if taken)."""
    for item in state.get("interrupts") or []:
        value = item.get("value")
        if isinstance(value, Mapping) and value.get("request_id") == request_id:
            error = str(value.get("error") or "")
            return error if error.startswith(REFUSED) else ""
    return ""


app = Starlette(
    routes=[
        Route("/inbox", page, methods=["GET"]),
        Route("/inbox/requests", requests, methods=["GET"]),
        Route("/inbox/decide", decide, methods=["POST"]),
    ]
)
