"""An MCP episode through `langgraph dev`, driven with langgraph-sdk: the `mcp` graph
pauses on the notes server's write tool, and an approval runs it once."""

from __future__ import annotations

from pathlib import Path

import pytest
from langgraph_sdk import get_sync_client
from mcp_utils import ADD_QUESTION, ADD_SCRIPT, QUESTION, READ_SCRIPT, notes_rows, stdio_command
from server_utils import serving, state_values, write_script

from tools.mcp.ledger import Ledger

pytestmark = pytest.mark.server

APPROVE = {"decisions": [{"type": "approve"}]}


def test_the_mcp_graph_pauses_on_a_write_and_an_approval_runs_it_once(tmp_path: Path) -> None:
    notes, ledger = tmp_path / "notes.sqlite3", tmp_path / "ledger.sqlite3"
    with serving(tmp_path / "server") as running:
        client = get_sync_client(url=running.url, api_key=None)
        context = {
            "model": write_script(tmp_path / "add.json", ADD_SCRIPT),
            "mcp": stdio_command(notes),
            "mcp_db": str(ledger),
        }
        thread_id = client.threads.create()["thread_id"]
        client.runs.wait(thread_id, "mcp", input={"question": ADD_QUESTION}, context=context)
        (item,) = client.threads.get_state(thread_id)["interrupts"]
        assert isinstance(item["value"], dict)
        assert item["value"]["action_requests"][0]["name"] == "add_note"
        assert len(notes_rows(notes)) == 3
        client.runs.wait(
            thread_id,
            "mcp",
            command={"resume": APPROVE | {"request_id": item["value"]["request_id"]}},
            context=context,
        )
        values = state_values(client.threads.get_state(thread_id))
        assert values["steps"][0]["observation"] == "Added the note 'Standup' with id 4."
        assert values["steps"][0]["decision"] == {"type": "approve"}

        context["model"] = write_script(tmp_path / "read.json", READ_SCRIPT)
        reading = client.threads.create()["thread_id"]
        client.runs.wait(reading, "mcp", input={"question": QUESTION}, context=context)
        assert state_values(client.threads.get_state(reading))["status"] == "verified"
    assert notes_rows(notes)[-1] == (4, "Standup", "open")
    events = [row["event"] for row in Ledger(ledger).audit_events(thread_id)]
    assert events == ["proposed", "decision", "executed"]
