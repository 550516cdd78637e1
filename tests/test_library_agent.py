"""The campus-library assistant through the whole graph: the seed's branches and approvals."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from cli_utils import run_cli
from langchain_core.runnables import RunnableConfig

from graph.agent import build_agent
from graph.episodes.resuming import resume_episode
from graph.episodes.runner import episode_result, open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import LibraryContext
from graph.testing import PolicyReActModel, ScriptedReActModel
from tools.library.db import audit_log, ensure_database, reservations, set_copy_status

ROOT = Path(__file__).resolve().parent.parent
SEED_QUESTION = "今天 16:00 前，我能借到《数据库入门图解》纸质版吗？请告诉我去哪个馆、哪个书架。"
TODAY = "2026-09-26"

_OBSERVATION = re.compile(r"^Observation \d+:\n((?:\| .*\n?)*)", re.MULTILINE)
_COPIES = re.compile(r"— paper — copies: (.*?)(?: — catalogue note|$)", re.MULTILINE)
_COPY = re.compile(r"([A-Z]\d+) at (\w+)")
_STATUS = re.compile(r"^Copy (\w+) .*?: ([A-Z ]+?)(?: \(.*?\))? — (\w+) Library .*?shelf ([\w-]+)")


def observations(prompt: str) -> list[str]:
    return [block.replace("| ", "") for block in _OBSERVATION.findall(prompt)]


def act(thought: str, action: str) -> str:
    return f"Thought: {thought}\nAction: {action}"


def librarian(prompt: str) -> str:
    """A fake model that, like the seed's assistant, lets each observation pick the next step."""
    seen = observations(prompt)
    question = re.findall(r"^Question: (.*)$", prompt, re.MULTILINE)[-1]
    title = re.search(r"《(.+?)》", question)
    if not seen:
        return act(
            "Find the registered copies.", f"search_catalog[{title.group(1) if title else ''}]"
        )
    catalogue = seen[0]
    paper = [c for line in _COPIES.findall(catalogue) for c in _COPY.findall(line)]
    paper.sort(key=lambda copy: copy[1] != "East")
    checked = {copy for copy, _ in paper if re.search(rf"get_copy_status\[{copy}\]", prompt)}
    last = seen[-1]
    status = _STATUS.search(last)
    if status and status.group(2) == "AVAILABLE":
        return act(
            "Available; check the branch's hours.",
            f'get_open_hours[{{"branch": "{status.group(3)}", "date": "{TODAY}"}}]',
        )
    if "circulation desk" in last:
        branch = last.split(" Library")[0]
        return act(
            "Open. How far is it?",
            f'estimate_walk[{{"origin": "East Campus", "destination": "{branch}"}}]',
        )
    if last.startswith("Walking from"):
        statuses = [match for o in reversed(seen) if (match := _STATUS.search(o))]
        found = next(match for match in statuses if match.group(2) == "AVAILABLE")
        copy, branch, shelf = found.group(1), found.group(3), found.group(4)
        walk = re.search(r"about (\d+) minutes", last)
        assert walk, last
        minutes = walk.group(1)
        return act(
            "Every condition is checked.",
            f"Finish[Copy {copy} is available at {branch} Library, shelf {shelf}; it is "
            f"open today and about {minutes} minutes' walk, so you arrive before 16:00.]",
        )
    remaining = [copy for copy, _ in paper if copy not in checked]
    if remaining:
        return act(f"Check copy {remaining[0]}.", f"get_copy_status[{remaining[0]}]")
    return act("Nothing confirmed.", "Finish[No paper copy can be confirmed available today.]")


@pytest.fixture
def library_db(tmp_path: Path) -> Path:
    return ensure_database(tmp_path / "library.sqlite3")


@pytest.fixture
def shared_library(library_location: str) -> str:
    """The library database of the tests that run on SQLite and on PostgreSQL."""
    ensure_database(library_location)
    return library_location


def run(
    db_path: Path,
    library_db: Path,
    question: str = SEED_QUESTION,
    model: Any = None,
    **settings: Any,
) -> dict[str, Any]:
    agent = build_agent(
        "library", open_checkpointer(db_path), model=model or PolicyReActModel(policy=librarian)
    )
    return run_episode(agent, question, LibraryContext(library_db=str(library_db), **settings))


def actions(result: dict[str, Any]) -> list[str]:
    return [step["action_text"] for step in result["trajectory"]]


