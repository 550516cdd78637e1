"""Benchmark of the verifier on HotpotQA's gold supporting facts.

Each question gives up to three cases, evidence taken from the offline snapshot:

- `positive`: the gold answer with the gold supporting sentences;
- `distractor`: the gold answer with only the distractor paragraphs' sentences,
  built only when the answer occurs in none of them (nor in their titles);
- `wrong_answer`: another question's answer of the same type (chosen with a
  fixed seed) with the gold sentences.

The figures are precision, recall and F1 of `supported`, overall and per
question type, and verifications per second (time spent inside
`verify_answer` only).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from graph.evaluation.hotpot import load_questions, normalize_answer
from graph.verifier import verify_answer
from tools.base import Evidence
from tools.wikipedia.snapshot import SNAPSHOT_FILE, iter_snapshot, normalize_title

SEED = 13
RETRIEVED_AT = "2017-10-01T00:00:00Z"
CASE_KINDS = ("positive", "distractor", "wrong_answer")
QUESTION_TYPES = ("bridge", "comparison")
DEFAULT_OUT = Path("verifier_bench.jsonl")

SUMMARY_LINE = (
    "{label:<12} precision {precision:.3f}  recall {recall:.3f}  f1 {f1:.3f}  ({cases} cases)"
)
SPEED_LINE = "{per_second:,.0f} verifications per second ({ms:.3f} ms each) over {cases} cases"
ERROR_LINE = (
    "- [{type}/{case}] expected {expected}, got {got}: Q: {question} | A: {answer}\n  {reason}"
)

_NON_WORD = re.compile(r"[\W_]+")
_ARTICLES = frozenset({"a", "an", "the"})

Pages = dict[str, tuple[str, list[str]]]


def _load_pages(titles: Iterable[str], snapshot: Path = SNAPSHOT_FILE) -> Pages:
    """The snapshot pages with these titles, keyed by normalised title."""
    wanted = {normalize_title(title) for title in titles}
    pages: Pages = {}
    for title, sentences in iter_snapshot(snapshot):
        key = normalize_title(title)
        if key in wanted and key not in pages:
            pages[key] = (title, [sentence.strip() for sentence in sentences])
    return pages


def _evidence(facts: Iterable[tuple[str, int, str]]) -> list[Evidence]:
    return [
        Evidence(
            id=f"e{number}",
            text=text,
            tool="Search",
            source={"title": title, "sentence_index": index},
            facts={},
            retrieved_at=RETRIEVED_AT,
        )
        for number, (title, index, text) in enumerate(facts, start=1)
    ]


def _gold_facts(question: dict[str, Any], pages: Pages) -> list[tuple[str, int, str]]:
    facts: list[tuple[str, int, str]] = []
    for title, index in question["supporting_facts"]:
        page = pages.get(normalize_title(title))
        if page is not None and 0 <= index < len(page[1]):
            facts.append((page[0], index, page[1][index]))
    return facts


def _distractor_facts(question: dict[str, Any], pages: Pages) -> list[tuple[str, int, str]]:
    gold = {normalize_title(title) for title, _ in question["supporting_facts"]}
    facts: list[tuple[str, int, str]] = []
    for title in question.get("context_titles", []):
        key = normalize_title(title)
        if key in gold or key not in pages:
            continue
        page_title, sentences = pages[key]
        facts.extend((page_title, index, text) for index, text in enumerate(sentences))
    return facts


def _plain(text: str) -> str:
    """Case, accents, articles and non-alphanumeric characters folded away, words kept apart."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(word for word in _NON_WORD.sub(" ", text).split() if word not in _ARTICLES)


def _occurs(answer: str, texts: Iterable[str]) -> bool:
    """Whether the answer occurs, as whole words, in any of the texts."""
    needle = f" {_plain(answer)} "
    return needle != "  " and any(needle in f" {_plain(text)} " for text in texts)


def _wrong_answers(questions: list[dict[str, Any]]) -> dict[str, str]:
    """For each question, another question's answer of the same type (fixed seed)."""
    rng = random.Random(SEED)
    normalised = [normalize_answer(question["answer"]) for question in questions]
    chosen: dict[str, str] = {}
    for question, gold in zip(questions, normalised, strict=True):
        others = [
            other["answer"]
            for other, answer in zip(questions, normalised, strict=True)
            if other["type"] == question["type"] and answer != gold
        ]
        if others:
            chosen[question["_id"]] = rng.choice(others)
    return chosen


def build_cases(questions: list[dict[str, Any]], pages: Pages) -> Iterator[dict[str, Any]]:
    """Every benchmark case: question, answer, evidence and the expected label."""
    wrong = _wrong_answers(questions)
    for question in questions:
        gold = _gold_facts(question, pages)
        base = {"id": question["_id"], "type": question["type"], "question": question["question"]}
        if gold:
            yield {
                **base,
                "case": "positive",
                "answer": question["answer"],
                "evidence": _evidence(gold),
                "label": True,
            }
        distractors = _distractor_facts(question, pages)
        texts = [text for _, _, text in distractors] + [title for title, _, _ in distractors]
        if distractors and not _occurs(question["answer"], texts):
            yield {
                **base,
                "case": "distractor",
                "answer": question["answer"],
                "evidence": _evidence(distractors),
                "label": False,
            }
        if gold and question["_id"] in wrong:
            yield {
                **base,
                "case": "wrong_answer",
                "answer": wrong[question["_id"]],
                "evidence": _evidence(gold),
                "label": False,
            }


