"""One model turn read as a proposal: an invalid or repeated action, a Finish, or an
action to run (with whether it writes). Pure: the `reason` node and `history`'s
edits of a pending action both use it.
"""

from __future__ import annotations

from graph.core.protocol import ParseFailure, parse_react_output
from graph.core.state import Proposal, Step
from graph.core.trajectory import REPEATED, action_text, find_repeat, repeat_key
from tools.base import ArgumentError, Environment, ExecContext


def propose(env: Environment, text: str, steps: list[Step], exec_ctx: ExecContext) -> Proposal:
    """Parse one model turn: an invalid or repeated action, a Finish, or an action to run."""
    specs = env.specs()
    parsed = parse_react_output(text, specs.keys())
    if isinstance(parsed, ParseFailure):
        shown = " ".join(text.split())[:80]
        return Proposal(
            thought=parsed.thought,
            kind="invalid",
            observation=parsed.message,
            action_text=shown or "(nothing)",
        )
    shown = action_text(parsed.name, parsed.argument)
    base = Proposal(
        thought=parsed.thought, action=parsed.name, argument=parsed.argument, action_text=shown
    )
    try:
        args = env.parse_args(parsed.name, parsed.argument)
    except ArgumentError as error:
        return base | Proposal(kind="invalid", observation=f"Invalid action: {error}")
    base["args"] = args
    if parsed.name == env.finish_action:
        return base | Proposal(finish=True)
    earlier = find_repeat(
        steps, repeat_key(parsed.name, args), exec_ctx.env_state, specs[parsed.name].reads_state
    )
    if earlier is not None:
        message = REPEATED.format(action=shown, step=earlier.get("index"))
        return base | Proposal(kind="repeat", observation=message)
    return base | Proposal(writes=specs[parsed.name].writes)