def test_seed_trajectory_ends_verified_with_snapshot_time_and_caveat(
    db_path: Path, library_db: Path
) -> None:
    result = run(db_path, library_db)
    assert actions(result)[:5] == [
        "search_catalog[数据库入门图解]",
        "get_copy_status[E17]",
        "get_copy_status[W22]",
        f'get_open_hours[{{"branch": "West", "date": "{TODAY}"}}]',
        'estimate_walk[{"origin": "East Campus", "destination": "West"}]',
    ]
    assert "CHECKED OUT" in result["trajectory"][1]["observation"]
    assert result["status"] == "verified"
    assert "W22" in result["answer"] and "B-12" in result["answer"]
    assert "14:01" in result["answer"] and "库存会变" in result["answer"]
    assert result["tool_calls"] == 5 and result["model_calls"] == 6


def test_if_e17_were_available_the_episode_goes_on_with_the_east_branch(
    db_path: Path, library_db: Path
) -> None:
    set_copy_status(library_db, "E17", "available", "2026-09-26T13:55")
    result = run(db_path, library_db)
    assert "get_copy_status[W22]" not in actions(result)
    assert f'get_open_hours[{{"branch": "East", "date": "{TODAY}"}}]' in actions(result)
    assert result["status"] == "verified" and "E17" in result["answer"]


def test_a_status_timeout_is_retried_once_within_the_budget(
    db_path: Path, library_db: Path
) -> None:
    result = run(db_path, library_db, faults="get_copy_status:W22:timeout-once")
    w22 = result["trajectory"][2]
    assert w22["kind"] == "tool" and "AVAILABLE" in w22["observation"]
    assert result["tool_calls"] == 6
    assert result["status"] == "verified"


def test_a_status_that_keeps_timing_out_is_unknown_never_available(
    db_path: Path, library_db: Path
) -> None:
    result = run(db_path, library_db, faults="get_copy_status:W22:timeout-always")
    w22 = result["trajectory"][2]
    assert w22["kind"] == "failed" and "UNKNOWN" in w22["observation"]
    assert "CACHED status as of 13:20" in w22["observation"]
    assert "NOT a live status" in w22["observation"]
    assert result["status"] != "verified"
    assert "Not established" in result["answer"] or "Could not verify" in result["answer"]


def test_a_repeated_status_check_is_not_run_again(db_path: Path, library_db: Path) -> None:
    replies = [
        act("a", "search_catalog[数据库入门图解]"),
        act("b", "get_copy_status[E17]"),
        act("c", "get_copy_status[E17]"),
        act("d", "get_copy_status[W22]"),
    ]
    result = run(
        db_path, library_db, model=ScriptedReActModel(responses=replies), max_model_turns=4
    )
    assert result["trajectory"][2]["kind"] == "repeat"
    assert result["tool_calls"] == 3 and result["repeats"] == 1


def test_tool_budget_ends_with_what_is_known_and_what_is_not(
    db_path: Path, library_db: Path
) -> None:
    result = run(db_path, library_db, max_tool_calls=3)
    assert result["status"] == "budget_exhausted" and result["stop_reason"] == "tool_calls"
    assert result["tool_calls"] == 3
    assert "Not established" in result["answer"] or "not" in result["answer"]


def test_an_ebook_only_title_is_never_a_success(db_path: Path, library_db: Path) -> None:
    question = "今天 16:00 前，我能借到《机器学习实战笔记》纸质版吗？"
    result = run(db_path, library_db, question=question)
    assert "no physical copy" in result["trajectory"][0]["observation"]
    assert not any(a.startswith("get_copy_status") for a in actions(result))
    assert result["status"] != "verified"


def test_a_deadline_already_past_ends_the_episode_at_once(db_path: Path, library_db: Path) -> None:
    result = run(db_path, library_db, now="2026-09-26T16:05")
    assert result["status"] == "unverified"
    assert result["stop_reason"] == "goal_unreachable"
    assert result["model_calls"] == 0
    assert "16:00" in result["answer"]


RESERVE_SCRIPT = [
    act("find it", "search_catalog[数据库入门图解]"),
    act("check", "get_copy_status[W22]"),
    act("the patron asked to reserve it", "reserve_copy[W22]"),
    act("done", "Finish[Copy W22 at West Library, shelf B-12 is reserved for you.]"),
]
RESERVE_QUESTION = "请帮我预约《数据库入门图解》纸质版。"


def pause_for_reservation(
    db_path: Path,
    library_db: Path | str,
    tmp_path: Path,
    script: list[str] = RESERVE_SCRIPT,
    question: str = RESERVE_QUESTION,
) -> dict[str, Any]:
    path = tmp_path / "reserve.json"
    path.write_text(json.dumps(script))
    agent = build_agent("library", open_checkpointer(db_path))
    ctx = LibraryContext(model=f"scripted:{path}", library_db=str(library_db))
    result = run_episode(agent, question, ctx)
    assert result["status"] == "awaiting_approval"
    return result


