"""The verifier benchmark on a small HotpotQA-format file, and HotpotQA answer scoring."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from graph.cli import main as cli_main
from graph.evaluation.hotpot import (
    exact_match,
    f1_precision_recall,
    f1_score,
    load_questions,
    normalize_answer,
)
from graph.evaluation.verifier_bench import main, run_verifier_bench
from graph.evaluation.verifier_dress import DRESSES
from graph.evaluation.verifier_invariance import CHANGES


def question(
    qid: str, kind: str, text: str, answer: str, facts: list[list[Any]], distractors: list[str]
) -> dict[str, Any]:
    titles = [title for title, _ in facts]
    return {
        "_id": qid,
        "question": text,
        "answer": answer,
        "type": kind,
        "supporting_facts": facts,
        "context_titles": [*dict.fromkeys(titles), *distractors],
        "gold_in_wiki": True,
    }


# Real snapshot pages. Expected outcomes: every positive is supported except the
# synonym no rule covers ("goalie" for "goalkeeper"); every distractor,
# wrong-answer and hard negative (a name from the right page, a swapped yes/no)
# is rejected: the yes/no answers are computed from the pages ("film director"
# on both; "film director" against "actress").
QUESTIONS = [
    question(
        "b1",
        "bridge",
        "What film did Peter Best make in 1986 that was set in the Australian Outback?",
        "Crocodile Dundee",
        [["Peter Best (composer)", 0], ["Crocodile Dundee", 0]],
        ["Hope Solo"],
    ),
    question(
        "b2",
        "bridge",
        "Which English singer released the album Brides in 1987?",
        "Annabel Lamb",
        [["Brides (album)", 0]],
        ["Lisa Kudrow"],
    ),
    question(
        "b3",
        "bridge",
        "What position did Hope Solo play in soccer?",
        "goalie",
        [["Hope Solo", 0]],
        ["Annabel Langbein"],
    ),
    question(
        "c1",
        "comparison",
        "Are King Vidor and Géza von Cziffra both film directors?",
        "yes",
        [["King Vidor", 0], ["Géza von Cziffra", 0]],
        ["Allister Brimble"],
    ),
    question(
        "c2",
        "comparison",
        "Are Christopher Nolan and Lisa Kudrow both actresses?",
        "no",
        [["Christopher Nolan", 0], ["Lisa Kudrow", 0]],
        ["Hope Solo"],
    ),
]


@pytest.fixture
def data_file(tmp_path: Path) -> Path:
    path = tmp_path / "questions.jsonl.gz"
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for record in QUESTIONS:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    return path


def test_bench_counts_and_scores_on_a_fixture(data_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "cases.jsonl"
    summary = run_verifier_bench(data_file, out, sample_errors=10)
    assert summary["cases"] == 36
    assert {kind: row["cases"] for kind, row in summary["by_case"].items()} == {
        "positive": 5,
        "distractor": 5,
        "wrong_answer": 5,
        "episode_positive": 5,
        "span_swap": 4,
        "yes_no_swap": 2,
        "choice_swap": 0,
        "partial_name": 2,
        "extended_name": 2,
        "bridge_entity": 0,
        "bridge_page_span": 0,
        "negated": 2,
        "injected": 2,
        "absent": 2,
        "reworded": 0,
        "rewritten": 0,
    }
    assert summary["counts"] == {"tp": 4, "fp": 0, "fn": 1, "tn": 10}
    assert (summary["precision"], summary["recall"], summary["f1"]) == (1.0, 0.8, 0.8889)
    bridge, comparison = summary["by_type"]["bridge"], summary["by_type"]["comparison"]
    assert (bridge["precision"], bridge["recall"], bridge["cases"]) == (1.0, 0.6667, 9)
    assert (comparison["precision"], comparison["recall"], comparison["cases"]) == (1.0, 1.0, 6)
    assert summary["hard_negative_acceptance"] == 0.0
    assert summary["by_answer_kind"]["name"]["hard_negatives"] == 4
    assert summary["by_answer_kind"]["yes/no"]["hard_negatives"] == 2
    assert summary["per_second"] > 0 and summary["ms_median"] > 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 36
    swaps = {row["answer"] for row in rows if row["case"] == "span_swap"}
    assert swaps == {"Linda Kozlowski", "Muriel Wedding", "The Velvet Underground", "Mica Paris"}
    missed = [
        row for row in rows if row["label"] and not row["supported"] and row["case"] != "reworded"
    ]
    assert [row["id"] for row in missed] == ["b3", "b3"]
    assert missed[0]["missing"] == ["goalie"]


def test_json_flag_prints_one_summary_object(
    data_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cases.jsonl"
    assert main(["verifier", "--data", str(data_file), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert {"precision", "recall", "f1", "by_type", "per_second", "cases"} <= set(summary)
    assert {"hard_negative_acceptance", "by_answer_kind", "ms_median", "ms_p90"} <= set(summary)
    assert summary["ms_first_median"] > 0
    assert {"span_swap", "yes_no_swap"} <= set(summary["by_case"])
    for scores in summary["by_type"].values():
        assert {"precision", "recall", "f1"} <= set(scores)
    assert set(summary["by_type"]) == {"bridge", "comparison"}
    assert summary["cases"] == len(out.read_text(encoding="utf-8").splitlines())


def test_the_report_gives_outcome_shares_and_timing_per_case_kind(
    data_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cases.jsonl"
    assert main(["verifier", "--data", str(data_file), "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    headline = {"gold_not_rejected", "gold_not_rejected_comparison", "gold_verified"}
    assert headline | {"negative_verified", "reworded_rejected", "outcomes", "timing"} <= set(
        summary
    )
    for kind, row in summary["outcomes"].items():
        assert {"cases", "label", "verified", "grounded", "rejected", "ms_median", "ms_p95"} <= set(
            row
        )
        if row["cases"]:
            assert abs(row["verified"] + row["grounded"] + row["rejected"] - 1) < 1e-3, kind
    assert summary["outcomes"]["episode_positive"]["label"] is True
    assert summary["outcomes"]["reworded"]["label"] is True
    assert {"partial_name", "extended_name", "negated", "injected", "absent"} <= set(
        summary["negative_verified"]
    )
    assert summary["timing"]["ms_p95"] >= summary["timing"]["ms_median"] > 0
    assert summary["gold_not_rejected"] == round(
        1 - summary["outcomes"]["episode_positive"]["rejected"], 4
    )
    main(["verifier", "--data", str(data_file), "--out", str(out)])
    text = capsys.readouterr().out
    assert "partial_name" in text and "grounded" in text and "p95" in text


def test_the_bench_reports_the_fastest_runs_and_its_first_run_beside_them(
    data_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    once = run_verifier_bench(data_file, tmp_path / "once.jsonl", timing_runs=1)
    thrice = run_verifier_bench(data_file, tmp_path / "thrice.jsonl", timing_runs=3)
    assert once["timing"]["runs"] == 1 and thrice["timing"]["runs"] == 3
    assert once["timing"] | {"runs": 0} == once["timing_first_run"] | {"runs": 0}
    assert thrice["timing"]["ms_median"] <= thrice["timing_first_run"]["ms_median"]
    assert thrice["timing"]["ms_p95"] <= thrice["timing_first_run"]["ms_p95"]
    verdicts = [
        (tmp_path / name).read_text(encoding="utf-8") for name in ("once.jsonl", "thrice.jsonl")
    ]
    assert verdicts[0] == verdicts[1]
    out = str(tmp_path / "cli.jsonl")
    assert main(["verifier", "--data", str(data_file), "--out", out, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["timing"]["runs"] == 3
    with pytest.raises(SystemExit):
        main(["verifier", "--data", str(data_file), "--out", out, "--timing-runs", "0"])
    assert "1 or more" in capsys.readouterr().err


def test_text_output_lists_scores_and_wrong_cases(
    data_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cases.jsonl"
    assert main(["verifier", "--data", str(data_file), "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "bridge" in text and "comparison" in text and "verifications per second" in text
    assert "What position did Hope Solo play in soccer?" in text
    assert str(out) in text


def test_folds_select_questions_by_a_stable_hash(data_file: Path) -> None:
    everything = run_verifier_bench(data_file)["cases"]
    parts = [run_verifier_bench(data_file, folds=(2, [k]))["cases"] for k in (0, 1)]
    assert sum(parts) == everything and all(parts)


@pytest.mark.parametrize(
    ("reply", "overturned", "confirmed"),
    [("VERDICT: SUPPORTED", 0, 9), ("VERDICT: NOT SUPPORTED", 4, 0), ("No idea.", 0, 0)],
)
def test_a_judge_sees_every_answer_verified_by_statement_or_grounded(
    data_file: Path, tmp_path: Path, reply: str, overturned: int, confirmed: int
) -> None:
    script = tmp_path / "judge.json"
    script.write_text(json.dumps([reply]), encoding="utf-8")
    summary = run_verifier_bench(data_file, judge_model=f"scripted:{script}")
    rules = run_verifier_bench(data_file)
    judged = summary["judge"]
    # 4 verified by statement, 9 grounded (a band offered for "which English singer" among
    # them: a body where a person is asked is weighed, never rejected)
    assert judged["calls"] == 13
    assert (judged["overturned"], judged["confirmed"]) == (overturned, confirmed)
    assert judged["input_tokens"] > 0
    assert summary["rules_only"]["recall"] == rules["recall"]
    assert (summary["recall"] < rules["recall"]) is bool(overturned)


@pytest.mark.parametrize(("distractor", "cases"), [("Hope Solo", 1), ("Peter Best (composer)", 0)])
def test_distractors_that_state_the_answer_make_no_case(
    tmp_path: Path, distractor: str, cases: int
) -> None:
    path = tmp_path / "questions.jsonl"
    record = question(
        "b4",
        "bridge",
        "Which 1986 film is set in the Australian Outback?",
        "Crocodile Dundee",
        [["Crocodile Dundee", 0]],
        [distractor],
    )
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert run_verifier_bench(path)["by_case"]["distractor"]["cases"] == cases


# HotpotQA answer scoring


def test_normalize_answer_matches_the_official_script() -> None:
    assert normalize_answer("The  Walt Disney Pictures.") == "walt disney pictures"
    assert normalize_answer("An apple, a pear") == "apple pear"
    assert normalize_answer("Theatre") == "theatre"


def test_exact_match_and_f1() -> None:
    assert exact_match("the Lolita", "Lolita") == 1.0
    assert exact_match("Lolita (film)", "Lolita") == 0.0
    assert f1_score("Crocodile Dundee II", "Crocodile Dundee") == pytest.approx(0.8)
    assert f1_precision_recall("Crocodile Dundee II", "Crocodile Dundee") == pytest.approx(
        (0.8, 2 / 3, 1.0)
    )
    assert f1_score("Paris", "London") == 0.0


def test_yes_no_answers_score_only_when_equal() -> None:
    assert f1_score("yes", "no") == 0.0
    assert f1_score("yes it is", "yes") == 0.0
    assert f1_score("no", "no") == 1.0


def test_load_questions_reads_the_built_in_sample_and_checks_fields(tmp_path: Path) -> None:
    questions = load_questions()
    assert len(questions) == 898
    assert {q["type"] for q in questions} == {"bridge", "comparison"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"_id": "x", "question": "q?"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="missing answer, type, supporting_facts"):
        load_questions(bad)


def test_a_failed_results_write_leaves_the_earlier_file_whole(
    data_file: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = tmp_path / "cases.jsonl"
    out.write_text('{"earlier": "run"}\n', encoding="utf-8")
    written = Path.write_text

    def full_disk(path: Path, text: str, *args: Any, **kwargs: Any) -> int:
        written(path, text[: len(text) // 2], *args, **kwargs)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    assert cli_main(["bench", "verifier", "--data", str(data_file), "--out", str(out)]) != 0
    error = capsys.readouterr().err.strip()
    assert error.endswith(f"--out: cannot write {out}: No space left on device; it is unchanged")
    assert len(error.splitlines()) == 1
    assert out.read_text(encoding="utf-8") == '{"earlier": "run"}\n'
    assert not list(tmp_path.glob("*partial*"))


def test_results_go_to_a_device_in_place(
    data_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verifier", "--data", str(data_file), "--out", "/dev/null"]) == 0
    assert Path("/dev/null").exists() and not Path("/dev/null").is_file()


def test_the_bench_reports_no_right_answer_turned_away_by_another_form(
    data_file: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["verifier", "--data", str(data_file), "--out", str(tmp_path / "c.jsonl"), "--json"])
        == 0
    )
    summary = json.loads(capsys.readouterr().out)
    figures = summary["invariance"]
    assert set(figures) == set(CHANGES)
    assert figures["answer announced"]["cases"] > 0
    assert all(row["rejected"] == 0 for row in figures.values()), figures
    dressed = summary["dressed_negatives"]
    assert set(dressed) == set(DRESSES)
    for dress in ("quoted", "emphasised (Markdown)"):
        assert dressed[dress]["cases"] > 0
        assert dressed[dress]["dressed"] == dressed[dress]["verified"], dressed
