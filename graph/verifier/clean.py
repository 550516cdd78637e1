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
_WORD = re.compile(r"\w+")
# The first format character (category Cf) after the soft hyphen: a text of characters
# below it can hide no other.
FORMAT_AFTER_SOFT_HYPHEN = "\u0600"
SOFT_HYPHEN = "\u00ad"


def _is_latin(char: str) -> bool:
    return "LATIN" in unicodedata.name(char, "")


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
    if max(text) < FORMAT_AFTER_SOFT_HYPHEN:
        shown = text.replace(SOFT_HYPHEN, "")
    else:
        shown = "".join(char for char in text if unicodedata.category(char) != "Cf")
    visible = unicodedata.normalize("NFKC", shown)
    if visible.translate(_CONFUSABLES) == visible:
        return visible
    return _WORD.sub(_unmix, visible)
