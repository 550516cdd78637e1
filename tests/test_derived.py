"""Values derived once per item of the append-only lists, never stale after a fork or resume."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from graph.core.derived import PrefixCache
from graph.core.state import Step
from graph.core.trajectory import (
    add_evidence,
    build_messages,
    find_repeat,
    fingerprint,
    render_step,
)
from graph.prompts import render
from graph.settings.context import WikipediaContext
from tools.base import Evidence, EvidenceDraft, Verdict
from tools.wikipedia.base import FetchResult
from tools.wikipedia.environment import WikipediaEnvironment


class Counting:
    """A derive function that counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, item: dict[str, Any]) -> str:
        self.calls += 1
        return str(item["n"] % 3)


def items(count: int) -> list[dict[str, Any]]:
    return [{"n": n} for n in range(count)]


def test_each_item_is_derived_once_as_the_list_grows() -> None:
    derive = Counting()
    cache = PrefixCache(derive)
    grown = items(1)
    for n in range(1, 50):
        grown = [*grown, {"n": n}]
        assert cache.of(grown).values() == [str(i % 3) for i in range(n + 1)]
    assert derive.calls == 50


def test_a_fork_with_other_items_after_a_shared_prefix_is_derived_afresh() -> None:
    derive = Counting()
    cache = PrefixCache(derive)
    trunk = items(10)
    cache.of(trunk)
    fork = [*trunk[:4], {"n": 100}, {"n": 101}]
    derived = cache.of(fork)
    assert derived.values() == ["0", "1", "2", "0", "1", "2"]
    assert derived.positions("1") == [1, 4]
    assert cache.of(trunk).positions("1") == [1, 4, 7]


def test_equal_items_from_another_process_give_the_same_values() -> None:
    cache = PrefixCache(Counting())
    original = items(12)
    resumed = copy.deepcopy(original)
    assert cache.of(resumed).values() == cache.of(original).values()


def test_a_reader_sees_nothing_past_its_own_list() -> None:
    cache = PrefixCache(Counting())
    short = items(5)
    early = cache.of(short)
    cache.of([*short, *items(20)[5:]])
    assert len(early) == 5 and early.positions("0") == [0, 3]
    assert early.values() == ["0", "1", "2", "0", "1"]


def test_a_shorter_list_of_the_same_items_reads_the_longer_entry() -> None:
    derive = Counting()
    cache = PrefixCache(derive)
    full = items(30)
    cache.of(full)
    assert cache.of(full[:7]).values() == [str(i % 3) for i in range(7)]
    assert derive.calls == 30


def reference_trajectory(steps: list[Step]) -> str:
    """The trajectory rendered from scratch, as before the cache."""
    return "".join(render_step(step) for step in steps)


def step(index: int, observation: str, thought: str = "t") -> Step:
    return Step(
        index=index, thought=thought, action_text=f"Search[{index}]", observation=observation
    )


class NoPages:
    """A source for tests that only render prompts: opening a page is a bug."""

    name = "none"

    def fetch(self, title: str) -> FetchResult:
        raise AssertionError(f"rendering a prompt opened {title!r}")


def no_verdict(question: str, answer: str, evidence: Sequence[Evidence]) -> Verdict:
    """A checker for tests that only render prompts: checking an answer is a bug."""
    raise AssertionError("rendering a prompt checked an answer")


def test_prompts_match_a_full_render_through_growth_forks_and_resumes() -> None:
    env = WikipediaEnvironment(source=NoPages(), checker=no_verdict)
    ctx = WikipediaContext()
    steps: list[Step] = []
    for index in range(1, 30):
        steps = [*steps, step(index, f"line {index}\nsecond", thought="" if index % 5 else "t")]
        fork = [*steps[:-1], step(index, "another observation")]
        for current in (steps, fork, copy.deepcopy(steps)):
            human = build_messages(env, ctx, "Q?", current)[1].content
            expected = render("turn.txt", question="Q?", trajectory=reference_trajectory(current))
            assert human == expected


def test_stored_evidence_is_reused_by_source_and_text_after_a_resume() -> None:
    draft = EvidenceDraft(
        text="A.", tool="wikipedia", source={"title": "T", "sentence_index": 0}, facts={}
    )
    stored, first_ids = add_evidence([], [draft])
    assert first_ids == ["E1"]
    other = EvidenceDraft(
        text="B.", tool="wikipedia", source={"title": "T", "sentence_index": 1}, facts={}
    )
    more, more_ids = add_evidence(stored, [other, draft])
    assert [item["id"] for item in more] == ["E2"] and more_ids == ["E2", "E1"]
    resumed = copy.deepcopy([*stored, *more])
    again, again_ids = add_evidence(resumed, [draft, other])
    assert again == [] and again_ids == ["E1", "E2"]


def test_a_repeat_is_found_among_the_tool_steps_with_the_same_key() -> None:
    done = [
        Step(index=1, kind="tool", repeat_key="Search:a", state_before="s0", state_after="s1"),
        Step(index=2, kind="repeat", repeat_key="Search:a"),
        Step(index=3, kind="tool", repeat_key="Lookup:b", state_before="s1", state_after="s1"),
    ]
    current = {"page": "x"}
    done[0]["state_after"] = fingerprint(current)
    assert find_repeat(done, "Search:a", current, reads_state=False) is done[0]
    assert find_repeat(done, "Search:a", current, reads_state=True) is None
    assert find_repeat(done[1:], "Search:a", current, reads_state=False) is None
