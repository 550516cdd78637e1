"""Benchmark of the verifier on HotpotQA questions, easy and hard cases.

The cases are described in `graph.evaluation.verifier_cases`. Figures:
precision, recall and F1 of `supported` on the easy cases (overall and per
question type), the recall on an episode's evidence, the acceptance of hard
negatives (wrong spans from the right pages, swapped yes/no) by case kind and
by answer kind, and the time spent inside `verify_answer` (mean and median).
The verifier gets the snapshot's type lexicon, as the agent does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from graph.core.models import load_chat_model
from graph.evaluation import bench_args, simulation_report
from graph.evaluation.config import BenchError, check_output_file
from graph.evaluation.hotpot import load_questions
from graph.evaluation.verifier_cases import build_cases, fold_of, pages_of
from graph.evaluation.verifier_dress import dressed_negatives
from graph.evaluation.verifier_invariance import invariance
from graph.evaluation.verifier_outcomes import GOLD_KIND, ms_figures, outcome_summary
from graph.evaluation.verifier_summary import format_summary, summarise
from graph.evaluation.verifier_timing import (
    DEFAULT_RUNS,
    empty_caches,
    fastest_calls,
    harness_frozen,
)
from graph.verifier import verify_answer
from graph.verifier.judge import JUDGE_MAX_TOKENS, judge
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from graph.verifier.score.combiner import RULES, CombinerFile, Decider, load_combiner
from tools.base import Verdict

DEFAULT_OUT = Path("verifier_bench.jsonl")
RESULT_KEYS = ("id", "type", "case", "answer_kind", "question", "answer", "label")


def _progress(items: Sequence[dict[str, Any]], desc: str = "verifier bench") -> Iterable[Any]:
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(
        items,
        desc=desc,
        unit="case",
        file=sys.stderr,
        disable=len(items) < 200 or not sys.stderr.isatty(),
    )


def _write(out: Path, results: list[dict[str, Any]]) -> None:
    """Write the per-case results whole: a file is replaced only once its new text is
    written (a failed write leaves the earlier file as it was); a device or pipe
    (`/dev/stdout`) is written in place."""
    text = "".join(json.dumps(result, ensure_ascii=False) + "\n" for result in results)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists() and not out.is_file():
        try:
            with out.open("w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise BenchError(f"--out: cannot write {out}: {error.strerror}") from None
        return
    draft = out.with_name(f".{out.name}.partial")
    try:
        draft.write_text(text, encoding="utf-8")
        os.replace(draft, out)
    except OSError as error:
        raise BenchError(f"--out: cannot write {out}: {error.strerror}; it is unchanged") from None
    finally:
        with contextlib.suppress(OSError):  # a draft whose name is too long was never made
            draft.unlink(missing_ok=True)


def _judged(
    model: BaseChatModel, case: dict[str, Any], verdict: Verdict, spent: Counter[str]
) -> Verdict:
    """The rules' verdict after the judge was asked about it (grounded or stated ones):
    `overturned` counts verified answers it made grounded, `confirmed` grounded ones it
    made verified."""
    judgement = judge(model, case["question"], case["answer"], verdict, case["evidence"])
    if judgement.called:
        spent["calls"] += 1
        spent["input_tokens"] += judgement.input_tokens
        spent["output_tokens"] += judgement.output_tokens
        spent["overturned"] += verdict["supported"] and not judgement.verdict["supported"]
        spent["confirmed"] += judgement.verdict["supported"] and not verdict["supported"]
    return judgement.verdict


def _decider_for(combiners: CombinerFile | None, question_id: str, *, held_out: bool) -> Decider:
    """The decider for a question: the combiner that never saw it on the built-in
    questions, the one trained on all of them on other data, or the rules."""
    if combiners is None:
        return RULES
    return combiners.for_fold(fold_of(question_id, combiners.folds)) if held_out else combiners.full


def run_verifier_bench(
    data: Path | None = None,
    out: Path | None = None,
    sample_errors: int = 10,
    *,
    with_type: bool = False,
    folds: tuple[int, Sequence[int]] | None = None,
    judge_model: str | None = None,
    combiner: bool = True,
    timing_runs: int = 1,
) -> dict[str, Any]:
    """Run every case through `verify_answer` and summarise the outcome.

    `data` is a HotpotQA JSONL(.gz) file (default: the built-in sample); `out`,
    when given, receives one JSON line per case. With `with_type` the verifier
    is told each question's HotpotQA type; by default it must detect
    comparisons itself, as it does inside the agent. `folds` = (N, [K, ...])
    keeps only the questions of folds K out of N (see `fold_of`). With
    `judge_model` (any model spec), every answer the rules accept goes to that
    judge, and the summary gives the figures of the rules alone too. Stated
    years, numbers and names go to the learned combiner unless `combiner` is off
    (then to the hand rules): on the built-in questions each one to the combiner
    trained without its fold, on other data to the one trained on all of them.
    Without a judge, `timing_runs` > 1 times every case again in as many runs in all
    and reports each case's fastest call (`verifier_timing`).
    """
    if out is not None:
        check_output_file(out, "--out", "the per-case results")
    try:
        questions = load_questions(data)
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot read the questions: {error}") from None
    if not questions:
        raise BenchError(f"no question in {data}")
    if folds is not None:
        count, chosen = folds
        questions = [q for q in questions if fold_of(q["_id"], count) in chosen]
    cases = list(build_cases(questions, pages_of(questions)))
    lexicon = snapshot_lexicon()
    combiners = load_combiner() if combiner else None
    model = load_chat_model(judge_model, 0.0, JUDGE_MAX_TOKENS) if judge_model else None
    spent: Counter[str] = Counter()
    results: list[dict[str, Any]] = []
    rules_only: list[dict[str, Any]] = []
    timings: list[float] = []

    def verify(case: Any, question: str, answer: str, evidence: Any) -> Verdict:
        return verify_answer(
            question,
            answer,
            evidence,
            question_type=case["type"] if with_type else None,
            lexicon=lexicon,
            decider=_decider_for(combiners, case["id"], held_out=data is None),
        )

    empty_caches()
    with harness_frozen():
        for case in _progress(cases):
            started = time.perf_counter()
            verdict = verify(case, case["question"], case["answer"], case["evidence"])
            timings.append(time.perf_counter() - started)
            row = {key: case[key] for key in RESULT_KEYS} | {"n_evidence": len(case["evidence"])}
            if model is not None:
                rules_only.append(row | {"supported": verdict["supported"]})
                verdict = _judged(model, case, verdict, spent)
            results.append(row | dict(verdict))
    first_run = timings
    if model is None and timing_runs > 1:
        timings = fastest_calls(
            cases,
            lambda case: verify(case, case["question"], case["answer"], case["evidence"]),
            first_run,
            timing_runs,
            _progress,
        )
    if out is not None:
        _write(out, results)
    fold_map = None
    if combiners is not None and data is None:
        fold_map = {q["_id"]: fold_of(q["_id"], combiners.folds) for q in questions}

    summary = summarise(results, timings, sample_errors) | {
        **outcome_summary(results, timings, fold_map),
        "with_type": with_type,
        "combiner": ("held-out folds" if data is None else "full") if combiner else "off",
    }
    summary["timing"]["runs"] = timing_runs if model is None else 1
    summary["timing_first_run"] = ms_figures(first_run)
    if model is None:
        gold = {row["id"]: row for row in results if row["case"] == GOLD_KIND}
        summary["invariance"] = invariance(cases, gold, verify)
        summary["dressed_negatives"] = dressed_negatives(cases, results, verify)
    else:
        rules = summarise(rules_only, timings, 0)
        summary["judge"] = {"model": judge_model, **spent}
        summary["rules_only"] = {
            key: rules[key]
            for key in ("precision", "recall", "episode_recall", "hard_negative_acceptance")
        }
    return summary


def _command(args: argparse.Namespace) -> int:
    if args.simulate:
        return simulation_report.command(args)
    summary = run_verifier_bench(
        args.data,
        args.out,
        args.sample_errors,
        with_type=args.with_type,
        folds=args.folds,
        judge_model=args.judge,
        combiner=not args.rules_only,
        timing_runs=args.timing_runs,
    )
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(format_summary(summary))
        print(f"per-case results: {args.out}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `verifier` subcommand; it sets `func(args) -> int` as the handler."""
    parser = subparsers.add_parser(
        "verifier",
        help="Measure the answer verifier on HotpotQA gold supporting facts and hard negatives.",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="HotpotQA JSONL(.gz) file (default: the built-in sample).",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"Per-case JSONL results (default: {DEFAULT_OUT}).",
    )
    parser.add_argument("--json", action="store_true", help="Print the summary as one JSON object.")
    parser.add_argument(
        "--sample-errors",
        type=bench_args.whole_number,
        default=10,
        help="How many wrong cases to show (default: 10).",
    )
    parser.add_argument(
        "--with-type", action="store_true", help="Tell the verifier each question's HotpotQA type."
    )
    parser.add_argument(
        "--folds",
        type=bench_args.folds,
        default=None,
        metavar="K[,K...]/N",
        help="Only the questions of folds K out of N (stable hash of the question id).",
    )
    parser.add_argument(
        "--rules-only",
        action="store_true",
        help="Decide stated years, numbers and names by the hand rules, not the learned combiner.",
    )
    parser.add_argument(
        "--judge",
        default=None,
        metavar="MODEL",
        help="Judge model (any --model spec) asked about every answer the rules accept.",
    )
    parser.add_argument(
        "--timing-runs",
        type=bench_args.positive_number,
        default=DEFAULT_RUNS,
        metavar="N",
        help="Time every case in N runs, caches emptied before each, and report each case's"
        f" fastest call (default: {DEFAULT_RUNS}; 1 times the verdicts' own run only).",
    )
    simulation_report.add_arguments(parser)
    parser.set_defaults(func=_command)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark on its own: `python -m graph.evaluation.verifier_bench`."""
    parser = argparse.ArgumentParser(prog="verifier-bench")
    register(parser.add_subparsers(dest="bench", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
