"""Fencing tokens: a process that lost its thread's lease never writes again.

Taking a thread's lease yields a token that grows with every take-over
(`graph.store.leases`). Each write a holder makes carries its token and is
checked in the same transaction: a newer token for the thread refuses it with
`TakenOverError`. The library database keeps the highest token it has seen
per thread (`thread_fences`), so its writes are fenced the same way.

SQLAlchemy is imported inside `check_fence`: every CLI command imports this module
(through `graph.errors`), and at the top it would add about 0.17 s to `react-agent
--help`, which takes 0.2 s (python -X importtime).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sqlalchemy import Connection

TAKEN_OVER = (
    "thread {thread_id} was taken over by another process at {at}; "
    "this process stopped without writing"
)
FENCES_TABLE = (
    "CREATE TABLE IF NOT EXISTS thread_fences (thread_id TEXT PRIMARY KEY,"
    " token BIGINT NOT NULL, since TEXT NOT NULL)"
)
RAISE_FENCE = (
    "INSERT INTO thread_fences (thread_id, token, since) VALUES (:thread_id, :token, :since)"
    " ON CONFLICT (thread_id) DO UPDATE SET token = excluded.token, since = excluded.since"
    " WHERE excluded.token > thread_fences.token"
)
READ_FENCE = "SELECT token, since FROM thread_fences WHERE thread_id = :thread_id"


class TakenOverError(ValueError):
    """A write of a process whose thread was taken over by another one: refused."""

    def __init__(self, thread_id: str, at: str) -> None:
        super().__init__(TAKEN_OVER.format(thread_id=thread_id, at=at or "an unknown time"))
        self.thread_id = thread_id


def check_fence(conn: Connection, thread_id: str, token: int | None, now: str) -> None:
    """In the caller's write transaction: record `token` as the thread's newest, or raise
    `TakenOverError` when a newer one wrote here before (the caller's transaction then
    rolls back). Nothing is checked without a token (a write made outside a lease)."""
    if token is None or not thread_id:
        return
    from sqlalchemy import text

    conn.execute(text(FENCES_TABLE))
    params = {"thread_id": thread_id, "token": token, "since": now}
    conn.execute(text(RAISE_FENCE), params)
    row = conn.execute(text(READ_FENCE), params).first()
    if row is not None and int(row[0]) > token:
        raise TakenOverError(thread_id, str(row[1]))
