"""Time `verify_answer` on the verifier benchmark's cases, CPU time per call.

Run with `python benchmarks/time_verifier.py [--code DIR] [--verdicts FILE]`. It builds
the cases of `react-agent bench verifier` (the 898 built-in questions, in bench order,
each stated answer decided by the combiner trained without its fold) and prints one JSON
line: the median, 90th percentile and mean CPU milliseconds of each call
(`time.thread_time_ns`, so other processes on a shared machine count less than in wall
time). `--code DIR` imports the verifier from another checkout of this repository (an
older version exported with `git archive`), so two versions can be timed in turn in the
same conditions; `--verdicts FILE` writes every case's verdict, one JSON line each, to
check that a change meant only for speed leaves them identical.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


def time_cases(verdicts: Path | None) -> dict[str, Any]:
    """Verify every case once, in bench order; the CPU time of each call, summarised."""
    from graph.evaluation.hotpot import load_questions
    from graph.evaluation.verifier_bench import _decider_for
    from graph.evaluation.verifier_cases import build_cases, load_pages
    from graph.verifier import verify_answer
    from graph.verifier.combiner import load_combiner
    from graph.verifier.lexicon_store import snapshot_lexicon

    questions = load_questions(None)
    titles = {title for q in questions for title in q.get("context_titles", [])}
    titles |= {title for q in questions for title, _ in q["supporting_facts"]}
    cases = list(build_cases(questions, load_pages(titles)))
    lexicon = snapshot_lexicon()
    combiners = load_combiner()
    deciders = [_decider_for(combiners, case["id"], held_out=True) for case in cases]
    timings: list[float] = []
    rows: list[dict[str, Any]] = []
    for case, decider in zip(cases, deciders, strict=True):
        started = time.thread_time_ns()
        verdict = verify_answer(
            case["question"], case["answer"], case["evidence"], lexicon=lexicon, decider=decider
        )
        timings.append((time.thread_time_ns() - started) / 1e6)
        rows.append({"id": case["id"], "case": case["case"], "answer": case["answer"], **verdict})
    if verdicts is not None:
        with verdicts.open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    ordered = sorted(timings)
    return {
        "cases": len(timings),
        "ms_median": round(_percentile(ordered, 0.5), 4),
        "ms_p90": round(_percentile(ordered, 0.9), 4),
        "ms_mean": round(sum(timings) / len(timings), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--code", type=Path, default=ROOT, help="Checkout to import the verifier from."
    )
    parser.add_argument("--verdicts", type=Path, default=None, help="Write each case's verdict.")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(args.code.resolve()))
    summary = time_cases(args.verdicts) | {"code": str(args.code)}
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
