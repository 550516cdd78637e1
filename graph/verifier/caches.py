"""The verifier's caches, each module's `lru_cache` functions, found by importing every
module of the package (benchmarks and tests read and empty them; the bounds are in
`graph.verifier.text.cache_sizes`)."""

from __future__ import annotations

import functools
import importlib
import pkgutil
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the wrapper's type takes no parameter at run time
    Cache = functools._lru_cache_wrapper[Any]


def verifier_caches() -> dict[str, Cache]:
    """Every cache of the verifier's modules, by `module.function` name."""
    import graph.verifier

    found: dict[str, Cache] = {}
    for module_info in pkgutil.walk_packages(graph.verifier.__path__, "graph.verifier."):
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            defined_here = getattr(value, "__module__", None) == module.__name__
            if defined_here and isinstance(value, functools._lru_cache_wrapper):
                found[f"{module.__name__}.{name}"] = value
    return found
