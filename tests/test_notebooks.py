"""The notebooks are committed with their outputs, and a fresh run reproduces them.

They run offline (scripted models, the fixed library clock), so their outputs
are stable except for volatile values, which are normalised before comparing:
UUIDs (thread and checkpoint ids), clock times of checkpoints, ISO times and
temporary paths. After a change that alters an output, regenerate them all:

    .venv/bin/jupyter nbconvert --to notebook --execute --inplace \
        --ExecutePreprocessor.record_timing=False notebooks/*.ipynb

`NotebookClient.execute` raises `CellExecutionError` on the first cell that fails.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

pytestmark = pytest.mark.slow

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
KERNEL = "python3"
TIMEOUT_S = 120
REGENERATE = (
    ".venv/bin/jupyter nbconvert --to notebook --execute --inplace "
    "--ExecutePreprocessor.record_timing=False notebooks/*.ipynb"
)
VOLATILE = [
    (re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"), "<uuid>"),
    (re.compile(r"\bR[0-9a-f]{12}\b"), "<request>"),
    (re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?"), "<time>"),
    (re.compile(r"\b\d\d:\d\d:\d\d\b"), "<time>"),
    (re.compile(r"/(?:tmp|var/folders)/\S*"), "<tmp>"),
]

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
        " reject: reserve_copy[E17] -> A human rejected reserve_copy[E17]",
        '   edit: reserve_copy[{"copy_id": "W22"}] -> Reserved: copy W22 is now ON HOLD',
        " 3 executed ",
    ],
    "03_checkpoint_history.ipynb": [
        "Action 2: Lookup[Christopher Nolan]",
        "edit      Edited: Action 2 := Lookup[Christopher Nolan]",
        "  verify    Action 4: Finish[1970] -> finish: Verified",
    ],
}


def _output_text(output: nbformat.NotebookNode) -> str:
    if output.output_type == "error":
        return f"{output.ename}: {output.evalue}"
    return str(output.get("text") or output.get("data", {}).get("text/plain", ""))


def outputs(notebook: nbformat.NotebookNode) -> list[list[tuple[str, str]]]:
    """Every code cell's outputs as (kind, text), volatile values normalised.

    Consecutive chunks of one stream are joined: how the kernel splits a cell's
    printing into chunks depends on timing, not on what it printed.
    """
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        shown: list[tuple[str, str]] = []
        for output in cell.outputs:
            kind = f"stream:{output.name}" if output.output_type == "stream" else output.output_type
            text = _output_text(output)
            if shown and kind.startswith("stream:") and shown[-1][0] == kind:
                shown[-1] = (kind, shown[-1][1] + text)
            else:
                shown.append((kind, text))
        cells.append([(kind, _normalised(text)) for kind, text in shown])
    return cells


def _normalised(text: str) -> str:
    for pattern, placeholder in VOLATILE:
        text = pattern.sub(placeholder, text)
    return text


def _text(notebook: nbformat.NotebookNode) -> str:
    return "\n".join(text for cell in outputs(notebook) for _, text in cell)


def test_every_notebook_is_checked() -> None:
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_committed_notebook_carries_its_outputs(name: str) -> None:
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code and all(cell.execution_count for cell in code), f"run: {REGENERATE}"
    assert notebook.metadata.kernelspec.name == KERNEL
    assert not any(kind == "error" for cell in outputs(notebook) for kind, _ in cell)
    text = _text(notebook)
    for expected in EXPECTED[name]:
        assert expected in text


def test_the_kernel_is_this_interpreter() -> None:
    command = KernelManager(kernel_name=KERNEL).format_kernel_cmd()
    assert Path(command[0]).resolve() == Path(sys.executable).resolve()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_fresh_run_reproduces_the_committed_outputs(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    stored = nbformat.read(NOTEBOOKS / name, as_version=4)
    fresh = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(
        fresh,
        timeout=TIMEOUT_S,
        kernel_name=KERNEL,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    assert outputs(fresh) == outputs(stored), f"outputs changed; if that is intended: {REGENERATE}"
