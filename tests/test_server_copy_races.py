"""`threads.copy` against rollbacks on a real `langgraph dev` (SQLite and PostgreSQL
checkpoints): a copy holds every checkpoint and write of what it copies, whatever
happened to the runs that made them.

A copy keeps the metadata of the run that made each checkpoint (so a rollback of that
run leaves the copy alone), and the saver drops what a rolled-back run still puts. It
dropped a copy's checkpoints of such a run too: a copy of a copy made during a run
that was rolled back since lost that run's checkpoints, its writes landing on the
checkpoint before, a half-made thread.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cli_utils import run_cli
from test_server_cancel import Setup, serve
from test_server_rollback import (
    BACKENDS,
    FOLLOW_UP,
    answered_thread,
    copy_of,
    in_model_call,
    roll_back,
    stored_rows,
    stored_view,
    wait_lease_free,
)

pytestmark = pytest.mark.server


@pytest.fixture(scope="module", params=BACKENDS)
def setup(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Setup]:
    yield from serve(request, tmp_path_factory.mktemp(f"copy-races-{request.param}"))


def episode(view: dict[str, Any]) -> dict[str, Any]:
    """What a copy must hold as its original does: values, next nodes, interrupts, and
    each step of its history (checkpoint ids too: a copy keeps them)."""
    state = {key: view["state"][key] for key in ("values", "next", "interrupts")}
    return {"state": state, "history": view["history"], "registry": view["registry"]}


def test_a_copy_of_a_copy_keeps_the_checkpoints_of_a_run_rolled_back_since(
    setup: Setup,
) -> None:
    thread_id, context = answered_thread(setup, "copy-of-copy")
    run = setup.client.runs.create(
        thread_id, "library", input={"question": FOLLOW_UP}, context=context
    )
    run_id = str(run["run_id"])
    in_model_call(setup, thread_id, run_id)
    copy = copy_of(setup, thread_id)  # holds the run's first checkpoints
    copied = stored_view(setup, copy)
    replacing = roll_back(setup, thread_id, run_id, "multitask", context)
    assert "__error__" not in setup.client.runs.join(thread_id, replacing)
    wait_lease_free(setup, thread_id)

    second = copy_of(setup, copy)
    assert episode(stored_view(setup, second)) == episode(copied)
    assert stored_rows(setup, run_id)[1] == 0, "no write on a checkpoint that is not there"
    shown = run_cli("show", second, "--db", str(setup.server.db))
    assert shown.returncode == 0 and FOLLOW_UP in shown.stdout, shown.stderr
    follow_up = {"question": "西馆几点关门？"}
    ran = setup.client.runs.wait(second, "library", input=follow_up, context=context)
    assert "__error__" not in ran, ran
    assert stored_view(setup, second)["state"]["values"]["question"] == follow_up["question"]
