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

from graph.verifier.text.normalise import analyse

_NAME_WORD = r"[A-Z][\w'’.\-]*"
_RUN = re.compile(rf"{_NAME_WORD}(?:\s+(?:(?:of|the|and|de|for|von|van|in)\s+)?{_NAME_WORD})*")
_SHORTEST = 3
# The most words a name taken from the evidence has: a longer run of capitals gives its
# parts only (and a hostile page of thousands of capitalised words stays cheap).
_LONGEST = 8


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
        runs.add(re.sub(r"\s*\([^()]*\)\s*$", "", title))
        for match in _RUN.finditer(sentence):
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


def written_as_stated(answer: str, stating: Sequence[str]) -> str:
    """The answer as the evidence writes it when it is given all in lower case ("2012
    summer olympics" is the name "2012 Summer Olympics", not a year): the first stating
    sentence's capitals, unless only a sentence's first letter is one. A single word
    keeps its case: "gold" is a common noun, even where a sentence writes "Gold Rush"."""
    core = answer.strip()
    if not core.islower() or len(analyse(core).tokens) < 2:
        return answer
    pattern = re.compile(rf"(?<!\w){re.escape(core)}(?!\w)", re.IGNORECASE)
    for sentence in stating:
        match = pattern.search(sentence)
        if match is None:
            continue
        stated = match.group()
        capitals = sum(char.isupper() for char in stated)
        if capitals > (1 if match.start() == 0 and stated[:1].isupper() else 0):
            return stated
    return answer
