"""What one verification shares with the others on the same evidence and question.

An agent verifies many answers against one episode's stored evidence and question,
so what depends only on those is kept, per evidence (`Stored`) and per question
(`Scope`), instead of being computed again for each answer: the sentences by page,
the trusted ones, all of them folded, which pages relate to the question and the
reader that measures ties. Both memos are bounded (least recently used), keyed on
immutable values, and hold only values that are pure functions of their key, so
threads that fill one at once can only store the same value twice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from graph.verifier.answer_types import NameLexicon
from graph.verifier.matching import Item

if TYPE_CHECKING:
    from graph.verifier.reader import Reader

KEPT_EVIDENCE = 256
KEPT_SCOPES = 256


class Stored:
    """One evidence list's sentences by page, the trusted ones (filled as pages are
    asked for) and the folded text of all of them (made when first asked for)."""

    __slots__ = ("all_text", "by_page", "items", "trusted")

    def __init__(self, items: tuple[Item, ...]) -> None:
        self.items = items
        by_page: dict[str, list[Item]] = {}
        for item in items:
            by_page.setdefault(item.page, []).append(item)
        self.by_page = by_page
        self.trusted: dict[str, list[Item]] = {}
        self.all_text: str | None = None


@lru_cache(maxsize=KEPT_EVIDENCE)
def stored(items: tuple[Item, ...]) -> Stored:
    """The shared view of one evidence list."""
    return Stored(items)


class Scope:
    """One evidence list read for one question (less the answer's own words, which
    `wanted` and `names` already leave out): which pages are directly related, which are
    linked, which related, and the reader (each filled when first asked for)."""

    __slots__ = ("direct", "linked", "reader", "related", "stored")

    def __init__(self, evidence: Stored) -> None:
        self.stored = evidence
        self.direct: dict[str, bool] = {}
        self.related: dict[str, bool] = {}
        self.linked: frozenset[str] | None = None
        self.reader: Reader | None = None


@lru_cache(maxsize=KEPT_SCOPES)
def scope(
    question: str,
    items: tuple[Item, ...],
    wanted: frozenset[str],
    names: frozenset[str],
    lexicon: NameLexicon | None,
) -> Scope:
    """The shared reading of an evidence list for a question and a lexicon."""
    return Scope(stored(items))
