r"""The ReAct graph: reason -> (review) -> act -> observe -> reason ..., verify on Finish.

```
START -> reason -> act -------> observe -> reason
               \-> review -> act / observe
               \-> observe        (invalid or repeated action)
               \-> verify -> reason (rejected; grounded once) / END (verified, grounded, unverified)
               \-> END            (budget spent, goal unreachable, model error)
```

Nothing is compiled at import: the CLI and tests call `build_agent` with a
`SqliteSaver`; `graph.server.studio` compiles the graphs `langgraph.json` names and
hands them to the server through factories (the server brings its own
persistence).

The environments' modules and the verifier are imported inside the factories that build
them: `react-agent show`, `history` and `audit` import this module but build no
environment, and at the top they would add about 0.85 s (the verifier, the MCP client,
the library's SQLAlchemy) to `show`, which takes about 1.1 s (python -X importtime).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graph.core.nodes import AgentDeps, Nodes
from graph.core.state import AgentState, InputState
from graph.core.thread_guard import ThreadGuard
from graph.settings.context import CONTEXT_TYPES, Context, EnvName
from graph.settings.policy import policy_writes
from tools.base import Environment
from tools.wikipedia.sources import make_source

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

SUPERSTEPS_PER_TURN = 4  # reason, review, act, observe: the longest path of one model turn
RECURSION_MARGIN = 8


def recursion_limit(ctx: Context) -> int:
    """LangGraph's recursion limit for one run, derived from the budgets.

    Every model turn takes at most `SUPERSTEPS_PER_TURN` supersteps, and the
    `reason` after the last allowed turn only stops the episode, so any
    episode the budgets allow ends on a budget, never on this limit. The
    margin covers a review re-run on resume and the start.
    """
    return SUPERSTEPS_PER_TURN * (ctx.max_model_turns + 1) + RECURSION_MARGIN


def route_after_reason(
    state: AgentState,
) -> Literal["act", "review", "observe", "verify", "__end__"]:
    """Where the parsed proposal goes."""
    proposal = state.get("proposal")
    if state.get("status") != "running" or not proposal:
        return "__end__"
    if proposal.get("kind"):
        return "observe"
    if proposal.get("finish"):
        return "verify"
    return "review" if proposal.get("writes") else "act"


def route_after_review(state: AgentState) -> Literal["act", "observe"]:
    """Approved (or edited) actions run; rejected ones only become observations."""
    proposal = state.get("proposal") or {}
    return "observe" if proposal.get("kind") == "rejected" else "act"


def route_after_observe(state: AgentState) -> Literal["reason", "__end__"]:
    """Keep going unless the observation ended the episode."""
    return "reason" if state.get("status", "running") == "running" else "__end__"


def route_after_verify(state: AgentState) -> Literal["reason", "__end__"]:
    """A rejected or (once) a grounded answer goes back to the model, within its budget."""
    return "reason" if state.get("status") == "running" else "__end__"


def wikipedia_environment(ctx: Context) -> Environment:
    """The Wikipedia environment on the source the settings choose."""
    from graph.verifier import verify_answer
    from tools.wikipedia.environment import WikipediaEnvironment

    return WikipediaEnvironment(make_source(ctx), checker=verify_answer)


def library_environment(ctx: Context) -> Environment:
    """The campus-library environment on the settings' database."""
    from tools.library.environment import LibraryEnvironment

    return LibraryEnvironment(getattr(ctx, "library_db", "") or None)


def mcp_environment(ctx: Context) -> Environment:
    """The tools of the MCP server the settings name, checked by the verifier."""
    from graph.verifier import verify_answer
    from tools.mcp.client import ServerTarget
    from tools.mcp.environment import McpEnvironment

    target = ServerTarget(
        getattr(ctx, "mcp", ""), getattr(ctx, "mcp_headers", ""), getattr(ctx, "mcp_env", "")
    )
    return McpEnvironment(
        target,
        writes_by_policy=policy_writes(getattr(ctx, "policy", "")),
        checker=verify_answer,
        timeout_s=getattr(ctx, "mcp_timeout_s", 30.0),
        ledger_path=getattr(ctx, "mcp_db", "") or None,
    )


ENVIRONMENTS: dict[str, tuple[type[Context], Any, tuple[str, ...]]] = {
    "wikipedia": (
        CONTEXT_TYPES["wikipedia"],
        wikipedia_environment,
        ("source", "lang", "wiki_api_url", "user_agent", "live_timeout_s", "live_attempts"),
    ),
    "library": (CONTEXT_TYPES["library"], library_environment, ("library_db",)),
    "mcp": (
        CONTEXT_TYPES["mcp"],
        mcp_environment,
        ("mcp", "mcp_headers", "mcp_env", "mcp_db", "mcp_timeout_s", "policy"),
    ),
}


def build_graph(
    env_name: EnvName, deps: AgentDeps | None = None, nodes: Nodes | None = None
) -> StateGraph[AgentState, Context, InputState, AgentState]:
    """The uncompiled graph of one environment (`nodes` replaces its node functions)."""
    context_type, factory, keys = ENVIRONMENTS[env_name]
    nodes = nodes or Nodes(deps or AgentDeps(environment_factory=factory, environment_keys=keys))
    guard = ThreadGuard(env_name, context_type).wrap
    builder = StateGraph(AgentState, context_schema=context_type, input_schema=InputState)
    builder.add_node("reason", guard(nodes.reason))
    builder.add_node("review", guard(nodes.review))
    builder.add_node("act", guard(nodes.act))
    builder.add_node("observe", guard(nodes.observe))
    builder.add_node("verify", guard(nodes.verify))
    builder.add_edge(START, "reason")
    builder.add_conditional_edges("reason", route_after_reason)
    builder.add_conditional_edges("review", route_after_review)
    builder.add_edge("act", "observe")
    builder.add_conditional_edges("observe", route_after_observe)
    builder.add_conditional_edges("verify", route_after_verify)
    return builder


def build_agent(
    env_name: EnvName,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    model: BaseChatModel | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """A compiled agent; `model` overrides the model named in the run settings."""
    _, factory, keys = ENVIRONMENTS[env_name]
    deps = AgentDeps(environment_factory=factory, environment_keys=keys, model=model)
    return build_graph(env_name, deps).compile(checkpointer=checkpointer, name=f"{env_name}-agent")
