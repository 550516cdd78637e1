"""Starting an episode: the question checked, a new thread refused if it exists, its
settings put into the input (so the input checkpoint stores them before any node
runs), the thread registered, then the run on the thread layer
(`graph.episodes.runner`).
"""

from __future__ import annotations

import uuid
from typing import Any

from graph.episodes.runner import (
    Agent,
    EventHandler,
    db_label,
    driven,
    driving,
    env_of,
    episode_result,
    local_actor,
    settings_of,
    stream_run,
    thread_config,
    thread_exists,
)
from graph.errors import AgentError
from graph.settings.context import Context
from graph.store.locations import thread_exists_message
from graph.store.registry import registry_of


def run_episode(
    agent: Agent,
    question: str,
    ctx: Context,
    thread_id: str | None = None,
    on_event: EventHandler | None = None,
    *,
    owner: str | None = None,
    actor: str | None = None,
) -> dict[str, Any]:
    """Answer `question` in a new thread; returns `episode_result`.

    The settings go in with the question, so the input checkpoint stores them;
    a `thread_id` that already exists is refused (resume or fork it instead).
    """
    question = question.strip()
    if not question:
        raise AgentError("the question is empty")
    thread_id = thread_id or str(uuid.uuid4())
    env_name = env_of(agent)
    with driving(agent, thread_id, owner) as token:
        if thread_exists(agent, thread_id):
            url = getattr(agent.checkpointer, "url", None)
            raise AgentError(thread_exists_message(thread_id, db_label(agent), url))
        registry = registry_of(agent.checkpointer)
        if registry is not None:
            registry.register(thread_id, env_name, question)
        config = driven(thread_config(thread_id), token, actor or local_actor())
        value = {"question": question, "settings": settings_of(env_name, ctx)}
        stream_run(agent, value, config, ctx, on_event)
        result = episode_result(agent, thread_id)
        if registry is not None:
            registry.set_status(thread_id, result["status"])
    return result
