"""Undo the Unicode tricks that hide words from a reader: invisible format characters
(zero-width spaces and joiners, soft hyphens, direction marks), compatibility
forms (fullwidth or mathematical letters) and look-alike letters from other
scripts inside a Latin word (a Cyrillic "а" in "Pаris")."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

# Cyrillic and Greek letters that look like Latin ones.
_CONFUSABLES = str.maketrans(
    {
        **dict(zip("аеорсухіјѕԁһӏԛԝ", "aeopcyxijsdhlqw", strict=True)),
        **dict(zip("АВЕКМНОРСТУХІЈЅ", "ABEKMHOPCTYXIJS", strict=True)),
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
        **dict(zip("οαικνρυχ", "oaikvpux", strict=True)),
    }
)
# Any of those look-alikes (a search for one is faster than translating the text).
_CONFUSABLE = re.compile(f"[{''.join(map(chr, _CONFUSABLES))}]")
_WORD = re.compile(r"\w+")


def _is_latin(char: str) -> bool:
    return "LATIN" in unicodedata.name(char, "")


class _Shown(dict[int, int | None]):
    """A `str.translate` table that drops format characters (category Cf) and keeps every
    other character, filled as characters are first seen (one entry per code point)."""

    def __missing__(self, code: int) -> int | None:
        kept = None if unicodedata.category(chr(code)) == "Cf" else code
        self[code] = kept
        return kept


SHOWN = _Shown()


def _unmix(match: re.Match[str]) -> str:
    """A word that mixes Latin letters with look-alikes from another script, in Latin."""
    word = match.group(0)
    mapped = word.translate(_CONFUSABLES)
    if mapped == word or not any(_is_latin(char) for char in word if char.isalpha()):
        return word
    return mapped


@lru_cache(maxsize=65536)
def clean(text: str) -> str:
    """`text` as a reader sees it: format characters dropped, compatibility forms folded
    (NFKC), and look-alike letters inside Latin words made Latin."""
    if text.isascii():
        return text
    visible = unicodedata.normalize("NFKC", text.translate(SHOWN))
    if _CONFUSABLE.search(visible) is None:
        return visible
    return _WORD.sub(_unmix, visible)