def _scores(results: Iterable[dict[str, Any]]) -> dict[str, float | int]:
    tp = fp = fn = tn = 0
    for result in results:
        if result["supported"]:
            tp, fp = (tp + 1, fp) if result["label"] else (tp, fp + 1)
        else:
            fn, tn = (fn + 1, tn) if result["label"] else (fn, tn + 1)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "cases": tp + fp + fn + tn,
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
    }


def _progress(items: list[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    try:
        from tqdm import tqdm
    except ImportError:
        return items
    return tqdm(
        items,
        desc="verifier bench",
        unit="case",
        file=sys.stderr,
        disable=len(items) < 200 or not sys.stderr.isatty(),
    )


def run_verifier_bench(
    data: Path | None = None,
    out: Path | None = None,
    sample_errors: int = 10,
    *,
    with_type: bool = False,
) -> dict[str, Any]:
    """Run every case through `verify_answer` and summarise the outcome.

    `data` is a HotpotQA JSONL(.gz) file (default: the built-in sample); `out`,
    when given, receives one JSON line per case. With `with_type` the verifier
    is told each question's HotpotQA type; by default it must detect
    comparisons itself, as it does inside the agent.
    """
    questions = load_questions(data)
    titles = {title for q in questions for title in q.get("context_titles", [])}
    titles |= {title for q in questions for title, _ in q["supporting_facts"]}
    cases = list(build_cases(questions, _load_pages(titles)))
    results: list[dict[str, Any]] = []
    elapsed = 0.0
    for case in _progress(cases):
        started = time.perf_counter()
        verdict = verify_answer(
            case["question"],
            case["answer"],
            case["evidence"],
            question_type=case["type"] if with_type else None,
        )
        elapsed += time.perf_counter() - started
        results.append(
            {key: case[key] for key in ("id", "type", "case", "question", "answer", "label")}
            | {"n_evidence": len(case["evidence"]), **verdict}
        )
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w", encoding="utf-8") as handle:
            for result in results:
                handle.write(json.dumps(result, ensure_ascii=False) + "\n")
    overall = _scores(results)
    wrong = [r for r in results if r["supported"] != r["label"]]
    return {
        **{key: overall[key] for key in ("precision", "recall", "f1")},
        "by_type": {
            kind: _scores(r for r in results if r["type"] == kind)
            for kind in sorted({r["type"] for r in results} | set(QUESTION_TYPES))
        },
        "by_case": {
            kind: {
                "cases": sum(r["case"] == kind for r in results),
                "wrong": sum(r["case"] == kind for r in wrong),
            }
            for kind in CASE_KINDS
        },
        "counts": {key: overall[key] for key in ("tp", "fp", "fn", "tn")},
        "per_second": round(len(results) / elapsed, 1) if elapsed else 0.0,
        "ms_per_verification": round(1000 * elapsed / len(results), 4) if results else 0.0,
        "cases": len(results),
        "with_type": with_type,
        "errors": random.Random(SEED).sample(wrong, min(sample_errors, len(wrong))),
    }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a few lines of text, with the sample of wrong cases."""
    lines = [
        SUMMARY_LINE.format(
            label="overall",
            cases=summary["cases"],
            **{key: summary[key] for key in ("precision", "recall", "f1")},
        )
    ]
    for kind, scores in summary["by_type"].items():
        lines.append(SUMMARY_LINE.format(label=kind, **scores))
    lines.append(
        SPEED_LINE.format(
            per_second=summary["per_second"],
            ms=summary["ms_per_verification"],
            cases=summary["cases"],
        )
    )
    by_case = ", ".join(
        f"{kind} {v['wrong']}/{v['cases']} wrong" for kind, v in summary["by_case"].items()
    )
    lines.append(f"by case: {by_case}")
    if summary["errors"]:
        lines.append(f"sample of wrong cases ({len(summary['errors'])}):")
        lines.extend(
            ERROR_LINE.format(
                type=e["type"],
                case=e["case"],
                expected=e["label"],
                got=e["supported"],
                question=e["question"],
                answer=e["answer"],
                reason=e["reason"],
            )
            for e in summary["errors"]
        )
    return "\n".join(lines)


def _command(args: argparse.Namespace) -> int:
    summary = run_verifier_bench(args.data, args.out, args.sample_errors, with_type=args.with_type)
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
        help="Measure the answer verifier on HotpotQA gold supporting facts.",
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
        "--sample-errors", type=int, default=10, help="How many wrong cases to show (default: 10)."
    )
    parser.add_argument(
        "--with-type", action="store_true", help="Tell the verifier each question's HotpotQA type."
    )
    parser.set_defaults(func=_command)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark on its own: `python -m graph.evaluation.verifier_bench`."""
    parser = argparse.ArgumentParser(prog="verifier-bench")
    register(parser.add_subparsers(dest="bench", required=True))
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
