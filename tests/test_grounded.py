"""Grounded answers: stated by the evidence but not tied to the question. They go back to the
model once; the same answer again ends the episode `grounded` (exit 6), in `--json`, `show`
and `threads`. Rejections keep their bounded retries. The verifier is stubbed here: its
own grounded verdicts are another branch's work."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

import graph.verifier
from graph.agent import ENVIRONMENTS, build_graph
from graph.cli import main
from graph.core.node_support import AgentDeps, is_test_model
from graph.episodes.runner import open_checkpointer
from graph.episodes.starting import run_episode
from graph.settings.context import WikipediaContext
from graph.testing import DEMO_QUESTION, DEMO_REPLIES, ScriptedReActModel, turn_index
from graph.verifier import verify_answer
from graph.verifier.verdicts import GROUNDING_JUDGED, GROUNDING_STATED, ground, reject
from tools.base import Evidence, Verdict, verdict_outcome
from tools.wikipedia.environment import WikipediaEnvironment
from tools.wikipedia.sources import make_source

UNTIED = "no stored sentence ties {answer!r} to what the question asks"
FINISH = "Thought: answer\nAction: Finish[{answer}]"
JUDGE_PROMPT_START = "You check one answer to one question"


def grounding_checker(question: str, answer: str, evidence: Sequence[Evidence]) -> Verdict:
    """Grounded when a stored sentence holds the answer, else rejected."""
    stated = answer.strip(" .").casefold()
    ids = [item["id"] for item in evidence if stated in item["text"].casefold()]
    if not ids:
        return reject(f"{answer!r} is not stated by any stored sentence", [repr(answer)])
    return ground(ids, UNTIED.format(answer=answer) + ".", [], GROUNDING_STATED)


def verifying(*answers: str) -> Any:
    """A checker that runs the real verifier on `answers` and grounds the others."""

    def check(question: str, answer: str, evidence: Sequence[Evidence]) -> Verdict:
        if answer in answers:
            return verify_answer(question, answer, evidence)
        return grounding_checker(question, answer, evidence)

    return check


def run(
    replies: list[str], db: Path, checker: Any = grounding_checker, **settings: Any
) -> dict[str, Any]:
    """One Wikipedia episode on the snapshot, with `checker` as its verifier."""
    deps = AgentDeps(
        environment_factory=lambda ctx: WikipediaEnvironment(make_source(ctx), checker=checker),
        model=ScriptedReActModel(responses=replies),
    )
    agent = build_graph("wikipedia", deps).compile(
        checkpointer=open_checkpointer(db), name="wikipedia-agent"
    )
    return run_episode(agent, DEMO_QUESTION, WikipediaContext(**settings))


def finishes(result: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for step in result["trajectory"] if step["action"] == "Finish"]


def test_a_grounded_answer_goes_back_once_and_the_same_answer_ends_grounded(
    db_path: Path,
) -> None:
    result = run(DEMO_REPLIES, db_path)  # the last reply, Finish[1970], repeats
    first, last = finishes(result)
    assert first["kind"] == "grounded" and "could not be tied" in first["observation"]
    assert UNTIED.format(answer="1970") in first["observation"]
    assert last["kind"] == "finish" and last["observation"].startswith("Grounded: ")
    assert result["status"] == "grounded" and result["stop_reason"] == "grounded"
    assert result["answer"] == "1970" and result["verdict"]["outcome"] == "grounded"
    assert result["evidence"] and "1970" in result["evidence"][0]["text"]
    assert result["grounded_returns"] == 1 and result["verifier_rejections"] == 0
    assert result["model_calls"] == len(DEMO_REPLIES) + 1


def test_the_same_answer_is_recognised_whatever_its_case_spacing_or_punctuation(
    db_path: Path,
) -> None:
    replies = [*DEMO_REPLIES, FINISH.format(answer=" 1970. ")]
    result = run(replies, db_path)
    assert result["status"] == "grounded" and result["grounded_returns"] == 1


def test_a_different_grounded_answer_goes_back_too_while_returns_are_left(
    db_path: Path, tmp_path: Path
) -> None:
    other = FINISH.format(answer="30 July 1970")
    result = run([*DEMO_REPLIES, other], db_path)
    assert [step["kind"] for step in finishes(result)] == ["grounded", "grounded", "finish"]
    assert result["answer"] == "30 July 1970" and result["status"] == "grounded"
    spent = run([*DEMO_REPLIES, other], tmp_path / "one.sqlite3", max_verifier_rejections=1)
    assert [step["kind"] for step in finishes(spent)] == ["grounded", "finish"]
    assert spent["answer"] == "30 July 1970" and spent["status"] == "grounded"


def test_after_a_grounded_reply_the_model_may_change_to_a_verified_answer(
    db_path: Path,
) -> None:
    replies = [*DEMO_REPLIES[:3], FINISH.format(answer="30 July 1970"), DEMO_REPLIES[3]]
    result = run(replies, db_path, checker=verifying("1970"))
    assert [step["kind"] for step in finishes(result)] == ["grounded", "finish"]
    assert result["status"] == "verified" and result["answer"] == "1970"


def test_a_rejected_answer_still_gets_bounded_retries(db_path: Path) -> None:
    replies = [DEMO_REPLIES[0], FINISH.format(answer="Zanzibar Quux")]
    result = run(replies, db_path, max_verifier_rejections=2)
    assert [step["kind"] for step in finishes(result)] == ["unsupported"] * 3
    assert result["status"] == "unverified" and result["stop_reason"] == "verifier_rejected"
    assert result["verifier_rejections"] == 3 and result["grounded_returns"] == 0


def test_record_mode_records_a_grounded_answer_as_grounded(db_path: Path) -> None:
    result = run(DEMO_REPLIES, db_path, verify_mode="record")
    assert [step["kind"] for step in finishes(result)] == ["finish"]
    assert result["status"] == "grounded" and result["stop_reason"] == "finished_grounded"


def test_a_verdict_stored_before_outcomes_existed_reads_as_before() -> None:
    assert verdict_outcome({"supported": True}) == "verified"
    assert verdict_outcome({"supported": False}) == "rejected"
    assert verdict_outcome({"supported": False, "outcome": "grounded"}) == "grounded"


def test_studio_sees_the_grounded_status() -> None:
    deps = AgentDeps(environment_factory=ENVIRONMENTS["wikipedia"][1])
    schema = json.dumps(build_graph("wikipedia", deps).compile().get_output_jsonschema())
    assert '"grounded"' in schema


@pytest.fixture
def grounding_verifier(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's Wikipedia environment with the grounding checker as its verifier."""
    monkeypatch.setattr(graph.verifier, "verify_answer", grounding_checker)


