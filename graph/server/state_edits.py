"""What the server's API may put into a thread's state besides the graph's own nodes.

The nodes alone write the trajectory, the evidence, the counters, the
proposal and the settings, so that evidence is what the tools returned and a
verified answer rests on it. Through langgraph-api a client could write any
channel: `threads.update_state` and a run's `Command(update=...)`, and send
any node any state with `Command(goto=...)` (a `Send` to `act` ran a write no
human had approved). Those are refused here (`StateEditError`, passed on to
the client), except the one edit the CLI's `resume --server` makes,
restarting a failed episode (`status: "running"` and an empty `stop_reason`);
a run's input is a question with, at most, a mapping of plain settings.
Settings change through `react-agent resume --change-settings`, actions
through `--edit-state`, both recorded.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, get_args

from langchain_core.runnables import RunnableConfig
from langgraph.constants import CONFIG_KEY_CHECKPOINTER
from langgraph.errors import UnknownInterruptError
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command, StateUpdate

from graph.core.passwords import recorded
from graph.errors import AgentError, SettingsChangeError
from graph.settings.context import EnvName
from graph.settings.durability import durability_of
from graph.store.resume_guard import refused_keyed, strict_resume

RESTART = {"status": "running", "stop_reason": ""}
SCALARS = (str, int, float, bool, type(None))
REFUSED = (
    "{how} may not write {keys} into a thread's state: only the agent's nodes write "
    "the trajectory, evidence, counters and settings (change settings with "
    "`react-agent resume --change-settings`, the next action with `--edit-state`)"
)
BAD_SETTINGS = (
    "settings: {value!r:.80} is not an object of plain settings (text, numbers, true/false)"
)
OTHER_SETTINGS = (
    "thread {thread_id} has its own settings ({keys} differ): every run on it uses them;"
    " start a new thread, or change them with `react-agent resume --change-settings`"
    " (recorded)"
)
UNKNOWN_ENV = "settings: env {env!r:.80} is not an environment of this agent; use one of: {known}"
ENVIRONMENT_NAMES = get_args(EnvName)
NO_GOTO = (
    "Command(goto=...) may not choose the agent's next node: its own edges do, so that"
    " every write goes through review (answer an approval with Command(resume=...))"
)
BAD_INPUT = "a run's input is an object with a question and, at most, settings; got {value!r:.80}"


class StateEditError(AgentError):
    """An API client tried to write state that only the agent's nodes may write."""


def check_edit(values: Any, how: str) -> None:
    """Refuse an edit other than restarting a failed episode; None (no values) passes."""
    if values is None:
        return
    if isinstance(values, Mapping) and all(RESTART.get(key, ...) == values[key] for key in values):
        return
    keys = sorted(map(str, values)) if isinstance(values, Mapping) else [type(values).__name__]
    raise StateEditError(REFUSED.format(how=how, keys=", ".join(keys)))


def check_settings(settings: Any) -> None:
    """Refuse settings that are not a mapping of names to plain values, or that name an
    environment this project does not have."""
    if settings is None:
        return
    if not isinstance(settings, Mapping) or not all(
        isinstance(key, str) and isinstance(value, SCALARS) for key, value in settings.items()
    ):
        raise StateEditError(BAD_SETTINGS.format(value=settings))
    env = settings.get("env")
    if env is not None and env not in ENVIRONMENT_NAMES:
        raise StateEditError(UNKNOWN_ENV.format(env=env, known=", ".join(ENVIRONMENT_NAMES)))


def check_input(value: Any) -> None:
    """Check a run's input: a resume command without state writes or a chosen next node,
    or a question's input."""
    if value is None:
        return
    if isinstance(value, Command):
        if value.goto:
            raise StateEditError(NO_GOTO)
        check_edit(value.update, "Command(update=...)")
        return
    if not isinstance(value, Mapping):
        raise StateEditError(BAD_INPUT.format(value=value))
    unknown = set(value) - {"question", "settings"}
    if unknown:
        check_edit({key: value[key] for key in unknown}, "a run's input")
    check_settings(value.get("settings"))


