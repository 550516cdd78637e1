"""Patterns that read the start of a text, read at the start of each of its sentences.

A label or an order that opens a text ("Final answer: Paris") may open a later sentence
of it as well ("Freedonia is a country. Final answer: Paris"). Searching the text again
from each sentence start costs time quadratic in its sentences (a page of ". . ." took
seconds), so `at_sentence_starts` rewrites every anchor `^` of a pattern to match where a
later sentence starts too: after ".", "!" or ";" that ends a word (not a one-letter
word: "j. smith") and white space, or after a line break and spaces, at the first
character that is not white space. A later start reads at most `LEAD` non-word
characters before what the pattern wants there ("- ", "> ", "(", "### "), so that a
long run of punctuation costs time in proportion to its length.
"""

from __future__ import annotations

import re

LEAD = 40
# Where a later sentence may open: a text without these has none (a cheap first look).
MAY_OPEN_LATER = re.compile(r"[.!;]\s|\n")
# ASCII as `may_open_later` needs it: ".!;" as ".", a line break as itself, other white
# space (as `\s` reads it) as " ", anything else as "x".
_STOPS = bytes(
    46 if chr(code) in ".!;" else code if code == 10 else 32 if chr(code).isspace() else 120
    for code in range(256)
)
_LATER_START = r"(?<=\S[.!;])(?<!\b{letter}[.!;])\s+(?=\S)|(?<=\n)[^\S\n]*(?=\S)"
_LEADING = r"\W*"


def at_sentence_starts(source: str, *, ignore_case: bool = False) -> str:
    """`source` with each anchor `^` (outside character classes) also matching at the
    start of a later sentence; with `ignore_case`, "one-letter word" still means a lower
    case letter, as it does in a pattern compiled without `re.IGNORECASE`."""
    later = _LATER_START.format(letter="(?-i:[a-z])" if ignore_case else "[a-z]")
    out: list[str] = []
    escaped = in_class = False
    class_start = skip = -1
    for index, char in enumerate(source):
        if index < skip:
            continue
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            # A "]" right after "[" or "[^" is a member, not the end.
            opened = index - class_start
            first = opened == 1 or (opened == 2 and source[index - 1] == "^")
            in_class = char != "]" or first
        elif char == "[":
            in_class, class_start = True, index
        elif char == "^" and source.startswith(_LEADING, index + 1):
            out.append(rf"(?:^\W*|(?:{later})\W{{0,{LEAD}}})")
            skip = index + 1 + len(_LEADING)
            continue
        elif char == "^":
            out.append(f"(?:^|{later})")
            continue
        out.append(char)
    return "".join(out)


def may_open_later(text: str) -> bool:
    """Whether `MAY_OPEN_LATER` finds a place in `text` (ASCII text by one translation)."""
    if not text.isascii():
        return MAY_OPEN_LATER.search(text) is not None
    shape = text.encode("ascii").translate(_STOPS)
    return b". " in shape or b"\n" in shape
