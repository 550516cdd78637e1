"""Direct SQL on a library database (SQLite file or PostgreSQL URL), for tests that look
underneath the backend."""

from __future__ import annotations

from typing import Any

from sqlalchemy import inspect, text

from tools.library.engines import engine_for, parse_location


def fetch(location: str, sql: str, **params: Any) -> list[tuple[Any, ...]]:
    """The rows of one statement."""
    with engine_for(parse_location(location)).connect() as conn:
        return [tuple(row) for row in conn.execute(text(sql), params)]


def tables(location: str) -> set[str]:
    """The database's table names."""
    with engine_for(parse_location(location)).connect() as conn:
        return set(inspect(conn).get_table_names())
