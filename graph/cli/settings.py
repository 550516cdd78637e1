"""Run settings as flags (one per `Context` field) and the question as given.

The flags only parse; `graph.settings.validation` judges the values, for the CLI and
the server alike.

`graph.core.models` is imported inside `anchored`: at the top it would add about 0.65 s
(the chat-model stack) to every command's start-up (`react-agent --help` takes 0.2 s;
python -X importtime).
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Mapping, Sequence
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any, Literal, get_args, get_origin, get_type_hints
from urllib.parse import urlparse

from graph.settings.context import CONTEXT_TYPES, Context
from graph.settings.validation import MAX_QUESTION_CHARS, SettingsError, refuse_foreign
from graph.store.locations import anywhere
from graph.terminal import line

STDIN = "-"


def setting_fields() -> dict[str, tuple[Any, str, Any]]:
    """Every run setting: name -> (type, description, default)."""
    found: dict[str, tuple[Any, str, Any]] = {}
    for context_type in CONTEXT_TYPES.values():
        hints = get_type_hints(context_type)
        for item in fields(context_type):
            default = item.default if item.default is not MISSING else None
            found.setdefault(
                item.name, (hints[item.name], item.metadata.get("description", ""), default)
            )
    return found


def add_setting_flags(parser: argparse.ArgumentParser) -> None:
    """One flag per run setting, named after the Context field, default unset."""
    group = parser.add_argument_group("run settings (Studio shows the same ones)")
    for name, (kind, description, default) in setting_fields().items():
        choices = list(get_args(kind)) if get_origin(kind) is Literal else None
        converter = kind if kind in (int, float) else str
        help_text = description + (f" (default: {default})" if default not in (None, "") else "")
        group.add_argument(
            "--" + name.replace("_", "-"),
            dest=name,
            default=None,
            type=converter,
            choices=choices,
            help=help_text,
        )


def chosen_settings(args: argparse.Namespace) -> dict[str, Any]:
    """The settings flags the user gave."""
    return {
        name: getattr(args, name)
        for name in setting_fields()
        if getattr(args, name, None) is not None
    }


def settings_of(
    env_name: str, changes: dict[str, Any], stored: dict[str, Any] | None = None
) -> Context:
    """The run's settings: `stored` ones (a resumed thread's) with the flags' `changes`.

    A flag of the other environment is refused; stored keys it does not know are ignored.
    """
    context_type = CONTEXT_TYPES[env_name]
    refuse_foreign(env_name, context_type, changes)
    known = {item.name for item in fields(context_type)}
    merged = {key: value for key, value in (stored or {}).items() if key in known} | changes
    return context_type(**merged)


ENV_MISMATCH = "thread {thread_id} is a {env} episode, not {wanted}"


def thread_env(thread_id: str, stored: str | None, wanted: str | None) -> str:
    """A thread's environment: the one it stored, else `wanted` (`--env`), else
    wikipedia; a `wanted` one it is not is refused, by every command alike."""
    env_name = stored or wanted or "wikipedia"
    if wanted and wanted != env_name:
        raise SettingsError(ENV_MISMATCH.format(thread_id=thread_id, env=env_name, wanted=wanted))
    return env_name


def anchored(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The file-naming settings among `settings` (`model`, `judge`, `library_db`, `policy`,
    `mcp_db`, and the files a stdio `mcp` command names) with relative paths made absolute:
    a thread stores its settings, and a resume from another working directory must use the
    same files, not ones of the same name there."""
    from graph.core.models import model_files_anchored

    found: dict[str, Any] = {}
    for name in ("model", "judge"):
        value = settings.get(name)
        if isinstance(value, str) and value.strip():
            found[name] = model_files_anchored(value)
    for name in ("library_db", "mcp_db"):
        value = settings.get(name)
        if isinstance(value, str) and value.strip():
            found[name] = anywhere(value)
    value = settings.get("mcp")
    if isinstance(value, str) and value.strip():
        found["mcp"] = command_anchored(value)
    value = settings.get("policy")
    if isinstance(value, str) and value.strip():
        found["policy"] = str(Path(value).expanduser().absolute())
    return found