def refuse_other_settings(
    given: Mapping[str, Any], stored: Mapping[str, Any] | None, config: RunnableConfig | None
) -> None:
    """Refuse a new input whose settings differ from those its thread stored."""
    if not stored or not config:
        return
    known = recorded(stored)
    differing = sorted(key for key, value in given.items() if known.get(key) != value)
    if differing:
        thread_id = (config.get("configurable") or {}).get("thread_id")
        raise SettingsChangeError(
            OTHER_SETTINGS.format(thread_id=thread_id, keys=", ".join(differing))
        )


class GuardedGraph(CompiledStateGraph[Any, Any, Any, Any]):
    """The server's compiled agent: its state is written by its nodes and checked input."""

    def bulk_update_state(
        self, config: RunnableConfig, supersteps: Sequence[Sequence[StateUpdate]]
    ) -> RunnableConfig:
        """`update_state`, refusing state writes (see the module)."""
        for step in supersteps:
            for update in step:
                check_edit(update.values, "update_state")
        return super().bulk_update_state(config, supersteps)

    async def abulk_update_state(
        self, config: RunnableConfig, supersteps: Sequence[Sequence[StateUpdate]]
    ) -> RunnableConfig:
        """`aupdate_state`, refusing state writes (see the module)."""
        for step in supersteps:
            for update in step:
                check_edit(update.values, "update_state")
        return await super().abulk_update_state(config, supersteps)

    async def astream(
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        """`astream` (which every streaming method runs), its input checked first, a
        resume naming no pending interrupt refused (`graph.store.resume_guard`), and the
        durability the thread's settings choose (`graph.settings.durability`), whatever the
        run asked."""
        check_input(input)
        stored = await self._stored_settings(config)
        if isinstance(input, Mapping) and input.get("settings"):
            input = dict(input) | {"settings": recorded(input["settings"])}  # no password
            refuse_other_settings(input["settings"], stored, config)
        if self._saver(config) is not None:
            settings = stored or (input.get("settings") if isinstance(input, Mapping) else None)
            kwargs.pop("checkpoint_during", None)
            env_name = str(self.name).removesuffix("-agent")
            kwargs["durability"] = durability_of(env_name, settings or kwargs.get("context"))
        config = strict_resume(config)
        try:
            async for chunk in super().astream(input, config, **kwargs):
                yield chunk
        except UnknownInterruptError as error:
            thread_id = str(config["configurable"].get("thread_id", ""))
            raise refused_keyed(error, thread_id) from None

    async def _stored_settings(self, config: RunnableConfig | None) -> Mapping[str, Any] | None:
        """The settings the run's thread stored, if any."""
        if not config or not (config.get("configurable") or {}).get("thread_id"):
            return None
        if self._saver(config) is None:
            return None
        state = await self.aget_state(config)
        stored = (state.values or {}).get("settings") if isinstance(state.values, dict) else None
        return stored if isinstance(stored, Mapping) and stored else None

    def _saver(self, config: RunnableConfig | None) -> Any:
        """The checkpointer a run uses (the server passes it in the config), or None."""
        configurable = (config or {}).get("configurable") or {}
        return configurable.get(CONFIG_KEY_CHECKPOINTER) or self.checkpointer

    def astream_events(self, input: Any, *args: Any, **kwargs: Any) -> Any:
        """`astream_events`, its input checked first."""
        check_input(input)
        return super().astream_events(input, *args, **kwargs)


def guarded(graph: CompiledStateGraph[Any, Any, Any, Any]) -> GuardedGraph:
    """`graph` as a `GuardedGraph` (the same object, its class narrowed)."""
    graph.__class__ = GuardedGraph
    assert isinstance(graph, GuardedGraph)
    return graph
