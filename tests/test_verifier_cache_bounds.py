"""Every cache of the verifier is bounded by the sizes in `cache_sizes`: a long-running
process that reads many distinct pages keeps only recent results, not a million."""

from __future__ import annotations

from graph.verifier.caches import verifier_caches
from graph.verifier.text.cache_sizes import TEXTS, WORDS


def test_no_cache_of_the_verifier_grows_past_its_bound() -> None:
    caches = verifier_caches()
    assert len(caches) > 40, "the verifier's caches were not found"
    unbounded = {
        name: cache.cache_parameters()["maxsize"]
        for name, cache in caches.items()
        if (cache.cache_parameters()["maxsize"] or WORDS + 1) > max(TEXTS, WORDS)
    }
    assert not unbounded
