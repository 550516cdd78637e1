"""Choose the Wikipedia source a run's settings name.

The live source is imported only when a run asks for it: at the top it would add about
67 ms (httpx) to every run on the offline snapshot (python -X importtime).
"""

from __future__ import annotations

from typing import Any

from tools.wikipedia.base import WikiSource
from tools.wikipedia.snapshot import shared_snapshot


def make_source(settings: Any) -> WikiSource:
    """`snapshot` (offline, the default) or `live` (the MediaWiki API)."""
    source = getattr(settings, "source", "snapshot")
    if source == "snapshot":
        return shared_snapshot()
    if source == "live":
        from tools.wikipedia.live import LiveSource

        return LiveSource(
            lang=getattr(settings, "lang", "en") or "en",
            api_url=getattr(settings, "wiki_api_url", "") or None,
            user_agent=getattr(settings, "user_agent", "") or None,
            timeout_s=getattr(settings, "live_timeout_s", 10.0),
            max_attempts=getattr(settings, "live_attempts", 4),
        )
    raise ValueError(f"unknown Wikipedia source {source!r}: expected 'snapshot' or 'live'")
