"""The notebooks run offline from top to bottom, and are committed without outputs.

`NotebookClient.execute` raises `CellExecutionError` on the first cell that fails.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
KERNEL = "python3"
TIMEOUT_S = 120

EXPECTED = {
    "01_wikipedia_episode.ipynb": [
        "proposal Search[The Prestige (film)]",
        "verified 1970",
        "Observation 3:\n| Christopher Edward Nolan ( ; born 30 July 1970)",
        "[E6] Christopher Nolan #0: Christopher Edward Nolan",
        '"supported": true',
    ],
    "02_library_approval.ipynb": [
        '"allowed_decisions": [\n    "approve",\n    "edit",\n    "reject"',
        "reservations so far: []",
        "approve: reserve_copy[E17] -> Not reserved: copy E17 is checked out",
        ' reject: reserve_copy[E17] -> A human rejected reserve_copy[E17]',
        '   edit: reserve_copy[{"copy_id": "W22"}] -> Reserved: copy W22 is now ON HOLD',
        " 3 executed ",
    ],
    "03_checkpoint_history.ipynb": [
        "Action 2: Lookup[Christopher Nolan]",
        "edit      Edited: Action 2 := Lookup[Christopher Nolan]",
        "  verify    Action 4: Finish[1970] -> finish: Verified",
    ],
}


def _text(notebook: nbformat.NotebookNode) -> str:
    parts = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            parts.append(output.get("text") or output.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


def test_every_notebook_is_checked() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_committed_notebook_carries_no_outputs(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(c.outputs == [] and c.execution_count is None for c in code)
    assert notebook.metadata.kernelspec.name == KERNEL


def test_the_kernel_is_this_interpreter() -> None:
    command = KernelManager(kernel_name=KERNEL).format_kernel_cmd()
    assert Path(command[0]).resolve() == Path(sys.executable).resolve()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_notebook_runs_offline_and_shows_its_results(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(notebook, timeout=TIMEOUT_S, kernel_name=KERNEL,
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    text = _text(notebook)
    for expected in EXPECTED[name]:
        assert expected in text
