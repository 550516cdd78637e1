"""Values derived from the state's append-only lists, computed once per item.

`steps` and `evidence` only grow, and each turn needs something that depends
on all of their items: the rendered trajectory, the evidence fingerprints,
the past actions by repeat key. A `PrefixCache` keeps, per list, the items it
last saw, one derived value per item and an index from value to positions,
and derives only the new items.

An entry is found by the identity of the list's first item (the entry holds
that item, so no other object can take its id while the entry lives) and
used only when the items it saw and the current list are one a prefix of the
other, compared by content (at C speed, since within one process the items
are the same objects). A fork, an edit, an overwritten list or a resume in
another process therefore never reads a stale entry: it derives the list
afresh, once. Readers get a `Derived` bounded to their own list's length, so
an entry that a longer list extends meanwhile shows them nothing beyond it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")
Value = TypeVar("Value", bound=Hashable)
DEFAULT_CAPACITY = 64


class _Entry(Generic[Item, Value]):
    __slots__ = ("index", "seen", "values")

    def __init__(self) -> None:
        self.seen: list[Item] = []
        self.values: list[Value] = []
        self.index: dict[Value, list[int]] = {}


class Derived(Generic[Value]):
    """The values derived from the first `length` items of a list, one per item."""

    __slots__ = ("_entry", "length")

    def __init__(self, entry: _Entry[Any, Value], length: int) -> None:
        self._entry = entry
        self.length = length

    def __len__(self) -> int:
        return self.length

    def values(self) -> list[Value]:
        """The derived values, in the list's order."""
        return self._entry.values[: self.length]

    def positions(self, value: Value) -> list[int]:
        """The positions of the items whose derived value is `value`, in order."""
        return [at for at in self._entry.index.get(value, ()) if at < self.length]


class PrefixCache(Generic[Item, Value]):
    """`derive(item)` for every item of append-only lists, each item derived once.

    `indexed` keeps the value-to-positions index that `Derived.positions` reads.
    """

    def __init__(
        self,
        derive: Callable[[Item], Value],
        *,
        indexed: bool = True,
        capacity: int = DEFAULT_CAPACITY,
    ) -> None:
        self._derive = derive
        self._indexed = indexed
        self._capacity = capacity
        self._entries: OrderedDict[int, _Entry[Item, Value]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, items: Sequence[Item]) -> Derived[Value]:
        """The derived values of `items`, deriving only the items not seen before."""
        current = items if isinstance(items, list) else list(items)
        if not current:
            return Derived(_Entry(), 0)
        key = id(current[0])
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or not (
                _is_prefix(current, entry.seen) or _is_prefix(entry.seen, current)
            ):
                entry = _Entry()
            new = [self._derive(item) for item in current[len(entry.seen) :]]
            for at, value in enumerate(new, start=len(entry.values)):
                entry.values.append(value)
                if self._indexed:
                    entry.index.setdefault(value, []).append(at)
            if len(current) > len(entry.seen):
                entry.seen = list(current)
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self._capacity:
                self._entries.popitem(last=False)
            return Derived(entry, len(current))

    def clear(self) -> None:
        """Forget every entry."""
        with self._lock:
            self._entries.clear()


def _is_prefix(shorter: list[Any], longer: list[Any]) -> bool:
    """Whether `shorter` is a prefix of `longer` (same values, usually the same objects)."""
    return len(shorter) <= len(longer) and longer[: len(shorter)] == shorter
