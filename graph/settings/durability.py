"""When a run saves its checkpoints: LangGraph's `durability`, chosen per environment.

- `sync`: a superstep's checkpoint and writes are saved before the next superstep
  starts. A process killed at any point resumes from its last finished superstep;
  no step is repeated.
- `async` (LangGraph's own default): the save of a superstep runs while the next
  one executes. A kill may land before the last save finished, and the resume
  then repeats that step (at most the last one): the model is asked once more,
  a Search or Lookup is answered again from the cache. Nothing is lost.
- `exit`: checkpoints are saved only when the run ends, pauses for approval or
  fails. A kill loses every step since the run started.

The `durability` setting (`auto` by default) chooses: `auto` is `async` for an
environment whose actions write nothing (Wikipedia) and `sync` for one with
write actions (the library), where a decision and a write must be saved before
anything that follows them. The CLI passes the choice to every run, `--server`
and `bench qa --server` pass it with each server run, and the server's graph
(`graph.server.state_edits`) applies the thread's own setting to every run, Studio's too.

The environments' action lists are imported inside `has_write_actions`: every CLI
command imports this module, and at the top they would add about 0.4 s (the library's
SQLAlchemy, the Wikipedia tools) to `react-agent --help`, which takes 0.2 s (python -X
importtime).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, Literal, cast

Durability = Literal["sync", "async", "exit"]
MODES: tuple[str, ...] = ("auto", "sync", "async", "exit")


@cache
def has_write_actions(env_name: str) -> bool:
    """Whether any action of the environment writes (needs a human's approval); an MCP
    server's tools are known only once it is asked, and any of them may write."""
    if env_name == "library":
        from tools.library.tools import SPECS
    elif env_name == "wikipedia":
        from tools.wikipedia.environment import SPECS
    else:
        return True
    return any(spec.writes for spec in SPECS.values())


def durability_for(env_name: str, setting: Any) -> Durability:
    """The durability of a run of `env_name` whose `durability` setting is `setting`
    (`auto`, or an unknown or missing value: chosen from the environment)."""
    if setting in ("sync", "async", "exit"):
        return cast(Durability, setting)
    return "sync" if has_write_actions(env_name) else "async"


def durability_of(env_name: str, ctx: Any) -> Durability:
    """The durability of a run with settings `ctx` (a `Context`, a mapping of settings or
    None)."""
    if isinstance(ctx, Mapping):
        return durability_for(env_name, ctx.get("durability"))
    return durability_for(env_name, getattr(ctx, "durability", None))
