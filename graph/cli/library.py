"""`react-agent library reset`: the demo library database, afresh.

The library database module is imported inside `library reset`: at the top it would add
about 0.37 s (SQLAlchemy) to every command's start-up (`react-agent --help` takes 0.2 s;
python -X importtime).
"""

from __future__ import annotations

import argparse
from typing import Any

from graph.settings.library_rules import check_library_db
from graph.settings.validation import SettingsError

RESET = "Reset the library database {path}: the seed's catalogue, no reservations, no audit rows."


def cmd_library_reset(args: argparse.Namespace) -> int:
    """Delete the library database (reservations and audit log too) and load the seed again."""
    from tools.library.db import default_db_path, reset_database

    problem = check_library_db(args.library_db or "")
    if problem:
        raise SettingsError(f"--library-db: {problem}")
    location = reset_database(args.library_db or default_db_path())
    print(RESET.format(path=location))
    return 0


def register(commands: Any) -> None:
    """Add `react-agent library reset [--library-db FILE]` to the CLI's subcommands."""
    library = commands.add_parser("library", help="the campus-library demo database")
    actions = library.add_subparsers(dest="library_command", required=True)
    reset = actions.add_parser(
        "reset",
        help="recreate the demo library database from the seed (drops reservations and the "
        "audit log)",
    )
    reset.add_argument(
        "--library-db",
        metavar="FILE|URL",
        help="library database: an SQLite file (default: library.sqlite3 under the user's "
        "state directory) or a postgresql:// URL",
    )
    reset.set_defaults(func=cmd_library_reset)
