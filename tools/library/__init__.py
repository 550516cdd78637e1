"""The campus-library environment: its backend (SQLite or PostgreSQL), tools, completion check."""

from tools.library.completion import answer_caveat, check_completion
from tools.library.db import audit_log, default_db_path, ensure_database, reservations
from tools.library.environment import LibraryEnvironment

__all__ = [
    "LibraryEnvironment",
    "answer_caveat",
    "audit_log",
    "check_completion",
    "default_db_path",
    "ensure_database",
    "reservations",
]
