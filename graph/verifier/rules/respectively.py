""" "Respectively": a sentence that pairs two lists by their order ("Australia had reached
the finals of the 1975 and 1996 World Cups losing to West Indies and Sri Lanka
respectively") gives each value to the item in the same place of the other list, so
"West Indies" answers no question about the 1996 final.

Two-item lists only ("A and B", most uses): the values are the last item before
"respectively" and as many words before its "and"; the keys the words around the
nearest "and" before them (up to `KEY_WORDS` each side, within the clause). The key the
question asks about is the one sharing with it a content word the other lacks.
"""

from __future__ import annotations

import re

from graph.verifier.evidence.matching import contains
from graph.verifier.read.check import Check
from graph.verifier.text.normalise import Text, analyse
from graph.verifier.text.wordstems import stems
from graph.verifier.verdicts import citation, reject
from tools.base import Verdict

_RESPECTIVELY = re.compile(r"[\s,)\"”]*respectively\b", re.IGNORECASE)
_WORD = re.compile(r"[^\s,;:.()\"“”]+|[,;:.()]")
_BREAKS = frozenset(",;:.()")
KEY_WORDS = 3  # words of a key on each side of its "and"
VALUE_WORDS = 6  # the longest value read

REASON_RESPECTIVELY = (
    "{answer!r} is stated in stored {cite}, but paired there by 'respectively' with"
    " {key!r}, not with {asked!r}, which the question asks about."
)


def _side(words: list[str], limit: int) -> list[str]:
    """Up to `limit` words from the start of `words`, stopping at a clause break."""
    kept: list[str] = []
    for word in words[:limit]:
        if word in _BREAKS:
            break
        kept.append(word)
    return kept


def _pairs(raw: str) -> tuple[tuple[Text, Text], tuple[Text, Text]] | None:
    """(the two values before "respectively", the two keys before them), or None."""
    ending = _RESPECTIVELY.search(raw)
    if ending is None:
        return None
    words = _WORD.findall(raw[: ending.start()])
    ands = [i for i, word in enumerate(words) if word.casefold() == "and"]
    if not ands:
        return None
    last = _side(words[ands[-1] + 1 :], VALUE_WORDS + 1)
    if not last or len(last) > VALUE_WORDS or ands[-1] + 1 + len(last) != len(words):
        return None
    first = _side(words[: ands[-1]][::-1], len(last))[::-1]
    start = ands[-1] - len(first)
    keys = [i for i in ands[:-1] if i < start]
    if not first or not keys:
        return None
    at = keys[-1]
    left = _side(words[:at][::-1], KEY_WORDS)[::-1]
    right = _side(words[at + 1 : start], KEY_WORDS)
    if not left or not right:
        return None
    values = (analyse(" ".join(first)), analyse(" ".join(last)))
    return values, (analyse(" ".join(left)), analyse(" ".join(right)))


def paired_elsewhere(raw: str, answer: Text, question: Text) -> tuple[str, str] | None:
    """(the key the sentence pairs the answer with, the key the question asks about)
    when they differ, else None."""
    pairs = _pairs(raw)
    if pairs is None:
        return None
    values, keys = pairs
    at = [i for i, value in enumerate(values) if contains(value, answer)]
    key_stems = [stems(key.padded) for key in keys]
    asked_stems = stems(question.padded) - stems(answer.padded) - (key_stems[0] & key_stems[1])
    asked = [i for i, found in enumerate(key_stems) if not asked_stems.isdisjoint(found)]
    if len(at) == 1 and len(asked) == 1 and at[0] != asked[0]:
        return " ".join(keys[at[0]].tokens), " ".join(keys[asked[0]].tokens)
    return None


def respectively_problem(check: Check) -> Verdict | None:
    """A refusal when every sentence stating the answer pairs it by "respectively" with
    another key than the one the question asks about."""
    paired: list[tuple[str, tuple[str, str]]] = []
    for item in check.stating_items():
        if "respectively" not in item.raw.casefold():
            return None
        pair = paired_elsewhere(item.raw, check.folded, check.q.text)
        if pair is None:
            return None
        paired.append((item.id, pair))
    if not paired:
        return None
    key, asked = paired[0][1]
    reason = REASON_RESPECTIVELY.format(
        answer=check.answer, cite=citation(i for i, _ in paired), key=key, asked=asked
    )
    return reject(reason, [check.answer.strip()])
