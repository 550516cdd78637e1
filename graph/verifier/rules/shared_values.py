"""Values of "same <noun>?" comparisons that the names next to the noun do not give.

- "the same year": each entity's date (`graph.verifier.rules.compute.date_of`), by its year;
- "the same family" (or order): the scientific names a page gives, known by the endings
  the codes of nomenclature fix ("Cupressaceae", "Felidae"), wherever it writes them
  ("in the Cupressaceae (cypress family)", "the nightshade family, Solanaceae");

Each gives a value only when the page states one; an entity without one leaves the
comparison undecided (a word that is absent never makes it "no").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from graph.verifier.evidence.matching import Item
from graph.verifier.text.normalise import singular

# Endings of the scientific names of a rank: plant and animal families, orders of birds
# and fish.
_RANK_ENDINGS = {"family": ("aceae", "idae"), "order": ("iformes",)}
_SHORTEST_TAXON = 7
_CAPITALISED_WORD = re.compile(r"\b[A-Z][a-z]+\b")
DATE_NOUNS = frozenset({"year"})
# The sign of a comparison of values that asks whether they are the same.
SAME = 0
# "The same type of <noun>" asks about the noun ("the same type of work": a profession).
KIND_OF = frozenset((kind, "of") for kind in ("type", "kind", "sort", "line"))


def taxa(items: Iterable[Item], noun: str) -> frozenset[str]:
    """The scientific names of the rank `noun` the sentences write (none for another noun)."""
    endings = _RANK_ENDINGS.get(singular(noun), ())
    if not endings:
        return frozenset()
    return frozenset(
        word.casefold()
        for item in items
        for word in _CAPITALISED_WORD.findall(item.raw)
        if len(word) >= _SHORTEST_TAXON and word.endswith(endings)
    )