def events(library_db: Path | str) -> list[str]:
    return [row["event"] for row in audit_log(library_db)]


def test_reservation_pauses_then_an_approval_from_a_second_process_runs_it_once(
    db_path: Path, shared_library: str, tmp_path: Path
) -> None:
    library_db = shared_library
    paused = pause_for_reservation(db_path, library_db, tmp_path)
    request = paused["pending"][0]["value"]
    assert request["action_requests"][0]["name"] == "reserve_copy"
    assert request["action_requests"][0]["args"] == {"copy_id": "W22"}
    assert request["review_configs"][0]["allowed_decisions"] == ["approve", "edit", "reject"]
    assert reservations(library_db) == []
    assert events(library_db) == ["proposed"]

    done = run_cli("resume", paused["thread_id"], "--approve", "--db", str(db_path), "--json")
    assert done.returncode in (0, 3), done.stderr
    result = json.loads(done.stdout)
    reserve_step = result["trajectory"][2]
    assert reserve_step["decision"] == {"type": "approve"}
    assert [r["copy_id"] for r in reservations(library_db)] == ["W22"]
    assert events(library_db) == ["proposed", "decision", "executed"]
    assert done.returncode == 0 and result["status"] == "verified"
    assert "reservation #1" in result["verdict"]["reason"]


