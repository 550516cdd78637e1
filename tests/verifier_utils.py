"""Stored evidence from real snapshot pages, and checks on the verdicts built from it."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

from graph.verifier import GROUNDING_NONE, verify_answer
from graph.verifier.kinds.lexicon import Lexicon
from graph.verifier.kinds.lexicon_store import snapshot_lexicon
from tools.base import Evidence, Verdict
from tools.wikipedia.snapshot import SnapshotSource, shared_snapshot

RETRIEVED_AT = "2026-01-01T00:00:00Z"
BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def benchmark_script(name: str) -> ModuleType:
    """`benchmarks/NAME.py`, loaded as a module (the scripts are no package)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Store:
    """Builds stored evidence from snapshot pages, numbering ids as the state would."""

    def __init__(self, snapshot: SnapshotSource | None = None) -> None:
        self.snapshot = snapshot or shared_snapshot()
        self.evidence: list[Evidence] = []

    def add(self, title: str, *indexes: int) -> list[str]:
        """Store sentences of a real page; return their ids."""
        page = self.snapshot.page(title)
        assert page is not None, f"snapshot lacks {title!r}"
        return [self.add_text(page.title, page.sentences[i], i) for i in indexes]

    def search(self, title: str) -> list[str]:
        """Store what Search[title] stores: the page's first five sentences."""
        page = self.snapshot.page(title)
        assert page is not None, f"snapshot lacks {title!r}"
        return self.add(title, *range(min(5, len(page.sentences))))

    def add_text(self, title: str, text: str, index: int = 0) -> str:
        """Store one sentence as a tool returned it (an injected one, say)."""
        evidence_id = f"e{len(self.evidence) + 1}"
        self.evidence.append(
            Evidence(
                id=evidence_id,
                text=text,
                tool="Search",
                source={"title": title, "sentence_index": index},
                facts={},
                retrieved_at=RETRIEVED_AT,
            )
        )
        return evidence_id


def check(
    store: Store,
    question: str,
    answer: str,
    question_type: str | None = None,
    *,
    lexicon: bool = True,
) -> Verdict:
    """The verdict as the agent gets it (no judge); `lexicon` off leaves out the snapshot's
    leads (an empty lexicon)."""
    verdict = verify_answer(
        question,
        answer,
        store.evidence,
        question_type=question_type,
        lexicon=snapshot_lexicon() if lexicon else Lexicon([]),
    )
    assert set(verdict) == set(Verdict.__annotations__)
    assert verdict["reason"].strip()
    return verdict


def supported(verdict: Verdict, grounding: str, ids: Iterable[str]) -> None:
    assert verdict["supported"], verdict["reason"]
    assert verdict["grounding"] == grounding
    assert verdict["missing"] == []
    assert set(ids) <= set(verdict["evidence_ids"])


def rejected(verdict: Verdict, *reason_words: str) -> None:
    """A definite failure: rejected, citing nothing."""
    assert verdict["outcome"] == "rejected", (verdict["outcome"], verdict["reason"])
    assert not verdict["supported"]
    assert verdict["grounding"] == GROUNDING_NONE
    assert verdict["evidence_ids"] == []
    for word in reason_words:
        assert word in verdict["reason"], verdict["reason"]


def grounded(verdict: Verdict, *reason_words: str) -> None:
    """Stated (or undecided), not contradicted, but not tied: grounded, saying why."""
    assert verdict["outcome"] == "grounded", (verdict["outcome"], verdict["reason"])
    assert not verdict["supported"]
    for word in reason_words:
        assert word in verdict["reason"], verdict["reason"]


def not_verified(verdict: Verdict, *reason_words: str) -> None:
    """Grounded or rejected, never verified."""
    assert verdict["outcome"] != "verified", verdict["reason"]
    assert not verdict["supported"]
    for word in reason_words:
        assert word in verdict["reason"], verdict["reason"]


def stated(verdict: Verdict, ids: Iterable[str]) -> None:
    """Found where the evidence states it, and not turned away (verified or grounded)."""
    assert verdict["outcome"] in ("verified", "grounded"), verdict["reason"]
    assert set(ids) <= set(verdict["evidence_ids"]), verdict["evidence_ids"]


class Leads:
    """A lexicon that knows one lead sentence per name."""

    def __init__(self, leads: dict[str, str]) -> None:
        self.leads = leads

    def describe(self, name: str) -> Sequence[str]:
        return (self.leads[name],) if name in self.leads else ()

    def guess(self, name: str) -> str | None:
        return None

    def __hash__(self) -> int:
        return id(self)
