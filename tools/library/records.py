"""The library backend's results: frozen records of places, copies, hours, reservations."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Place:
    """A campus place; branches are places too (`is_branch`)."""

    place_id: str
    name: str
    name_zh: str
    aliases: tuple[str, ...]
    is_branch: bool

    @property
    def label(self) -> str:
        """'West Library (西馆)'."""
        return f"{self.name} ({self.name_zh})"


@dataclass(frozen=True)
class CopyRef:
    """A copy as the catalogue lists it: where it is held, not its status."""

    copy_id: str
    branch: Place


@dataclass(frozen=True)
class CatalogueRecord:
    """One catalogue record: a title in one medium, with its copies."""

    record_id: str
    title: str
    title_en: str
    author: str
    year: int
    medium: str
    note: str
    copies: tuple[CopyRef, ...]


@dataclass(frozen=True)
class SearchResult:
    """Records matching a title query (at most `SEARCH_LIMIT`), or similar titles."""

    records: tuple[CatalogueRecord, ...]
    total: int
    similar: tuple[str, ...]


@dataclass(frozen=True)
class CopyStatus:
    """A copy's status at `as_of`; `live` is False for a value from the status cache."""

    copy_id: str
    record_id: str
    title: str
    title_en: str
    medium: str
    branch: Place
    shelf: str
    status: str
    due: str | None
    held_for_patron: bool | None
    as_of: str
    live: bool


@dataclass(frozen=True)
class Hours:
    """A branch's hours on one date; `closed_reason` set means closed all day."""

    branch: Place
    date: str
    closed_reason: str | None
    building: tuple[str, str] | None
    desk: tuple[str, str] | None
    note: str


@dataclass(frozen=True)
class Reservation:
    """A row of the reservations table."""

    reservation_id: int
    idempotency_key: str
    patron_id: str
    copy_id: str
    created_at: str


@dataclass(frozen=True)
class ReserveResult:
    """What `reserve` did: made a reservation, found this key's earlier one, or refused."""

    outcome: Literal["reserved", "existing", "refused"]
    reason: str
    reservation: Reservation | None
    copy: CopyStatus | None
