"""Untrusted text made safe for a terminal.

Page text, catalogue records, rejection messages and model output reach the
terminal through the CLI. A control character in them (an escape sequence
that moves the cursor, rewrites the title, hides text or fakes a prompt; a
carriage return that overwrites a line; a bidirectional override that
reorders what is shown) is printed as a visible escape instead: `\\x1b`,
`\\r`, `\\u202e`. Newlines and tabs are kept in blocks and escaped in single
lines.
"""

from __future__ import annotations

import json
import re
import shlex
from typing import Any

# C0 controls, DEL, C1 controls (0x9b is a one-byte CSI), bidirectional
# embeddings, overrides and isolates, the line/paragraph separators, and lone
# surrogates (a byte of a file name or argument that is not UTF-8; not writable as UTF-8).
_UNSAFE = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
    "\ud800-\udfff"
)
_UNSAFE_IN_BLOCK = re.compile(f"[{_UNSAFE}]")
_UNSAFE_IN_LINE = re.compile(f"[\t\n{_UNSAFE}]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def block(text: Any) -> str:
    """`text` with every control character escaped except newlines and tabs."""
    return _UNSAFE_IN_BLOCK.sub(_escape, str(text))


def line(text: Any) -> str:
    """`text` as one line: newlines and tabs escaped too."""
    return _UNSAFE_IN_LINE.sub(_escape, str(text))


def dumps(value: Any, **options: Any) -> str:
    """JSON for a terminal: `json.dumps` escapes C0 controls, and the characters it would
    leave raw (DEL, C1, bidirectional controls) become `\\uXXXX` escapes, still valid JSON."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _UNSAFE_IN_BLOCK.sub(lambda match: f"\\u{ord(match.group()):04x}", text)


def command(*words: str) -> str:
    """`words` as one shell command line, each quoted where the shell needs it, then made
    safe as a single line (a control character in a word is shown, not sent)."""
    return line(shlex.join(words))