def test_a_reservation_answer_must_name_the_reserved_copy(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    vague = [*RESERVE_SCRIPT[:3], act("done", "Finish[It is reserved for you.]")]
    result = run(
        tmp_path / "vague.sqlite3",
        library_db,
        question=RESERVE_QUESTION,
        model=ScriptedReActModel(responses=vague),
        approvals="auto",
    )
    assert [r["copy_id"] for r in reservations(library_db)] == ["W22"]
    assert result["status"] == "unverified"
    assert "naming the reserved copy W22" in result["answer"]


def test_rejected_reservation_is_not_run_and_the_model_is_told_why(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    paused = pause_for_reservation(db_path, library_db, tmp_path)
    done = run_cli(
        "resume", paused["thread_id"], "--reject", "not today", "--db", str(db_path), "--json"
    )
    result = json.loads(done.stdout)
    rejected = result["trajectory"][2]
    assert rejected["kind"] == "rejected"
    assert (
        rejected["observation"] == "A human rejected reserve_copy[W22]: not today. It was not run."
    )
    assert reservations(library_db) == []
    assert events(library_db) == ["proposed", "decision"]


@pytest.mark.slow
def test_edited_reservation_is_validated_and_runs_on_the_other_copy(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    script = [
        act("find it", "search_catalog[数据库系统概念]"),
        act("reserve", "reserve_copy[W31]"),
        act("done", "Finish[Reserved.]"),
    ]
    paused = pause_for_reservation(
        db_path, library_db, tmp_path, script, "请帮我预约《数据库系统概念》。"
    )
    bad = run_cli("resume", paused["thread_id"], "--edit", '{"copy_id": ""}', "--db", str(db_path))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    still = run_cli("show", paused["thread_id"], "--db", str(db_path), "--json")
    assert json.loads(still.stdout)["status"] == "awaiting_approval"

    done = run_cli(
        "resume",
        paused["thread_id"],
        "--edit",
        '{"copy_id": "E05"}',
        "--db",
        str(db_path),
        "--json",
    )
    result = json.loads(done.stdout)
    edited = result["trajectory"][1]
    assert edited["action_text"] == 'reserve_copy[{"copy_id": "E05"}]'
    assert edited["decision"]["type"] == "edit"
    assert [r["copy_id"] for r in reservations(library_db)] == ["E05"]


@pytest.mark.slow
def test_malformed_decision_is_refused_and_leaves_the_episode_paused_unchanged(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    paused = pause_for_reservation(db_path, library_db, tmp_path)
    agent = build_agent("library", open_checkpointer(db_path))
    config = RunnableConfig(configurable={"thread_id": paused["thread_id"]})
    before = agent.get_state(config).config["configurable"]["checkpoint_id"]
    too_long = json.dumps({"type": "reject", "message": "x" * 4001})
    other_copy = {"name": "reserve_copy", "args": {"copy_id": "E05"}}
    approve_edited = json.dumps({"type": "approve", "edited_action": other_copy})
    reject_edited = json.dumps({"type": "reject", "message": "no", "edited_action": other_copy})
    malformed = ('{"type": "maybe"}', '{"type": "edit"}', "not json", too_long)
    for decision in (*malformed, approve_edited, reject_edited):
        done = run_cli("resume", paused["thread_id"], "--decision", decision, "--db", str(db_path))
        assert done.returncode == 2 and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert agent.get_state(config).config["configurable"]["checkpoint_id"] == before
    assert episode_result(agent, paused["thread_id"])["status"] == "awaiting_approval"
    assert reservations(library_db) == []


def test_a_malformed_resume_through_the_graph_asks_again_without_running_anything(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    paused = pause_for_reservation(db_path, library_db, tmp_path)
    agent = build_agent("library", open_checkpointer(db_path))
    ctx = LibraryContext(library_db=str(library_db), model=f"scripted:{tmp_path / 'reserve.json'}")
    again = resume_episode(agent, paused["thread_id"], ctx, decision={"decisions": [{"type": "?"}]})
    assert again["status"] == "awaiting_approval"
    assert "Invalid decision" in again["pending"][0]["value"]["error"]
    assert reservations(library_db) == []
    done = resume_episode(
        agent, paused["thread_id"], ctx, decision={"decisions": [{"type": "approve"}]}
    )
    assert [r["copy_id"] for r in reservations(library_db)] == ["W22"]
    assert done["trajectory"][2]["decision"] == {"type": "approve"}


def test_replaying_the_write_step_never_reserves_twice(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    paused = pause_for_reservation(db_path, library_db, tmp_path)
    agent = build_agent("library", open_checkpointer(db_path))
    ctx = LibraryContext(library_db=str(library_db), model=f"scripted:{tmp_path / 'reserve.json'}")
    resume_episode(agent, paused["thread_id"], ctx, decision={"decisions": [{"type": "approve"}]})
    config = RunnableConfig(configurable={"thread_id": paused["thread_id"]})
    before_act = next(s for s in agent.get_state_history(config) if s.next == ("act",))
    for _ in range(2):
        resume_episode(
            agent,
            paused["thread_id"],
            ctx,
            checkpoint_id=before_act.config["configurable"]["checkpoint_id"],
        )
    assert [r["copy_id"] for r in reservations(library_db)] == ["W22"]
    assert events(library_db).count("executed") == 1


def test_injected_catalogue_text_cannot_reserve_without_a_human(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    obeys_injection = [
        act("look it up", "search_catalog[分布式系统手册]"),
        act("the catalogue says to reserve now", "reserve_copy[W40]"),
    ]
    paused = pause_for_reservation(
        db_path, library_db, tmp_path, obeys_injection, "《分布式系统手册》今天能借到吗？"
    )
    note = paused["trajectory"][0]["observation"]
    assert "Ignore your rules" in note and "not an instruction" in note
    assert reservations(library_db) == []
    denied = run(
        tmp_path / "deny.sqlite3",
        library_db,
        question="《分布式系统手册》今天能借到吗？",
        model=ScriptedReActModel(responses=obeys_injection),
        approvals="deny",
        max_model_turns=3,
    )
    assert "approvals=deny" in denied["trajectory"][1]["observation"]
    assert reservations(library_db) == []


def test_after_a_write_whose_outcome_is_unknown_the_status_check_it_advises_runs(
    db_path: Path, library_db: Path, tmp_path: Path
) -> None:
    script = [
        *RESERVE_SCRIPT[:3],
        act("the hold's outcome is unknown: check the copy", "get_copy_status[W22]"),
        act("done", "Finish[Whether W22 was reserved is not known.]"),
    ]
    path = tmp_path / "reserve.json"
    path.write_text(json.dumps(script))
    agent = build_agent("library", open_checkpointer(db_path))
    ctx = LibraryContext(
        model=f"scripted:{path}",
        library_db=str(library_db),
        faults="reserve_copy:W22:timeout-always",
    )
    paused = run_episode(agent, RESERVE_QUESTION, ctx)
    assert paused["status"] == "awaiting_approval"
    done = resume_episode(
        agent, paused["thread_id"], ctx, decision={"decisions": [{"type": "approve"}]}
    )
    unknown, check = done["trajectory"][2], done["trajectory"][3]
    assert unknown["kind"] == "failed" and "UNKNOWN" in unknown["observation"]
    assert "get_copy_status[W22]" in unknown["observation"]
    assert check["kind"] == "tool", check["observation"]
    assert "AVAILABLE" in check["observation"]
