"""The interface every Wikipedia source implements (offline snapshot, live API)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Section:
    """A section heading of a page and the index of its first sentence."""

    heading: str
    first_sentence: int


@dataclass(frozen=True)
class Page:
    """A Wikipedia page split into sentences.

    `sentences` keep the page's order; `sections` are empty for the snapshot
    (it holds lead paragraphs only). `redirected_from` names the title the
    caller asked for when the source followed a redirect.
    """

    title: str
    sentences: tuple[str, ...]
    sections: tuple[Section, ...] = ()
    redirected_from: str | None = None


@dataclass(frozen=True)
class FetchResult:
    """The answer to "open the page with this title".

    Exactly one of these holds: `page` is set (the page exists), `ambiguous`
    lists the options of a disambiguation page, `error` says why the source
    could not answer, or none of them is set and `similar` lists titles a
    full-text search found (possibly empty). `requests` counts the HTTP
    requests this call made and `cache_hits` the answers served from cache.
    """

    page: Page | None = None
    similar: tuple[str, ...] = ()
    ambiguous: tuple[str, ...] = ()
    error: str | None = None
    requests: int = 0
    cache_hits: int = 0
    notes: tuple[str, ...] = field(default_factory=tuple)


class WikiSource(Protocol):
    """Where pages come from."""

    name: str

    def fetch(self, title: str) -> FetchResult:
        """Open the page with this title, or say what is similar."""
        ...
