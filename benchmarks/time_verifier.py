"""Time `verify_answer` on the verifier benchmark's cases, CPU time per call.

Run with `python benchmarks/time_verifier.py [--code DIR] [--verdicts FILE]`. It builds
the cases of `react-agent bench verifier` (the 898 built-in questions, in bench order,
each stated answer decided by the combiner trained without its fold) and prints one JSON
line: the median, 90th and 95th percentiles and mean CPU milliseconds of each call
(`time.thread_time_ns`, so other processes on a shared machine count less than in wall
time). `--code DIR` imports the verifier from another checkout of this repository (an
older version exported with `git archive`), so two versions can be timed in turn in the
same conditions; `--verdicts FILE` writes every case's verdict, one JSON line each, to
check that a change meant only for speed leaves them identical.

`--against DIR` loads a second version beside the first in the same process and times
every case on both, one right after the other (which goes first alternates), so a
shared machine's load, which moves whole runs by 10-20 %, weighs on both alike. It
prints both summaries and each case kind's medians, and fails if any verdict differs.
The version loaded first (`--code`) runs about 5 % faster than the same code loaded
second (a checkout against itself: 0.725 against 0.758 ms median), so compare the two
orders, and never the means (a cyclic collection lands in whichever call triggers it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_PACKAGES = ("graph", "tools")

Timed = Callable[[dict[str, Any]], tuple[float, dict[str, Any]]]


def _percentile(sorted_values: list[float], share: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * share))]


def _summary(timings: list[float]) -> dict[str, float]:
    ordered = sorted(timings)
    return {
        "ms_median": round(_percentile(ordered, 0.5), 4),
        "ms_p90": round(_percentile(ordered, 0.9), 4),
        "ms_p95": round(_percentile(ordered, 0.95), 4),
        "ms_mean": round(sum(timings) / len(timings), 4),
    }


def _load(code: Path) -> tuple[list[dict[str, Any]], Timed]:
    """The bench cases, and a function that verifies one and gives the CPU milliseconds
    of the `verify_answer` call with the verdict, imported from the checkout `code` (a
    version loaded before is set aside first: its functions keep their own modules)."""
    for name in [name for name in sys.modules if name.split(".")[0] in _PACKAGES]:
        del sys.modules[name]
    sys.path.insert(0, str(code.resolve()))
    try:
        from graph.evaluation.hotpot import load_questions
        from graph.evaluation.verifier_bench import _decider_for
        from graph.evaluation.verifier_cases import build_cases, load_pages
        from graph.verifier import verify_answer
        from graph.verifier.kinds.lexicon_store import snapshot_lexicon
        from graph.verifier.score.combiner import load_combiner

        questions = load_questions(None)
        titles = {title for q in questions for title in q.get("context_titles", [])}
        titles |= {title for q in questions for title, _ in q["supporting_facts"]}
        cases = list(build_cases(questions, load_pages(titles)))
        lexicon, combiners = snapshot_lexicon(), load_combiner()
    finally:
        sys.path.remove(str(code.resolve()))
    deciders = {case["id"]: _decider_for(combiners, case["id"], held_out=True) for case in cases}

    def timed(case: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        question, answer, evidence = case["question"], case["answer"], case["evidence"]
        decider = deciders[case["id"]]
        started = time.thread_time_ns()
        verdict = verify_answer(question, answer, evidence, lexicon=lexicon, decider=decider)
        return (time.thread_time_ns() - started) / 1e6, dict(verdict)

    return cases, timed


def time_cases(code: Path, verdicts: Path | None) -> dict[str, Any]:
    """Verify every case once, in bench order; the CPU time of each call, summarised."""
    cases, timed = _load(code)
    timings: list[float] = []
    rows: list[dict[str, Any]] = []
    for case in cases:
        spent, verdict = timed(case)
        timings.append(spent)
        rows.append({"id": case["id"], "case": case["case"], "answer": case["answer"], **verdict})
    if verdicts is not None:
        with verdicts.open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    return {"cases": len(timings), **_summary(timings), "code": str(code)}


def time_against(code: Path, other: Path) -> dict[str, Any]:
    """Every case verified by both versions in turn; both summaries, overall and by kind,
    and how many verdicts differ."""
    cases, timed = _load(code)
    other_cases, other_timed = _load(other)
    if [case["id"] for case in cases] != [case["id"] for case in other_cases]:
        raise SystemExit("the two checkouts build different bench cases")
    timings: dict[str, list[float]] = {"code": [], "against": []}
    differ = 0
    for index, case in enumerate(cases):
        turns = [("code", timed), ("against", other_timed)]
        found = {name: run(case) for name, run in turns[:: 1 if index % 2 else -1]}
        for name, (spent, _) in found.items():
            timings[name].append(spent)
        differ += found["code"][1] != found["against"][1]
    kinds = [case["case"] for case in cases]
    by_kind = {
        kind: {
            name: _summary([t for t, k in zip(spent, kinds, strict=True) if k == kind])["ms_median"]
            for name, spent in timings.items()
        }
        for kind in dict.fromkeys(kinds)
    }
    return {
        "cases": len(cases),
        "code": {"dir": str(code), **_summary(timings["code"])},
        "against": {"dir": str(other), **_summary(timings["against"])},
        "median_by_kind": by_kind,
        "verdicts_differ": differ,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--code", type=Path, default=ROOT, help="Checkout to import the verifier from."
    )
    parser.add_argument("--verdicts", type=Path, default=None, help="Write each case's verdict.")
    parser.add_argument(
        "--against", type=Path, default=None, help="A second checkout timed case by case."
    )
    args = parser.parse_args(argv)
    if args.against is not None:
        summary = time_against(args.code, args.against)
        print(json.dumps(summary))
        return 1 if summary["verdicts_differ"] else 0
    print(json.dumps(time_cases(args.code, args.verdicts)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
