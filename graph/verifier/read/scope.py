"""What one verification shares with the others on the same evidence and question.

An agent verifies many answers against one episode's stored evidence and question,
so what depends only on those is kept per (question, evidence) in a `Scope`
instead of being computed again for each answer: the sentences by page, the
trusted ones, which pages relate to the question and the reader that measures
ties. Each is filled when a check first needs it. The scopes are
bounded (least recently used), keyed on immutable values, and hold only values
that are pure functions of their key, so threads that fill one at once can only
store the same value twice.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from graph.verifier.evidence.matching import Item
from graph.verifier.kinds.answer_types import NameLexicon

if TYPE_CHECKING:
    from graph.verifier.kinds.namesakes import Described
    from graph.verifier.read.reader import Reader

KEPT_SCOPES = 256


class Scope:
    """One evidence list read for one question (less the answer's own words, which
    `wanted` and `names` already leave out): its sentences by page and the trusted ones
    (filled as pages are asked for), which pages are directly related, linked or
    related, the namesake pages and the reader."""

    __slots__ = (
        "_by_page",
        "direct",
        "items",
        "linked",
        "namesakes",
        "reader",
        "related",
        "trusted",
    )

    def __init__(self, items: tuple[Item, ...]) -> None:
        self.items = items
        self._by_page: dict[str, list[Item]] | None = None
        self.trusted: dict[str, list[Item]] = {}
        self.direct: dict[str, bool] = {}
        self.related: dict[str, bool] = {}
        self.linked: frozenset[str] | None = None
        self.namesakes: dict[str, Described] | None = None
        self.reader: Reader | None = None

    @property
    def by_page(self) -> dict[str, list[Item]]:
        """The stored sentences by page."""
        if self._by_page is None:
            by_page: dict[str, list[Item]] = {}
            for item in self.items:
                by_page.setdefault(item.page, []).append(item)
            self._by_page = by_page
        return self._by_page


@lru_cache(maxsize=KEPT_SCOPES)
def scope(
    question: str,
    items: tuple[Item, ...],
    wanted: frozenset[str],
    names: frozenset[str],
    lexicon: NameLexicon | None,
) -> Scope:
    """The shared reading of an evidence list for a question and a lexicon."""
    return Scope(items)
