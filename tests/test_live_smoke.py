"""One fetch from the real Wikipedia; opt-in with REACT_AGENT_LIVE=1 (it needs the network)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tools.wikipedia.live import LiveSource

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(
        os.environ.get("REACT_AGENT_LIVE") != "1",
        reason="talks to the real en.wikipedia.org; set REACT_AGENT_LIVE=1 to run it",
    ),
]


def test_real_page_opens_and_a_repeat_is_served_from_cache(tmp_path: Path) -> None:
    with LiveSource(lang="en", cache_file=tmp_path / "live.sqlite3") as source:
        first = source.fetch("Christopher Nolan")
        second = source.fetch("Christopher Nolan")

    assert first.error is None, first.error
    assert first.page is not None and first.page.title == "Christopher Nolan"
    assert len(first.page.sentences) > 20
    assert any("Nolan" in sentence for sentence in first.page.sentences[:3])
    assert first.page.sections, "a full article has section headings"
    assert first.requests >= 1
    assert (second.requests, second.cache_hits) == (0, 1)
    assert second.page == first.page