def _ask(db: Path, *flags: str) -> int:
    return main(
        ["ask", DEMO_QUESTION, "--model", "graph.testing:demo_model", "--db", str(db), *flags]
    )


@pytest.mark.usefixtures("grounding_verifier")
def test_the_cli_prints_a_grounded_answer_with_its_reason_and_exits_6(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ask(db_path) == 6
    out = capsys.readouterr().out
    assert "Answer (grounded): 1970" in out
    assert f"Not tied to the question: {UNTIED.format(answer='1970')}" in out
    assert "Evidence:\n  [E6] Christopher Nolan #0" in out


@pytest.mark.usefixtures("grounding_verifier")
def test_json_show_and_threads_report_the_grounded_status(
    db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _ask(db_path, "--json") == 6
    result = json.loads(capsys.readouterr().out)
    assert result["status"] == "grounded" and result["verdict"]["outcome"] == "grounded"
    assert result["grounded_returns"] == 1 and result["evidence"]
    thread_id = result["thread_id"]
    assert main(["show", thread_id, "--db", str(db_path)]) == 0
    shown = capsys.readouterr().out
    assert "Answer (grounded): 1970" in shown and "grounded_returns=1" in shown
    assert main(["show", thread_id, "--db", str(db_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "grounded"
    assert main(["threads", "--db", str(db_path), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(row["thread_id"], row["status"]) for row in rows] == [(thread_id, "grounded")]
    assert main(["threads", "--db", str(db_path)]) == 0
    assert f"{thread_id}  grounded " in capsys.readouterr().out


def test_the_help_documents_the_grounded_exit_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "6 grounded" in " ".join(capsys.readouterr().out.split())


class RealLikeModel(BaseChatModel):
    """A stand-in for a provider's chat model (not scripted, not a fake): ReAct replies by
    turn, and `verdict` to a judge's prompt."""

    replies: list[str]
    verdict: str = "VERDICT: SUPPORTED"
    judge_prompts: list[str] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "provider-chat"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        prompt = str(messages[-1].content)
        if prompt.startswith(JUDGE_PROMPT_START):
            self.judge_prompts.append(prompt)
            text = self.verdict
        else:
            text = self.replies[min(turn_index(messages), len(self.replies) - 1)]
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def run_real(
    db: Path, model: BaseChatModel, checker: Any = verify_answer, **settings: Any
) -> dict[str, Any]:
    deps = AgentDeps(
        environment_factory=lambda ctx: WikipediaEnvironment(make_source(ctx), checker=checker),
        model=model,
    )
    agent = build_graph("wikipedia", deps).compile(
        checkpointer=open_checkpointer(db), name="wikipedia-agent"
    )
    return run_episode(agent, DEMO_QUESTION, WikipediaContext(**settings))


def test_only_real_chat_models_count_as_judges_for_auto() -> None:
    assert is_test_model(ScriptedReActModel(responses=["x"]))
    assert is_test_model(GenericFakeChatModel(messages=iter([])))
    assert not is_test_model(RealLikeModel(replies=["x"]))


def test_auto_asks_a_real_model_to_confirm_a_stated_answer(db_path: Path) -> None:
    model = RealLikeModel(replies=DEMO_REPLIES)
    result = run_real(db_path, model)
    assert WikipediaContext().judge == "auto" and len(model.judge_prompts) == 1
    assert result["status"] == "verified" and result["verdict"]["grounding"] == GROUNDING_JUDGED
    assert result["model_calls"] == len(DEMO_REPLIES) + 1


def test_judge_off_and_scripted_models_ask_no_judge(db_path: Path, tmp_path: Path) -> None:
    model = RealLikeModel(replies=DEMO_REPLIES)
    off = run_real(db_path, model, judge="off")
    assert not model.judge_prompts and off["verdict"]["grounding"] == GROUNDING_STATED
    scripted = run_real(tmp_path / "s.sqlite3", ScriptedReActModel(responses=DEMO_REPLIES))
    assert scripted["model_calls"] == len(DEMO_REPLIES)
    assert scripted["verdict"]["grounding"] == GROUNDING_STATED


def test_an_agreeing_judge_verifies_a_grounded_answer(db_path: Path) -> None:
    model = RealLikeModel(replies=DEMO_REPLIES)
    result = run_real(db_path, model, checker=grounding_checker)
    assert [step["kind"] for step in finishes(result)] == ["finish"]
    assert result["status"] == "verified" and result["verdict"]["grounding"] == GROUNDING_JUDGED


@pytest.mark.parametrize("reply", ["VERDICT: NOT SUPPORTED", "Probably. VERDICT: SUPPORTED"])
def test_a_disagreeing_or_unreadable_judge_never_rejects(db_path: Path, reply: str) -> None:
    model = RealLikeModel(replies=DEMO_REPLIES, verdict=reply)
    result = run_real(db_path, model, checker=grounding_checker)
    assert result["status"] == "grounded" and result["verifier_rejections"] == 0
    assert [step["kind"] for step in finishes(result)] == ["grounded", "finish"]
