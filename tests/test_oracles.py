"""The gold reader: it looks up the supporting sentences Search does not show, and its
right answers end verified or grounded through the real graph, never rejected."""

from __future__ import annotations

import json
from pathlib import Path

from graph.evaluation.hotpot import load_questions
from graph.evaluation.oracles import keyword_for, reader_script
from graph.evaluation.qa_bench import BenchConfig, run_qa_bench
from tools.wikipedia.environment import SEARCH_SENTENCES
from tools.wikipedia.lookup import find_matches
from tools.wikipedia.snapshot import shared_snapshot


def test_each_keyword_finds_its_sentence_first() -> None:
    found = 0
    for record in load_questions()[:200]:
        for title, index in record["supporting_facts"]:
            page = shared_snapshot().page(title)
            if page is None or not SEARCH_SENTENCES <= index < len(page.sentences):
                continue
            keyword = keyword_for(page, index)
            assert keyword is None or find_matches(page, keyword)[0] == index
            found += keyword is not None
    assert found > 5


def test_the_script_searches_looks_up_then_finishes() -> None:
    record = next(
        q for q in load_questions() if any(i >= SEARCH_SENTENCES for _, i in q["supporting_facts"])
    )
    script = reader_script(record)
    assert script[0].endswith(f"Search[{record['supporting_facts'][0][0]}]")
    assert any("Lookup[" in reply for reply in script)
    assert script[-1].endswith(f"Finish[{record['answer']}]")


def test_right_answers_end_verified_or_grounded(tmp_path: Path) -> None:
    settings = BenchConfig(
        out=tmp_path / "gold",
        model="graph.evaluation.oracles:hotpot_reader_model",
        methods=("react+verify",),
        n=12,
        seeds=1,
        concurrency=2,
    )
    run_qa_bench(settings, progress=False)
    lines = (tmp_path / "gold" / "episodes.jsonl").read_text(encoding="utf-8").splitlines()
    statuses = [json.loads(line)["status"] for line in lines]
    assert len(statuses) == 12 and set(statuses) <= {"verified", "grounded"}
