"""Rolling a server run back (`runs.cancel(action="rollback")`, `multitask_strategy=
"rollback"`): a real `langgraph dev` on SQLite and on PostgreSQL checkpoints, driven with
`langgraph-sdk`, with a scripted model slow enough to roll a run back inside a model call.

A run that did only reads leaves the thread exactly as before it (state, history, the CLI's
`show` and `history`, the thread registry), the lease free and the next run proceeding. A
run that got past an approved write is refused with one line, and the write stays recorded
once (one reservation, its audit rows unchanged).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from cli_utils import run_cli
from langgraph_sdk.errors import BadRequestError, NotFoundError
from server_utils import EDIT_TO_W22, LIBRARY_QUESTION, LIBRARY_SCRIPT, run_output, state_values
from test_server_cancel import BACKENDS, Setup, serve

from graph.store.leases import LEASE_TTL_S
from graph.store.registry import ThreadRegistry
from tools.library.db import audit_log, reservations

pytestmark = pytest.mark.server
HOW = ["cancel", "multitask"]
READ_ONLY_SCRIPT = [
    "Thought: Find the paper edition in the catalogue.\nAction: search_catalog[数据库入门图解]",
    "Thought: That will do.\nAction: Finish[西馆 W22，在 B-12 架。]",
]
FOLLOW_UP = "东馆那本呢？"
DELAY_S = 1.0
LONGER_FOLLOW_UP = [
    *READ_ONLY_SCRIPT,
    *READ_ONLY_SCRIPT[1:] * 2,
    *(f"Thought: Look again.\nAction: search_catalog[{q}]" for q in ("数据库", "入门", "图解")),
    READ_ONLY_SCRIPT[-1],
]


@pytest.fixture(scope="module", params=BACKENDS)
def setup(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Setup]:
    yield from serve(request, tmp_path_factory.mktemp(f"rollback-{request.param}"))


def context_of(setup: Setup, name: str, replies: list[str]) -> dict[str, Any]:
    """Library run settings: a model that sleeps `DELAY_S` per call, a library of its own."""
    script = setup.root / f"{name}.json"
    data = {"responses": replies, "delay_s": DELAY_S}
    script.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return {
        "model": f"scripted:{script}",
        "library_db": str(setup.root / f"{name}.sqlite3"),
        "max_seconds": 300,
    }


def in_model_call(setup: Setup, thread_id: str, run_id: str) -> None:
    """Wait until the run holds the thread, then a little more: its node is in the model."""
    deadline = time.monotonic() + 60
    while setup.holder(thread_id) != run_id and time.monotonic() < deadline:
        time.sleep(0.05)
    assert setup.holder(thread_id) == run_id, setup.server.log_tail()
    time.sleep(0.3)


def roll_back(setup: Setup, thread_id: str, run_id: str, how: str, context: dict[str, Any]) -> str:
    """Roll the run back; returns the id of the run that replaces it ("" for a cancel)."""
    if how == "cancel":
        setup.client.runs.cancel(thread_id, run_id, action="rollback")
        return ""
    run = setup.client.runs.create(
        thread_id, "library", input=None, context=context, multitask_strategy="rollback"
    )
    return str(run["run_id"])


def wait_lease_free(setup: Setup, thread_id: str) -> None:
    deadline = time.monotonic() + LEASE_TTL_S
    while setup.holder(thread_id) is not None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert setup.holder(thread_id) is None, "released, not left to expire"
    assert setup.another_process_can_take(thread_id)


def registry_status(setup: Setup, thread_id: str) -> str | None:
    if setup.backend == "sqlite":
        row = ThreadRegistry(setup.server.db).get(thread_id)
        return row.status if row else None
    with psycopg.connect(str(setup.server.db)) as conn:
        found = conn.execute(
            "SELECT status FROM threads WHERE thread_id = %s", (thread_id,)
        ).fetchone()
    return str(found[0]) if found else None


def stored_rows(setup: Setup, run_id: str) -> tuple[int, int]:
    """The run's noted writes left, and writes on checkpoints that are gone (any thread)."""
    noted = "SELECT count(*) FROM run_writes WHERE run_id = {mark}"
    writes = "checkpoint_writes" if setup.backend == "postgres" else "writes"
    orphans = (
        f"SELECT count(*) FROM {writes} w WHERE NOT EXISTS (SELECT 1 FROM checkpoints c"
        " WHERE c.thread_id = w.thread_id AND c.checkpoint_ns = w.checkpoint_ns"
        " AND c.checkpoint_id = w.checkpoint_id)"
    )
    if setup.backend == "sqlite":
        import sqlite3

        with sqlite3.connect(setup.server.db) as conn:
            left = conn.execute(noted.format(mark="?"), (run_id,)).fetchone()
            lost = conn.execute(orphans).fetchone()
    else:
        with psycopg.connect(str(setup.server.db)) as conn:
            left = conn.execute(noted.format(mark="%s"), (run_id,)).fetchone()
            lost = conn.execute(orphans).fetchone()
    return int((left or (0,))[0]), int((lost or (0,))[0])


