"""The noun a question's "what"/"which" asks for, whatever its class ("what sport", "which
county", "what position"), and whether the first sentence of the answer's own article
says the answer is one.

A bridge entity answers as what the question describes, not what it asks: "What
position did the receiver of the 2007 Golden Shoe play?" asks a position; the receiver's
lead says "is an Argentine footballer". These, and whether the asked noun stands next to
the answer in its sentence, are signals of the learned combiner, never vetoes: a lead may
name its subject's kind by another word.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.kinds.answer_types import NameLexicon
from graph.verifier.text.cache_sizes import WORDS
from graph.verifier.text.normalise import singular, split_words

_WORD = re.compile(r"[A-Za-z][\w-]*")
_STOPS = frozenset(
    split_words(
        "is are was were do does did has have had can could will would should of in on at by"
        " from for with to that which who whom whose as and or the be been being a an"
    )
)
_PHRASE = 4
NEXT_TO = 3
_COPULA = re.compile(r"\b(?:is|was|are|were)\b(.*)")


@lru_cache(maxsize=4096)
def asked_noun(question: str) -> str:
    """The last word of the phrase after the first "what" or "which" ("" when none)."""
    words = [word.casefold() for word in _WORD.findall(question)]
    for index, word in enumerate(words):
        if word not in ("what", "which"):
            continue
        last = ""
        for following in words[index + 1 : index + 1 + _PHRASE]:
            if following in _STOPS:
                break
            last = following
        if last:
            return singular(last)
    return ""


def lead_of(lexicon: NameLexicon | None, name: str) -> str | None:
    """The first sentence of the article titled `name`, or None."""
    leads = lexicon.describe(name) if lexicon is not None else ()
    return leads[0] if leads else None


@lru_cache(maxsize=WORDS)
def lead_words(lexicon: NameLexicon, name: str) -> frozenset[str] | None:
    """The words (singular) of what the lead of the article titled `name` says it is, or
    None when the lexicon has no article of that name."""
    lead = lead_of(lexicon, name)
    if lead is None:
        return None
    said = _COPULA.search(lead)
    text = said.group(1) if said else lead
    return frozenset(singular(word.casefold()) for word in re.findall(r"[A-Za-z]+", text))


def asked_in_lead(question: str, answer: str, lexicon: NameLexicon | None) -> bool | None:
    """Whether the answer's lead says it is what the question's "what"/"which" asks for;
    None when the question names no such noun or the answer has no lead."""
    noun = asked_noun(question)
    words = lead_words(lexicon, answer) if noun and lexicon is not None else None
    return None if words is None else noun in words


def asked_next_to(question: str, words: tuple[str, ...], span: tuple[int, int]) -> bool:
    """The question's asked noun stands within `NEXT_TO` words of a span of a sentence's
    folded `words` ("the county of X", "X County")."""
    noun = asked_noun(question)
    if not noun:
        return False
    near = words[max(0, span[0] - NEXT_TO) : span[1] + NEXT_TO]
    return any(word == noun or singular(word) == noun for word in near)
