"""A person's name with initials for some of its words: "John F. Kennedy" and "John
Fitzgerald Kennedy", "J. R. R. Tolkien" and "John Ronald Reuel Tolkien".

A reply may write a name with fewer initials than the evidence (it spells out what it
knows) or with more (it shortens). The two are one name when they have as many words,
the same last word, and each other word is the same or one is the other's initial.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from graph.verifier.text.casing import NAME_RUN

# A name's words, an initial with its full stop: "J.R.R. Tolkien" is J., R., R., Tolkien.
_PART = re.compile(r"[A-Z]\.|[^\s.,]+")
_INITIAL = re.compile(r"(?<![\w.])[A-Z]\.(?!\w\w)|(?<!\S)[A-Z](?=\s)")
# The most words a name of initials has ("Sir Arthur Ignatius Conan Doyle").
_MOST_WORDS = 6


def has_initial(name: str) -> bool:
    """Whether a name writes a word as an initial ("John F. Kennedy", "J.R.R. Tolkien")."""
    return _INITIAL.search(name) is not None


def _parts(name: str) -> list[str]:
    return _PART.findall(name)


def _is_initial(word: str) -> bool:
    return len(word.rstrip(".")) == 1


def _same_word(said: str, written: str) -> bool:
    """The same word, or one the other's initial (capitals both)."""
    said, written = said.rstrip("."), written.rstrip(".")
    if said.casefold() == written.casefold():
        return True
    return (len(said) == 1 or len(written) == 1) and said[:1] == written[:1] and said[:1].isupper()


def _windows(raw: str, size: int) -> Iterator[tuple[str, list[str]]]:
    """Each run of `size` words of the capitalised names a sentence writes, as written
    when it is a whole name ("J.R.R. Tolkien")."""
    for run in NAME_RUN.findall(raw):
        parts = _parts(run)
        for start in range(len(parts) - size + 1):
            window = parts[start : start + size]
            yield (run.rstrip(".") if len(window) == len(parts) else " ".join(window)), window


def written_with_initials(answer: str, raws: Iterable[str]) -> tuple[str, bool] | None:
    """The name a sentence writes that is the answer with other initials, and whether the
    answer spells out an initial the sentence gives (then it says more than the sentence);
    None when no sentence writes such a name."""
    parts = _parts(answer)
    if not 2 <= len(parts) <= _MOST_WORDS or not all(part[:1].isupper() for part in parts):
        return None
    if _is_initial(parts[-1]):
        return None
    last = parts[-1]
    for raw in raws:
        if last not in raw:  # most sentences never name it: no need to read their names
            continue
        for name, window in _windows(raw, len(parts)):
            if window[-1].casefold() != parts[-1].casefold():
                continue
            if all(map(_same_word, parts, window)):
                spelled = any(
                    _is_initial(written) and not _is_initial(said)
                    for said, written in zip(parts, window, strict=True)
                )
                return name, spelled
    return None
