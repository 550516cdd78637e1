"""Text folding and title matching shared by the library's search, aliases and completion check."""

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


def _bigrams(text: str) -> set[str]:
    folded = fold(text)
    return {folded[i : i + 2] for i in range(max(len(folded) - 1, 1))}


def title_similarity(query: str, title: str, title_en: str) -> float:
    """The largest share of the query's character bigrams found in either title."""
    left = _bigrams(query)
    return max(
        (len(left & right) / len(left) if left and right else 0.0)
        for right in (_bigrams(title), _bigrams(title_en))
    )


def title_matches(query: str, title: str, title_en: str) -> bool:
    """Whether either title contains the query, or the English one all its words."""
    folded = fold(query)
    haystacks = (fold(title), fold(title_en))
    if folded and any(folded in hay for hay in haystacks):
        return True
    words = [fold(word) for word in query.split()]
    return len(words) > 1 and all(word and word in haystacks[1] for word in words)


def title_rank(query: str, title: str, title_en: str) -> int:
    """0 when a title is the query, 1 when one starts with it, else 2."""
    folded = fold(query)
    titles = (fold(title), fold(title_en))
    return 0 if folded in titles else 1 if any(t.startswith(folded) for t in titles) else 2
