"""An MCP server's tools as the agent's actions: `name[JSON]`, checked against the schema.

A tool is a read when its annotations say `readOnlyHint: true` and no policy names
it as a write; every other tool is a write, which a human approves first. The hints
are the server's claims: `writes_by_policy` overrides them, never the other way.
The prompt shows each tool on one line: its name with its parameters and their
types (`*` marks optional ones), then the first sentence of its description.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from mcp_types import Tool

from tools.base import ActionSpec, ArgumentError

FINISH = "Finish"
ACTION_NAME = re.compile(r"[A-Za-z_]\w*")
MAX_DESCRIPTION = 160
NOT_JSON = "{name} takes a JSON object, e.g. {name}[{example}]: {problem}"
BAD_ARGS = "{name}[...] does not fit its schema: {problem}; it takes {params}"


@dataclass(frozen=True)
class McpTool:
    """One tool of the server as the agent uses it."""

    name: str
    description: str
    schema: dict[str, Any]
    read_only: bool
    idempotent: bool

    @property
    def properties(self) -> dict[str, Any]:
        """The schema's parameters, by name."""
        found = self.schema.get("properties")
        return found if isinstance(found, dict) else {}

    @property
    def lone_string(self) -> str | None:
        """The name of the tool's only parameter when it is a required string, else None."""
        props, required = self.properties, self.schema.get("required") or []
        if len(props) == 1:
            ((name, prop),) = props.items()
            if isinstance(prop, dict) and prop.get("type") == "string" and name in required:
                return name
        return None

    def params(self) -> str:
        """`{"title": string, "body": string, "tag"*: string}`, compactly."""
        required = set(self.schema.get("required") or [])
        parts = [
            f'"{name}"{"" if name in required else "*"}: {_type_of(prop)}'
            for name, prop in self.properties.items()
        ]
        return "{" + ", ".join(parts) + "}"

    def usage(self) -> str:
        """How the model writes the action."""
        lone = self.lone_string
        return f"{self.name}[{lone}]" if lone else f"{self.name}[{self.params()}]"


def _type_of(prop: Any) -> str:
    if not isinstance(prop, dict):
        return "any"
    if "enum" in prop:
        return "|".join(json.dumps(value) for value in prop["enum"])
    kind = prop.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind is None and isinstance(prop.get("anyOf"), list):
        return "|".join(_type_of(option) for option in prop["anyOf"])
    return str(kind or "any")


def from_listing(tools: Iterable[Tool], writes_by_policy: frozenset[str]) -> dict[str, McpTool]:
    """The usable tools of a listing, by name: names the action syntax can write only
    (`[A-Za-z_]\\w*`, not `Finish`), reads only if `readOnlyHint` is true and no policy
    names them as writes."""
    found: dict[str, McpTool] = {}
    for tool in tools:
        if not ACTION_NAME.fullmatch(tool.name) or tool.name.casefold() == FINISH.casefold():
            continue
        hints = tool.annotations
        read_only = bool(hints and hints.read_only_hint) and tool.name not in writes_by_policy
        first = " ".join((tool.description or tool.title or tool.name).split())
        first = first.split(". ")[0].rstrip(".")
        found[tool.name] = McpTool(
            name=tool.name,
            description=first[:MAX_DESCRIPTION],
            schema=dict(tool.input_schema or {"type": "object"}),
            read_only=read_only,
            idempotent=bool(hints and hints.idempotent_hint),
        )
    return found


def action_specs(tools: Mapping[str, McpTool]) -> dict[str, ActionSpec]:
    """One action per tool, and Finish."""
    specs = {
        tool.name: ActionSpec(
            tool.name,
            tool.usage(),
            tool.description + ("" if tool.read_only else " (writes: a human approves it first)"),
            writes=not tool.read_only,
        )
        for tool in tools.values()
    }
    specs[FINISH] = ActionSpec(FINISH, "Finish[answer]", "give the final short answer")
    return specs


def parse_tool_args(tool: McpTool, argument: str) -> dict[str, Any]:
    """The JSON object in `argument` (or a bare string for a lone string parameter),
    checked against the tool's input schema; `ArgumentError` names what it wants."""
    text = argument.strip()
    lone = tool.lone_string
    if lone and not text.startswith("{"):
        args: Any = {lone: text}
    else:
        try:
            args = json.loads(text)
        except json.JSONDecodeError as error:
            example = json.dumps({name: "..." for name in tool.properties})
            raise ArgumentError(
                NOT_JSON.format(name=tool.name, example=example, problem=error.msg)
            ) from None
    if not isinstance(args, dict):
        raise ArgumentError(
            BAD_ARGS.format(name=tool.name, problem="not an object", params=tool.params())
        )
    try:
        validator = Draft202012Validator(tool.schema)
        problems = sorted(validator.iter_errors(args), key=lambda e: list(e.absolute_path))
    except SchemaError as error:
        raise ArgumentError(
            f"{tool.name} has a schema that cannot be checked: {error.message}"
        ) from None
    if problems:
        where = "/".join(str(part) for part in problems[0].absolute_path)
        problem = f"{where}: {problems[0].message}" if where else problems[0].message
        raise ArgumentError(BAD_ARGS.format(name=tool.name, problem=problem, params=tool.params()))
    return args
