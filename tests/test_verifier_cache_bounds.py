"""Every cache of the verifier is bounded by the sizes in `cache_sizes`: a long-running
process that reads many distinct pages keeps only recent results, not a million."""

from __future__ import annotations

import functools
import importlib
import pkgutil

import graph.verifier
from graph.verifier.text.cache_sizes import TEXTS, WORDS


def _caches() -> dict[str, functools._lru_cache_wrapper[object]]:
    found = {}
    for module_info in pkgutil.walk_packages(graph.verifier.__path__, "graph.verifier."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            defined_here = getattr(value, "__module__", None) == module.__name__
            if defined_here and isinstance(value, functools._lru_cache_wrapper):
                found[f"{module.__name__}.{name}"] = value
    return found


def test_no_cache_of_the_verifier_grows_past_its_bound() -> None:
    caches = _caches()
    assert len(caches) > 40, "the verifier's caches were not found"
    unbounded = {
        name: cache.cache_parameters()["maxsize"]
        for name, cache in caches.items()
        if (cache.cache_parameters()["maxsize"] or WORDS + 1) > max(TEXTS, WORDS)
    }
    assert not unbounded