def cli_views(setup: Setup, thread_id: str) -> tuple[str, str]:
    """`react-agent show` and `history --json` of the thread, on the server's own store."""
    shown = run_cli("show", thread_id, "--db", str(setup.server.db))
    history = run_cli("history", thread_id, "--db", str(setup.server.db), "--json")
    assert shown.returncode == 0 and history.returncode == 0, shown.stderr + history.stderr
    return shown.stdout, history.stdout


def stored_view(setup: Setup, thread_id: str) -> dict[str, Any]:
    """The thread's state, history and registry status (quick: no CLI)."""
    state = setup.client.threads.get_state(thread_id)
    history = setup.client.threads.get_history(thread_id, limit=200)
    return {
        "state": {k: state[k] for k in ("values", "next", "checkpoint", "interrupts")},
        "history": [(h["checkpoint"]["checkpoint_id"], h["values"], h["next"]) for h in history],
        "registry": registry_status(setup, thread_id),
    }


def snapshot(setup: Setup, thread_id: str) -> dict[str, Any]:
    """Everything a rollback must leave as it was."""
    return stored_view(setup, thread_id) | {"cli": cli_views(setup, thread_id)}


@pytest.mark.parametrize("how", HOW)
def test_a_rolled_back_run_leaves_the_thread_as_before_it(setup: Setup, how: str) -> None:
    context = context_of(setup, f"reads-{how}-{setup.backend}", READ_ONLY_SCRIPT)
    thread_id = setup.client.threads.create()["thread_id"]
    first = setup.client.runs.wait(
        thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
    )
    assert "__error__" not in first, first
    before = snapshot(setup, thread_id)
    assert before["registry"] == before["state"]["values"]["status"] != "running"

    run = setup.client.runs.create(
        thread_id, "library", input={"question": FOLLOW_UP}, context=context
    )
    run_id = str(run["run_id"])
    in_model_call(setup, thread_id, run_id)
    replacing = roll_back(setup, thread_id, run_id, how, context)
    if replacing:
        assert "__error__" not in setup.client.runs.join(thread_id, replacing)
    wait_lease_free(setup, thread_id)

    assert snapshot(setup, thread_id) == before
    assert stored_rows(setup, run_id) == (0, 0)
    with pytest.raises(NotFoundError):
        setup.client.runs.get(thread_id, run_id)

    again = run_output(
        setup.client.runs.wait(thread_id, "library", input={"question": FOLLOW_UP}, context=context)
    )
    assert "__error__" not in again, again
    assert again["question"] == FOLLOW_UP
    assert len(again["steps"]) > len(before["state"]["values"]["steps"])
    assert reservations(context["library_db"]) == []


