"""The throwaway PostgreSQL server the PostgreSQL tests run against."""

from __future__ import annotations

import psycopg
import pytest

pytestmark = pytest.mark.postgres


def test_each_test_gets_its_own_empty_database(postgres_url: str) -> None:
    with psycopg.connect(postgres_url) as conn:
        conn.execute("CREATE TABLE marker (x int)")
        tables = conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        ).fetchone()
    assert tables == (1,)
    assert "127.0.0.1" in postgres_url
