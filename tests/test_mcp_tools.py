"""MCP tools as actions (schemas, read or write), their answers as evidence, and the
server target's secrets read from the environment."""

from __future__ import annotations

from typing import Any

import pytest
from mcp_types import CallToolResult, TextContent, Tool, ToolAnnotations

from graph.settings.context import McpContext
from graph.settings.validation import SettingsError, validate_settings
from tools.base import ArgumentError
from tools.mcp.client import McpFailure, ServerTarget
from tools.mcp.evidence import render_result, structured_lines
from tools.mcp.tools import action_specs, from_listing, parse_tool_args

NOTE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "tags": {"type": "array"}},
    "required": ["title"],
}


def tool(name: str, schema: dict[str, Any], **hints: Any) -> Tool:
    annotations = ToolAnnotations(**hints) if hints else None
    return Tool(name=name, description=f"{name} things. More.", input_schema=schema,
                annotations=annotations)  # fmt: skip


def listing(writes: frozenset[str] = frozenset()) -> dict[str, Any]:
    search = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    return from_listing(
        [
            tool("search", search, read_only_hint=True),
            tool("add", NOTE_SCHEMA, read_only_hint=False, idempotent_hint=True),
            tool("delete_all", {"type": "object"}),
            tool("odd-name", search, read_only_hint=True),
            tool("finish", search, read_only_hint=True),
        ],
        writes,
    )


def test_reads_are_only_the_tools_whose_hints_say_so_and_no_policy_overrides() -> None:
    tools = listing()
    assert sorted(tools) == ["add", "delete_all", "search"]
    assert tools["search"].read_only and not tools["add"].read_only
    assert not tools["delete_all"].read_only  # no annotations: a write
    assert tools["add"].idempotent
    assert not listing(frozenset({"search"}))["search"].read_only
    specs = action_specs(tools)
    assert specs["search"].usage == "search[q]" and not specs["search"].writes
    assert specs["add"].usage == 'add[{"title": string, "tags"*: array}]'
    assert specs["add"].description == "add things (writes: a human approves it first)"
    assert specs["add"].writes and "Finish" in specs


def test_arguments_are_a_json_object_checked_against_the_schema() -> None:
    tools = listing()
    assert parse_tool_args(tools["search"], "release notes") == {"q": "release notes"}
    assert parse_tool_args(tools["search"], '{"q": "x"}') == {"q": "x"}
    assert parse_tool_args(tools["add"], '{"title": "T", "tags": []}') == {
        "title": "T",
        "tags": [],
    }
    with pytest.raises(ArgumentError) as missing:
        parse_tool_args(tools["add"], '{"tags": []}')
    assert str(missing.value) == (
        "add[...] does not fit its schema: 'title' is a required property; "
        'it takes {"title": string, "tags"*: array}'
    )
    with pytest.raises(ArgumentError) as not_json:
        parse_tool_args(tools["add"], "a title")
    assert str(not_json.value).startswith('add takes a JSON object, e.g. add[{"title": "...", ')
    with pytest.raises(ArgumentError, match="not an object"):
        parse_tool_args(tools["add"], "[1]")


def test_structured_content_is_key_value_lines_and_prose_its_sentences() -> None:
    value = {"id": 3, "owner": {"name": "Ana"}, "body": "It ships on Monday. Ana owns it."}
    assert structured_lines(value) == [
        "id: 3",
        "owner.name: Ana",
        "It ships on Monday.",
        "Ana owns it.",
    ]


def test_a_tool_error_is_an_observation_without_evidence() -> None:
    result = CallToolResult(content=[TextContent(text="there is no note 9")], is_error=True)
    text, evidence = render_result(result, "get[9]", {"tool": "get"})
    assert (text, evidence) == ("get[9] reported an error: there is no note 9", [])


def test_a_json_text_block_repeating_the_structured_content_is_stored_once() -> None:
    result = CallToolResult(
        content=[TextContent(text='{"id": 1}'), TextContent(text="One. Two.")],
        structured_content={"id": 1},
    )
    text, evidence = render_result(result, "get[1]", {"tool": "get", "server": "s"})
    assert text == "One.\nTwo.\nid: 1"
    assert [e["source"]["sentence_index"] for e in evidence] == [0, 1, 2]


def test_headers_and_server_variables_come_from_the_environment_never_the_settings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    target = ServerTarget("http://127.0.0.1:1/mcp", "Authorization=MCP_TOKEN", "NOTES_DB")
    monkeypatch.setenv("MCP_TOKEN", "Bearer s3cret")
    monkeypatch.setenv("NOTES_DB", "/tmp/n.sqlite3")
    assert target.header_values() == {"Authorization": "Bearer s3cret"}
    assert target.env_values() == {"NOTES_DB": "/tmp/n.sqlite3"}
    monkeypatch.delenv("MCP_TOKEN")
    with pytest.raises(McpFailure) as missing:
        target.header_values()
    assert str(missing.value) == "--mcp-headers: the environment variable MCP_TOKEN is not set"
    with pytest.raises(SettingsError, match=r"^--mcp-headers: "):
        validate_settings(McpContext(mcp="http://127.0.0.1:1/mcp", mcp_headers="Bearer abc"))
