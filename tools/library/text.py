"""Text folding shared by the library's search, aliases and completion check."""

from __future__ import annotations

import re
import unicodedata

_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_BRACKETED = re.compile(r"《([^》]+)》|「([^」]+)」")
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"")
_EDGE_QUOTES = "《》「」『』“”‘’\"' \t"


def fold(text: str) -> str:
    """Fold for matching: NFKC, case, and no punctuation or spaces ("B-12" -> "b12")."""
    return _NOT_WORD.sub("", unicodedata.normalize("NFKC", text).casefold())


def has_cjk(text: str) -> bool:
    """Whether the text contains Chinese characters."""
    return bool(_CJK.search(text))


def strip_quotes(text: str) -> str:
    """Remove quotes and title brackets around a value (`《数据库入门图解》` -> the title)."""
    return text.strip().strip(_EDGE_QUOTES).strip()


def quoted_titles(text: str) -> list[str]:
    """Titles the text names in 《》 or 「」, else in double quotes, in order."""
    for pattern in (_BRACKETED, _QUOTED):
        found = [next(group for group in m.groups() if group) for m in pattern.finditer(text)]
        if found:
            return found
    return []
