"""One set of stored sentences, with what depends on it alone: its pages, the trusted
sentences of each, all its text folded, which sentences may state a text, and which
pages are linked to a given set of pages.

A question's candidate answers are checked one after another against the same stored
evidence (the agent's retries, the benchmark's cases), so this is kept per set of
sentences (`stored_evidence`) and shared by those checks; every entry is a pure
function of the sentences and its key, so a verdict never depends on what was checked
before.
"""

from __future__ import annotations

from functools import cached_property, lru_cache

from graph.verifier.matching import Item, pages_linked, probe_of
from graph.verifier.normalise import Text, plain

EVIDENCE_SETS_KEPT = 64


class StoredEvidence:
    """The stored sentences of one evidence set, analysed as checks need them."""

    def __init__(self, items: tuple[Item, ...]) -> None:
        self.items = list(items)
        self._trusted: dict[str, list[Item]] = {}
        self._stating: dict[str, list[Item]] = {}
        self._linked: dict[frozenset[str], frozenset[str]] = {}

    @cached_property
    def by_page(self) -> dict[str, list[Item]]:
        by_page: dict[str, list[Item]] = {}
        for item in self.items:
            by_page.setdefault(item.page, []).append(item)
        return by_page

    def page_items(self, page: str) -> list[Item]:
        """The trusted stored sentences of a page (read only when a check needs them)."""
        if page not in self._trusted:
            self._trusted[page] = [item for item in self.by_page.get(page, ()) if item.trusted]
        return self._trusted[page]

    @cached_property
    def pages(self) -> dict[str, list[Item]]:
        """The trusted stored sentences by page (pages with none left out)."""
        return {page: self.page_items(page) for page in self.by_page if self.page_items(page)}

    @cached_property
    def all_text(self) -> str:
        """Every stored sentence and title, folded as `plain` folds each."""
        return "\n".join(f"{plain(item.raw)}\n{plain(item.title)}" for item in self.items)

    def may_state(self, probe: str | None) -> bool:
        """Whether any stored sentence or title can state a text with this probe."""
        return probe is None or probe in self.all_text

    def stating(self, needle: Text) -> list[Item]:
        """The trusted sentences that may state `needle` (cheap filters first)."""
        if needle.padded not in self._stating:
            probe = probe_of(needle)
            self._stating[needle.padded] = (
                [item for item in self.items if item.may_contain(probe) and item.trusted]
                if self.may_state(probe)
                else []
            )
        return self._stating[needle.padded]

    def linked_to(self, related: frozenset[str]) -> frozenset[str]:
        """`related` and the pages linked to it, step by step: one names the other's title,
        or both name the same capitalised two-word name."""
        if related not in self._linked:
            found = set(related)
            pending = set(self.pages) - found
            while pending and found:
                linked = {
                    page
                    for page in pending
                    if any(pages_linked(self.pages[page], self.pages[other]) for other in found)
                }
                if not linked:
                    break
                found |= linked
                pending -= linked
            self._linked[related] = frozenset(found)
        return self._linked[related]


@lru_cache(maxsize=EVIDENCE_SETS_KEPT)
def stored_evidence(items: tuple[Item, ...]) -> StoredEvidence:
    """The analysis of a set of stored sentences, shared by the checks made against it."""
    return StoredEvidence(items)
