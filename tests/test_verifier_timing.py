"""How the verifier bench times its calls: each case's fastest of several cold runs."""

from __future__ import annotations

import gc
from collections.abc import Sequence

from graph.evaluation.verifier_timing import empty_caches, fastest_calls, harness_frozen
from graph.verifier import verify_answer
from graph.verifier.caches import verifier_caches
from tools.base import Evidence

EVIDENCE = [
    Evidence(
        id="e1",
        text="Ada Lovelace was born in London in 1815.",
        tool="Search",
        source={"title": "Ada Lovelace", "sentence_index": 0},
        facts={},
        retrieved_at="2026-12-07T00:00:00Z",
    )
]


def test_every_run_starts_from_empty_caches() -> None:
    verify_answer("Where was Ada Lovelace born?", "London", EVIDENCE)
    assert any(cache.cache_info().currsize for cache in verifier_caches().values())
    empty_caches()
    assert not any(cache.cache_info().currsize for cache in verifier_caches().values())


def test_each_case_keeps_its_fastest_call_and_sees_every_run() -> None:
    calls: list[str] = []
    sizes: list[int] = []

    def call(case: str) -> None:
        if case == "a":
            sizes.append(sum(cache.cache_info().currsize for cache in verifier_caches().values()))
        calls.append(case)
        verify_answer("Where was Ada Lovelace born?", "London", EVIDENCE)

    shown: list[str] = []

    def progress(cases: Sequence[str], desc: str) -> Sequence[str]:
        shown.append(desc)
        return cases

    fastest = fastest_calls(["a", "b"], call, [10.0, 0.0], runs=3, progress=progress)
    assert calls == ["a", "b", "a", "b"]
    assert shown == ["timing run 2/3", "timing run 3/3"]
    assert sizes == [0, 0]  # each later run starts cold, as the first did
    assert 0 < fastest[0] < 10.0 and fastest[1] == 0.0


def test_the_harness_is_frozen_only_while_timed() -> None:
    with harness_frozen():
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
