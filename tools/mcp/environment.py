"""Any MCP server as an environment: its tools are the actions, its answers the evidence.

Reads run at once; writes (every tool not annotated `readOnlyHint: true`, and every
tool `writes_by_policy` names) go through the graph's approval first. A write's
request is recorded in the ledger (`tools.mcp.ledger`) before it is sent and its
answer after: running the same write again (a resume after a kill) returns the
stored answer, or, when none came, re-sends a tool annotated `idempotentHint: true`
and stops every other for a human, since it may have run. The tool list is read
from the server once per environment object (so once per process and settings).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tools.base import (
    ActionSpec,
    ArgumentError,
    EnvironmentUnavailable,
    Evidence,
    EvidenceDraft,
    ExecContext,
    ToolOutcome,
    Verdict,
)
from tools.mcp.client import McpFailure, McpServer, ServerTarget
from tools.mcp.evidence import render_result
from tools.mcp.ledger import Ledger, default_ledger_path, utc_now
from tools.mcp.tools import FINISH, McpTool, action_specs, from_listing, parse_tool_args

Checker = Callable[[str, str, Sequence[Evidence]], Verdict]

UNKNOWN_READ = (
    "{call} got no answer from the MCP server {server}: {failure}. Its answer is UNKNOWN "
    "(not empty)."
)
UNKNOWN_IDEMPOTENT = (
    "{call} got no answer from the MCP server {server}: {failure}. Whether it ran is UNKNOWN; "
    "the tool is idempotent, so sending it again is safe."
)
UNKNOWN_WRITE = (
    "{call} was sent but {why}: the outcome of this call is unknown (it may have run). "
    "It is not sent again automatically; a human should check {server} before asking again."
)
RESENT = " (sent again: its earlier sending got no answer, and the tool is idempotent)"
NO_TOOL = "{name} is not a tool of the MCP server {server}"
UNAVAILABLE = "the MCP server {server} is not available: {failure}"
NO_SERVER = (
    "no MCP server is named: give --mcp a command (e.g. 'python examples/notes_server.py') "
    "or a streamable HTTP URL (e.g. http://127.0.0.1:8765/mcp)"
)


class McpEnvironment:
    """The `Environment` of one MCP server."""

    name = "mcp"
    finish_action = FINISH

    def __init__(
        self,
        target: ServerTarget,
        *,
        checker: Checker,
        timeout_s: float = 30.0,
        ledger_path: Path | str | None = None,
        writes_by_policy: frozenset[str] = frozenset(),
    ) -> None:
        self.server = McpServer(target, timeout_s)
        self.checker = checker
        self.writes_by_policy = writes_by_policy
        self._ledger_path = Path(ledger_path or default_ledger_path())
        self._ledger: Ledger | None = None
        self._tools: dict[str, McpTool] | None = None
        self._tools_lock = threading.Lock()  # held while the server lists its tools
        self._ledger_lock = threading.Lock()

    @property
    def label(self) -> str:
        """The server's short name."""
        return self.server.target.label

    def tools(self) -> Mapping[str, McpTool]:
        """The server's usable tools, listed on first use; `EnvironmentUnavailable` if it fails."""
        with self._tools_lock:
            if self._tools is None:
                if not self.server.target.spec.strip():
                    raise EnvironmentUnavailable(NO_SERVER)
                try:
                    listing = self.server.list_tools()
                except McpFailure as error:
                    raise EnvironmentUnavailable(
                        UNAVAILABLE.format(server=self.label, failure=error)
                    ) from None
                self._tools = from_listing(listing, self.writes_by_policy)
            return MappingProxyType(self._tools)

    def prepare(self, settings: Any) -> None:
        """Open the ledger and list the tools before an episode starts."""
        self.backend(settings)
        self.tools()

    def backend(self, settings: Any) -> Ledger:
        """The ledger holding the audit log and the writes."""
        with self._ledger_lock:
            if self._ledger is None:
                self._ledger = Ledger(self._ledger_path)
            return self._ledger

    def specs(self) -> Mapping[str, ActionSpec]:
        """One action per tool, and Finish."""
        return MappingProxyType(action_specs(self.tools()))

    def parse_args(self, action: str, argument: str) -> dict[str, Any]:
        """Finish's answer, or the tool's arguments checked against its schema."""
        if action == FINISH:
            return {"answer": argument.strip()}
        tool = self.tools().get(action)
        if tool is None:
            raise ArgumentError(NO_TOOL.format(name=action, server=self.label))
        return parse_tool_args(tool, argument)

    def execute(self, action: str, args: Mapping[str, Any], ctx: ExecContext) -> ToolOutcome:
        """Call the tool: a read at once, a write once (see the module's docstring)."""
        tool = self.tools()[action]
        source = {"server": self.label, "tool": action, "args": dict(args), "at": utc_now()}
        call = f"{action}{_shown(args)}"
        if tool.read_only:
            try:
                result = self.server.call_tool(action, args)
            except McpFailure as error:
                text = UNKNOWN_READ.format(call=call, server=self.label, failure=error)
                return ToolOutcome(text, failed=True)
            text, evidence = render_result(result, call, source)
            return ToolOutcome(text, evidence, failed=bool(result.is_error))
        return self._write(tool, args, ctx, source, call)

    def _write(
        self,
        tool: McpTool,
        args: Mapping[str, Any],
        ctx: ExecContext,
        source: dict[str, Any],
        call: str,
    ) -> ToolOutcome:
        ledger = self.backend(ctx.settings)
        key = ctx.idempotency_key
        earlier = ledger.begin_write(key, ctx.thread_id, self.label, tool.name, args, ctx.fence)
        note = ""
        if earlier is not None and earlier["state"] == "done":
            stored = earlier["outcome"] or {}
            evidence: list[EvidenceDraft] = list(stored.get("evidence", []))
            return ToolOutcome(stored.get("observation", ""), evidence, calls=0)
        if earlier is not None:
            if not tool.idempotent:
                why = "a process stopped before its answer was stored"
                return self._unknown(call, why)
            ledger.resend(key)
            note = RESENT
        try:
            result = self.server.call_tool(tool.name, args)
        except McpFailure as error:
            if tool.idempotent:
                text = UNKNOWN_IDEMPOTENT.format(call=call, server=self.label, failure=error)
                return ToolOutcome(text, failed=True)
            return self._unknown(call, f"got no answer ({error})")
        text, evidence = render_result(result, call, source)
        text += note
        ledger.finish_write(key, {"observation": text, "evidence": evidence})
        ledger.record_event(
            "executed",
            thread_id=ctx.thread_id,
            request_id=ctx.request_id,
            step_index=ctx.step_index,
            actor=ctx.actor,
            detail={"tool": tool.name, "args": dict(args), "error": bool(result.is_error)},
            idempotency_key=key,
            fence=ctx.fence,
        )
        return ToolOutcome(text, evidence, failed=bool(result.is_error))

    def _unknown(self, call: str, why: str) -> ToolOutcome:
        text = UNKNOWN_WRITE.format(call=call, why=why, server=self.label)
        return ToolOutcome(text, failed=True, stop_reason=text)

    def goal_unreachable(self, question: str, ctx: ExecContext) -> str | None:
        """No MCP goal has a deadline."""
        return None

    def situation(self, question: str, ctx: ExecContext) -> str:
        """Which server the tools come from."""
        return f"The tools are those of the MCP server {self.label}."

    def final_answer(
        self, question: str, answer: str, verdict: Verdict, evidence: Sequence[Evidence]
    ) -> str:
        """The answer as accepted."""
        return answer

    def record_audit(self, event: str, detail: Mapping[str, Any], ctx: ExecContext) -> None:
        """Append an approval event to the ledger's audit log."""
        self.backend(ctx.settings).record_event(
            event,
            thread_id=ctx.thread_id,
            request_id=ctx.request_id,
            step_index=ctx.step_index,
            actor=ctx.actor,
            detail=detail,
            idempotency_key=ctx.idempotency_key,
            fence=ctx.fence,
        )

    def check_answer(
        self, question: str, answer: str, evidence: Sequence[Evidence], ctx: ExecContext
    ) -> Verdict:
        """The verifier's verdict on the stored evidence."""
        return self.checker(question, answer, evidence)


def _shown(args: Mapping[str, Any]) -> str:
    return "[" + json.dumps(dict(args), ensure_ascii=False) + "]"