def command_anchored(command: str) -> str:
    """A stdio server's command line with each word naming an existing relative file made
    absolute (`python examples/notes_server.py` runs the same script from anywhere); a URL,
    or a line that is not one, as given."""
    if urlparse(command.strip()).scheme in ("http", "https"):
        return command
    try:
        words = shlex.split(command)
    except ValueError:
        return command
    if not any(not os.path.isabs(word) and os.path.isfile(word) for word in words):
        return command
    return shlex.join(
        os.path.abspath(word) if not os.path.isabs(word) and os.path.isfile(word) else word
        for word in words
    )


STDIN_CLOSED = "the question is '-' (read it from standard input), but standard input is closed"
STDIN_TOO_LONG = (
    "the question on standard input is longer than {limit:,} characters, the limit of every "
    "question (standard input too); ask about one thing at a time"
)
STDIN_NOT_TEXT = (
    "the question on standard input is not UTF-8 text (byte {at}); give the question as text"
)


def read_question(value: str) -> str:
    """The question argument, or standard input when it is `-`.

    Standard input is read only up to the bytes that could still make an
    acceptable question (UTF-8 takes at most 4 per character) plus one, so an
    endless stream cannot hang the command; validation refuses what is over.
    Input that is not UTF-8 (a binary file) is refused, not silently altered.
    """
    if value != STDIN:
        return value
    if sys.stdin is None:  # the shell closed it (`<&-`)
        raise SettingsError(STDIN_CLOSED)
    limit = 4 * MAX_QUESTION_CHARS
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise SettingsError(STDIN_TOO_LONG.format(limit=MAX_QUESTION_CHARS))
    try:
        question = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise SettingsError(STDIN_NOT_TEXT.format(at=error.start)) from None
    if len(question.strip()) > MAX_QUESTION_CHARS:
        raise SettingsError(STDIN_TOO_LONG.format(limit=MAX_QUESTION_CHARS))
    return question


NOT_TEXT_ARGUMENT = (
    "the argument '{shown}' is not UTF-8 text (\\xNN marks a byte that is not); "
    "type it as text, or rename a file whose name is not UTF-8"
)
SHOWN_CHARS = 80


def _bytes_shown(argument: str) -> str:
    """The argument with each byte that is not UTF-8 (a lone surrogate) as `\\xNN`."""
    return "".join(
        f"\\x{ord(char) - 0xDC00:02x}" if 0xDC80 <= ord(char) <= 0xDCFF else char
        for char in argument
    )


def refuse_undecodable(arguments: Sequence[str]) -> None:
    """Refuse an argument holding a byte that is not UTF-8 (Python gives it to us as a
    lone surrogate, which no database, log or terminal takes) before it is used."""
    for argument in arguments:
        try:
            argument.encode("utf-8")
        except UnicodeEncodeError:
            shown = line(_bytes_shown(argument[:SHOWN_CHARS]))
            shown += "..." if len(argument) > SHOWN_CHARS else ""
            raise SettingsError(NOT_TEXT_ARGUMENT.format(shown=shown)) from None


MAX_THREAD_ID_CHARS = 200
BLANK = "must not be blank (an unset shell variable?): leave the flag out to mean none"


def not_blank(value: str) -> str:
    """`--from` and `--request`: a blank value would silently mean none, so that
    `--from "$CHECKPOINT" --approve` would approve the original's request, not a fork's."""
    if not value.strip():
        raise argparse.ArgumentTypeError(BLANK)
    return value


def new_thread_id(value: str) -> str:
    """`ask --thread-id`: a name every command can print on one line, so no control
    characters (a newline or an escape sequence would be replayed by `threads`, `show`
    and every "Thread:" line), not blank, and at most 200 characters."""
    if not value.strip():
        raise argparse.ArgumentTypeError("a thread id must not be blank")
    if line(value) != value:
        raise argparse.ArgumentTypeError(
            f"'{line(value)}' holds control characters; use letters, digits, '-' and '_'"
        )
    if len(value) > MAX_THREAD_ID_CHARS:
        raise argparse.ArgumentTypeError(
            f"a thread id may be at most {MAX_THREAD_ID_CHARS} characters ({len(value)} given)"
        )
    return value


def decider_name(value: str) -> str:
    """`resume --as NAME`: a name the audit log can print on one line, not blank, and
    without ':' or '@' (an actor reads `cli:NAME@host`)."""
    if not value.strip():
        raise argparse.ArgumentTypeError(BLANK)
    if line(value) != value or any(mark in value for mark in ":@"):
        raise argparse.ArgumentTypeError(
            f"'{line(value)}' is not a name: use letters, digits, '.', '-' and '_'"
        )
    return value.strip()
