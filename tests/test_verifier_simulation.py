"""The verifier simulation: scripted policies through the real graph, verifier on and off."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graph.evaluation.config import BenchError
from graph.evaluation.hotpot import load_questions
from graph.evaluation.simulation import (
    Plan,
    SimulationSettings,
    by_first_kind,
    choose,
    figures,
    plans,
    run_simulation,
)
from graph.evaluation.verifier_bench import main

PLAN = Plan(qid="q", titles=("A",), gold="Gold", negatives=("Wrong", "Other"))


def test_a_policy_answers_gold_with_probability_p_and_keeps_or_switches() -> None:
    cfg = SimulationSettings(keep=1.0)
    assert choose(PLAN, [], 1.0, cfg) == "Gold"
    assert choose(PLAN, [], 0.0, cfg) in PLAN.negatives
    assert choose(PLAN, ["Wrong"], 0.0, cfg) == "Wrong"
    switch = SimulationSettings(keep=0.0, p_switch=1.0)
    assert choose(PLAN, ["Wrong"], 0.0, switch) == "Gold"
    elsewhere = SimulationSettings(keep=0.0, p_switch=0.0)
    assert choose(PLAN, ["Wrong"], 0.0, elsewhere) == "Other"
    assert choose(PLAN, ["Wrong", "Other"], 0.0, elsewhere) == "Gold"


def test_a_small_simulation_runs_through_the_graph() -> None:
    cfg = SimulationSettings(ps=(0.0, 1.0), keep=0.0, p_switch=1.0, n=3)
    summary = run_simulation(cfg, load_questions())
    assert summary["settings"]["questions"] == 3 and summary["settings"]["keep"] == 0.0
    runs = {(run["p"], run["verifier"]): run for run in summary["runs"]}
    assert set(runs) == {(0.0, "on"), (0.0, "off"), (1.0, "on"), (1.0, "off")}
    for run in runs.values():
        assert run["episodes"] == 3
        assert abs(sum(run["status_share"].values()) - 1) < 1e-3
        assert {"em", "first_answer_em", "verified_precision", "grounded_precision"} <= set(run)
    assert runs[(1.0, "off")]["em"] == 1.0
    assert set(runs[(1.0, "on")]["by_first_kind"]) == {"gold"}
    assert "gold" not in runs[(0.0, "off")]["by_first_kind"]
    assert runs[(0.0, "off")]["em"] == runs[(0.0, "off")]["first_answer_em"] == 0.0
    # Sent back, a wrong answer switches to the gold one: the verifier can only help here.
    assert runs[(0.0, "on")]["em"] >= runs[(0.0, "off")]["em"]
    assert runs[(0.0, "on")]["first_answer_em"] == 0.0


def test_the_command_prints_json_and_writes_the_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "sim.png"
    argv = ["verifier", "--simulate", "--n", "2", "--p", "0.5", "--plot", str(plot), "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["plot"] == str(plot) and plot.stat().st_size > 0
    assert [run["verifier"] for run in summary["runs"]] == ["on", "off"]
    assert main(argv[:-1]) == 0
    text = capsys.readouterr().out
    assert "keep 0.5" in text and "exact match" in text and "verified precision" in text
    assert "exact match by first answer" in text


def test_a_wrong_span_policy_draws_span_swaps_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = load_questions()[:12]
    every = plans(questions)
    spans = plans(questions, ("span_swap",))
    assert {kind for plan in every.values() for kind in plan.kinds} > {"span_swap"}
    assert {kind for plan in spans.values() for kind in plan.kinds} == {"span_swap"}
    for text, plan in spans.items():
        assert set(plan.negatives) <= set(every[text].negatives)
    plot = tmp_path / "sim.png"
    argv = ["verifier", "--simulate", "--n", "3", "--p", "0", "--keep", "1", "--json"]
    assert main([*argv, "--kinds", "span_swap", "--plot", str(plot)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["settings"]["policy_kinds"] == ["span_swap"]
    for run in summary["runs"]:
        assert set(run["by_first_kind"]) <= {"span_swap", "gold"}
    with pytest.raises(SystemExit):
        main([*argv, "--kinds", "span_swaps"])
    assert "expected some of span_swap" in capsys.readouterr().err


def test_a_plot_path_that_is_a_directory_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["verifier", "--simulate", "--n", "2", "--p", "0.5", "--plot", str(tmp_path)]
    with pytest.raises(BenchError, match=r"--plot .* is a directory"):
        main(argv)
    assert capsys.readouterr().out == "" and not list(tmp_path.parent.glob("*.png"))


def test_a_plot_name_without_a_suffix_says_the_file_it_wrote(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plot = tmp_path / "sim"
    argv = ["verifier", "--simulate", "--n", "2", "--p", "0.5", "--plot", str(plot), "--json"]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["plot"] == str(tmp_path / "sim.png") and (tmp_path / "sim.png").exists()


def test_figures_count_any_final_status_and_its_precision() -> None:
    episodes = [
        {"status": "verified", "em": 1.0, "first_em": 1.0, "first_kind": "gold"},
        {"status": "grounded", "em": 1.0, "first_em": 0.0, "first_kind": "span_swap"},
        {"status": "grounded", "em": 0.0, "first_em": 0.0, "first_kind": "span_swap"},
        {"status": "unverified", "em": 0.0, "first_em": 0.0, "first_kind": "absent"},
    ]
    result = figures(episodes)
    assert result["em"] == 0.5 and result["first_answer_em"] == 0.25
    assert result["status_share"] == {"grounded": 0.5, "unverified": 0.25, "verified": 0.25}
    assert (result["verified_precision"], result["grounded_precision"]) == (1.0, 0.5)
    assert by_first_kind(episodes)["span_swap"]["episodes"] == 2