@pytest.mark.parametrize("how", HOW)
def test_rolling_back_a_run_past_an_approved_write_is_refused(setup: Setup, how: str) -> None:
    context = context_of(setup, f"write-{how}-{setup.backend}", LIBRARY_SCRIPT)
    library_db = context["library_db"]
    thread_id = setup.client.threads.create()["thread_id"]
    setup.client.runs.wait(
        thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
    )
    (interrupt,) = setup.client.threads.get_state(thread_id)["interrupts"]
    decision = EDIT_TO_W22 | {"request_id": interrupt["value"]["request_id"]}
    run = setup.client.runs.create(
        thread_id, "library", command={"resume": decision}, context=context
    )
    deadline = time.monotonic() + 60
    while not reservations(library_db) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # the run is in its next model call, past the write
    events = [row["event"] for row in audit_log(library_db)]
    assert events == ["proposed", "decision", "executed"]

    with pytest.raises(BadRequestError) as refused:
        roll_back(setup, thread_id, str(run["run_id"]), how, context)
    message = str(refused.value)
    assert "cannot be rolled back" in message and "reserve_copy" in message, message
    assert "nothing was deleted" in message
    if how == "cancel":  # (the new run of "multitask" may hold the thread by now)
        wait_lease_free(setup, thread_id)

    steps = state_values(setup.client.threads.get_state(thread_id))["steps"]
    assert [step["index"] for step in steps][:3] == [1, 2, 3], "the write's step is kept"
    assert steps[2]["action"] == "reserve_copy"
    if how == "multitask":  # langgraph-api created the new run before asking for the rollback
        (replacing,) = [
            r for r in setup.client.runs.list(thread_id) if r["run_id"] != run["run_id"]
        ][:1]
        final = run_output(setup.client.runs.join(thread_id, replacing["run_id"]))
    else:
        final = run_output(
            setup.client.runs.wait(thread_id, "library", input=None, context=context)
        )
    assert "__error__" not in final, final
    assert final["status"] == "verified"
    assert [step["index"] for step in final["steps"]] == [1, 2, 3, 4, 5, 6]
    assert [row["copy_id"] for row in reservations(library_db)] == ["W22"]
    assert [row["event"] for row in audit_log(library_db)] == events
    wait_lease_free(setup, thread_id)


def copy_of(setup: Setup, thread_id: str) -> str:
    """Copy a thread (`threads.copy`); the copy's id (the SDK types it as returning None)."""
    threads: Any = setup.client.threads
    return str(threads.copy(thread_id)["thread_id"])


def answered_thread(setup: Setup, name: str) -> tuple[str, dict[str, Any]]:
    """A library thread with one episode ended (4 model turns), and the settings it ran
    with: its next question takes 3 searches more."""
    context = context_of(setup, f"{name}-{setup.backend}", LONGER_FOLLOW_UP)
    thread_id = setup.client.threads.create()["thread_id"]
    setup.client.runs.wait(
        thread_id, "library", input={"question": LIBRARY_QUESTION}, context=context
    )
    return thread_id, context


def test_rolling_back_a_run_leaves_a_copy_made_during_it_as_it_was(setup: Setup) -> None:
    thread_id, context = answered_thread(setup, "copied-mid-run")
    before = snapshot(setup, thread_id)
    run = setup.client.runs.create(
        thread_id, "library", input={"question": FOLLOW_UP}, context=context
    )
    run_id = str(run["run_id"])
    in_model_call(setup, thread_id, run_id)
    copy = copy_of(setup, thread_id)
    copied = stored_view(setup, copy)
    assert copied["state"]["values"]["question"] == FOLLOW_UP  # the run's first checkpoints
    assert setup.holder(thread_id) == run_id, "the run is still going"

    replacing = roll_back(setup, thread_id, run_id, "multitask", context)
    assert "__error__" not in setup.client.runs.join(thread_id, replacing)
    wait_lease_free(setup, thread_id)
    assert snapshot(setup, thread_id) == before
    assert stored_view(setup, copy) == copied, "the copy is a thread of its own"


def test_deleting_a_run_of_a_copied_thread_leaves_the_copy_even_continued(
    setup: Setup,
) -> None:
    thread_id, context = answered_thread(setup, "copied-after-run")
    before = snapshot(setup, thread_id)
    run = setup.client.runs.wait(
        thread_id, "library", input={"question": FOLLOW_UP}, context=context
    )
    assert "__error__" not in run, run
    (last,) = setup.client.runs.list(thread_id, limit=1)
    copy = copy_of(setup, thread_id)
    follow_up = {"question": "西馆几点关门？"}
    setup.client.runs.wait(copy, "library", input=follow_up, context=context)
    copied = snapshot(setup, copy)  # the copy built on the copied run's checkpoints

    setup.client.runs.delete(thread_id, last["run_id"])  # rolled back as well
    assert snapshot(setup, thread_id) == before
    assert snapshot(setup, copy) == copied
