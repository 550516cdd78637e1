"""A question, or an answer's name, typed all in lower case, read with the capitals the
evidence gives it.

The question's reading finds names by their capitals ("which World Cup" asks for a cup
named so, "X or Y?" names two alternatives); "which world cup was ..." would lose them.
Every run of capitalised words the trusted stored sentences or their titles write (not a lone
word opening a sentence: "The", "He"), and every part of two or more of its words
("World Cup" of "FIFA World Cup"), gives its capitals back to the same words in the
question, longest first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from graph.verifier.text.cache_sizes import WORDS
from graph.verifier.text.normalise import analyse

_NAME_WORD = r"[A-Z][\w'’.\-]*"
# A run of capitalised words and the small words between them ("Bank of America").
NAME_RUN = re.compile(rf"{_NAME_WORD}(?:\s+(?:(?:of|the|and|de|for|von|van|in)\s+)?{_NAME_WORD})*")
_SHORTEST = 3
# The most words a name taken from the evidence has: a longer run of capitals gives its
# parts only (and a hostile page of thousands of capitalised words stays cheap).
_LONGEST = 8
# Single words an answer gives in lower case that are never read as a name.
_NO_NAMES = frozenset(("yes", "no"))
# The longest answer read as a name (longer replies are no name, and stay cheap).
_LONGEST_NAME = 120
_JOINING = frozenset(("of", "the", "and", "de", "for", "von", "van", "in", "a", "an", "&"))
# What joins names in a list: "a and b", "a & b", "a, b and c".
_JOINERS = re.compile(r"(\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*)")
_UNDISAMBIGUATED = re.compile(r"\s*\([^()]*\)\s*$")
_DIGIT = re.compile(r"\d")
# Words a whole name or phrase does not end with ("Commentaries on" is cut short).
_FRAGMENT_ENDS = _JOINING | frozenset(("on", "at", "to", "by", "with", "from", "as"))


def recased(question: str, texts: Iterable[tuple[str, str]]) -> str:
    """The question with the evidence's capitals when it has none (`texts`: each stored
    sentence with its page title); otherwise the question unchanged."""
    if any(char.isupper() for char in question):
        return question
    return _recased(question, tuple(texts))


@lru_cache(maxsize=256)
def _recased(question: str, texts: tuple[tuple[str, str], ...]) -> str:
    runs: set[str] = set()
    for sentence, title in texts:
        runs.add(_UNDISAMBIGUATED.sub("", title))
        for match in NAME_RUN.finditer(sentence):
            run = match.group().rstrip(".")
            if match.start() == 0 and " " not in run:
                continue
            words = run.split()
            runs.update(
                " ".join(words[start:end])
                for start in range(len(words))
                for end in range(start + 2, min(len(words), start + _LONGEST) + 1)
            )
            if len(words) <= _LONGEST:
                runs.add(run)
    for run in sorted(runs, key=len, reverse=True):
        if len(run) < _SHORTEST or run.islower() or run.casefold() not in question:
            continue
        pattern = re.compile(rf"(?<![\w'’]){re.escape(run.casefold())}(?![\w'’])")
        question = pattern.sub(run.replace("\\", r"\\"), question)
    return question[:1].upper() + question[1:]


def written_as_stated(answer: str, stating: Sequence[str], titles: Sequence[str] = ()) -> str:
    """The answer as the evidence writes it when it is given all in lower case ("2012
    summer olympics" is the name "2012 Summer Olympics", not a year; "tromsø" is the town
    Tromsø): a stored page's title that it is, else the first stating sentence's
    capitals (not a sentence's first letter alone); else, for words the sentences do not
    write together, names joined by "and", "&" or commas, each so when every one is;
    else each word's when the sentences capitalise every one ("earle hagen" where they
    say "Earle Harry Hagen"; joining words aside: "of", "the", "and"). A single word is
    read so only when no sentence writes it in lower case: "gold" is a common noun where
    a sentence writes "gold", even if another writes "Gold Rush". An answer longer than
    a name is kept as it is."""
    core = answer.strip()
    if not core.islower() or core.casefold() in _NO_NAMES or len(core) > _LONGEST_NAME:
        return answer
    lowered = "\n".join(stating).lower()  # what the searches below can find, at a glance
    titles = [_UNDISAMBIGUATED.sub("", title) for title in dict.fromkeys(titles)]
    whole = _recased_name(core, stating, titles, lowered, word_by_word=False)
    if whole is not None:
        return whole
    pieces = _JOINERS.split(core)
    if len(pieces) >= 3:
        names = [_recased_name(name, stating, titles, lowered) for name in pieces[::2]]
        if all(names):
            pieces[::2] = names
            return "".join(pieces)
    return _recased_name(core, stating, titles, lowered) or answer


def _recased_name(
    name: str,
    stating: Sequence[str],
    titles: Sequence[str],
    lowered: str,
    *,
    word_by_word: bool = True,
) -> str | None:
    """One name as the evidence writes it (see `written_as_stated`), or None; each of its
    words only if `word_by_word` (after the names it may join are tried)."""
    for title in titles:
        if title.casefold() == name and not title.islower():
            return title
    words = name.split()
    if len(words) == 1:
        return _as_written(name, stating if name in lowered else (), single=True, names=titles)
    stated = _as_written(name, stating, single=False) if name in lowered else None
    if stated is not None or not word_by_word:
        return stated
    recased = [
        _as_written(word, stating if word in lowered else (), single=True, names=titles) or word
        for word in words
    ]
    named = all(new != old for new, old in zip(recased, words, strict=True) if old not in _JOINING)
    return " ".join(recased) if named else None


@lru_cache(maxsize=WORDS)
def _whole_words(text: str) -> re.Pattern[str]:
    """A search for the text as whole words, in any case (kept per text)."""
    return re.compile(rf"(?<!\w){re.escape(text)}(?!\w)", re.IGNORECASE)


@lru_cache(maxsize=WORDS)
def _exact_words(text: str) -> re.Pattern[str]:
    """A search for the text as whole words, in its own case (kept per text)."""
    return re.compile(rf"(?<![\w'’]){re.escape(text)}(?![\w'’])")


def _as_written(
    text: str, stating: Sequence[str], *, single: bool, names: Sequence[str] = ()
) -> str | None:
    """The first capitalised way the sentences write the text (not a sentence's first
    letter alone), else the `names` (page titles); None when none does, or, for a
    `single` word, when a sentence writes it in lower case."""
    if not analyse(text).tokens:
        return None
    pattern = _whole_words(text)
    capitalised = None
    for sentence in stating:
        for match in pattern.finditer(sentence):
            stated = match.group()
            opening = match.start() == 0 and stated[:1].isupper()
            if sum(char.isupper() for char in stated) > opening:
                if not single:
                    return stated
                capitalised = capitalised or stated
            elif single and not opening:
                return None
    for name in names if capitalised is None else ():
        in_name = pattern.search(name)
        if in_name is not None and in_name.group()[:1].isupper():
            return in_name.group()
    return capitalised


def as_written_in_sentence_case(answer: str, stating: Sequence[str], titles: Sequence[str]) -> str:
    """An answer whose first letter alone is a capital ("Role-playing", "Christopher
    nolan": a reply's first letter is often capitalised) read as the evidence writes it,
    when no stored page is titled so and no sentence writes it so past its first word:
    with the evidence's capitals (`written_as_stated`), else in lower case when a sentence
    writes it so ("role-playing"); otherwise, or when it ends as a name cut short does
    ("Commentaries on"), as given ("Tromsø", "Paris")."""
    core = answer.strip()
    if not _sentence_cased(core):
        return answer
    lowered = core[0].lower() + core[1:]
    if " " not in core and lowered not in "\n".join(stating):
        return answer  # one word no sentence writes in lower case: a name ("Paris")
    if core.rsplit(None, 1)[-1].casefold() in _FRAGMENT_ENDS:  # a name cut short
        return answer
    if any(_UNDISAMBIGUATED.sub("", title) == core for title in titles) or any(
        match.start() > 0 for sentence in stating for match in _exact_words(core).finditer(sentence)
    ):
        return answer
    written = written_as_stated(lowered, stating, titles)
    if written != lowered:
        return written
    written_lower = _exact_words(lowered)
    return lowered if any(written_lower.search(sentence) for sentence in stating) else answer


def _sentence_cased(core: str) -> bool:
    """The first letter alone is a capital, and the text is words no longer than a name
    (not a date: "July 5, 1984")."""
    return (
        core[:1].isupper()
        and core[1:].islower()
        and len(core) <= _LONGEST_NAME
        and _DIGIT.search(core) is None
    )


def may_be_recased(answer: str) -> bool:
    """Whether `cased_as_written` may change the answer: it is in lower case, or its first
    letter alone is a capital (a cheap test before the evidence's sentences are listed)."""
    return answer.islower() or _sentence_cased(answer.strip())


def cased_as_written(answer: str, stating: Sequence[str], titles: Sequence[str]) -> str:
    """An answer in lower case, or with its first letter alone a capital, read as the
    evidence writes it (`written_as_stated`, `as_written_in_sentence_case`)."""
    if answer.islower():
        return written_as_stated(answer, stating, titles)
    return as_written_in_sentence_case(answer, stating, titles)
