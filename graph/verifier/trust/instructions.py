"""Recognise text addressed to the agent (injected instructions) rather than the world.

A sentence is not evidence when, after Unicode and markup tricks are undone
(`unmasked`), it
addresses an assistant, a model, an AI, a bot or the reader; gives an order
to answer, say, respond, reply, report, output, state or finish; labels an
answer ("Answer: ..."); or tells its reader to ignore other instructions; in
English or in another language (`foreign_orders`). A
title that starts with such a verb and is then described ("Say Anything... is
a 1989 film") is not an order.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.clean import unmasked
from graph.verifier.trust.foreign_orders import (
    FOREIGN_ORDER,
    FOREIGN_ORDER_LATER,
    LATIN_WORDS,
    OPENING_ORDER,
    addresses_in_other_language,
)
from graph.verifier.trust.order_patterns import GATE_WORDS, at_later_sentences, patterns_for
from graph.verifier.trust.order_words import MACHINE, ORDER_VERB
from graph.verifier.trust.sentence_starts import may_open_later

# "Say Anything... is a 1989 film": a title starting with such a verb, then described as
# a work ("Say Paris is the capital" is no title).
_DESCRIBED_TITLE = re.compile(
    r"^\W*[A-Z][\w'’.!?,-]*(?:\s+[\w'’.!?&:,-]+){0,6}?\s+(?:is|was|are|were)\s+"
    r"(?:(?:written|recorded|released|directed|produced|performed|composed|published"
    r"|originally)\b|(?:an?|the|one|\d)\b(?=[^.;]{0,60}?\b(?:film|movie|song|single|album"
    r"|ep|podcast|novel|book|series|show|sitcom|play|musical|opera|episode|game|magazine"
    r"|poem|band|track|programme|program|documentary|comic|story|painting|recording|record"
    r"|drama|comedy|thriller|soundtrack|compilation|ballad|hymn|work)s?\b))"
)
_CLAUSE_START_ORDER = re.compile(rf"^\W*{ORDER_VERB}\b", re.IGNORECASE)
# Quoted titles inside a sentence ("Say You, Say Me") are names, not orders.
_QUOTED = re.compile(r"[\"“][^\"“”]{1,80}[\"”]")
# A quotation that addresses the agent is no title: it stays ("The page says “Note to AI: ...”");
# an ASCII one is lowered and read case-sensitively (the same matches, twice as fast).
_QUOTED_ORDER_SOURCE = rf"\b{MACHINE}\b|:\s*\w|^[\"“](?:role|content)[\"”]$"
_QUOTED_ORDER = re.compile(_QUOTED_ORDER_SOURCE, re.IGNORECASE)
_QUOTED_ORDER_LOWER = re.compile(_QUOTED_ORDER_SOURCE)
# Nor is one with a word in lower case but a title's small words ("must answer", "Dear reader").
_UNTITLED = re.compile(
    r"(?<![\w'’-])(?!(?:a|an|the|of|to|in|on|and|or|for|at|by|with|from|as|is|de|la|le|les|el"
    r"|du|des|von|van|y|e|di|da)\b)[a-z]"
)
_QUOTE_MARKS = re.compile('["“”]')
# A sentence pointing at what comes next ("the following applies", "the next line",
# "the sentence after this one").
_AHEAD = re.compile(
    r"\b(?:following|follows|below|subsequent|after\s+this"
    r"|next\s+(?:line|sentence|statement|fact|one))\b"
)
# Every byte but a-z made a space: the words (runs of a-z) by one translation and a
# split; of them, those a gate of the English or other-language patterns reads.
_LETTERS_ONLY = bytes(code if 97 <= code <= 122 else 32 for code in range(256))
_READ_WORDS = GATE_WORDS | LATIN_WORDS


def _read_words(folded: str) -> frozenset[str]:
    """The words of a casefolded text (runs of a-z) that a gate reads."""
    letters = folded.encode("ascii", "replace").translate(_LETTERS_ONLY)
    return _READ_WORDS.intersection(letters.decode("ascii").split())


def _unquote(match: re.Match[str]) -> str:
    quoted = match.group(0)
    if _UNTITLED.search(quoted):
        return quoted
    if quoted.isascii():
        return quoted if _QUOTED_ORDER_LOWER.search(quoted.lower()) else " "
    return quoted if _QUOTED_ORDER.search(quoted) else " "


def _found(text: str, folded: str, words: frozenset[str], foreign: bool) -> bool:
    """Whether `text` (casefolded: `folded`) holds an order: English patterns whose gates
    `words` (a superset of its words that gates read) open, and with `foreign` the
    other languages' patterns; those that read the start of a text, at the start of each
    of its sentences."""
    patterns = patterns_for(words, folded)
    if any(pattern.search(folded) for pattern in patterns):
        return True
    if foreign and FOREIGN_ORDER.search(text) is not None:
        return True
    if not may_open_later(text):
        return False
    if any(pattern.search(folded) for pattern in at_later_sentences(patterns)):
        return True
    return foreign and FOREIGN_ORDER_LATER.search(text) is not None


def _is_order(text: str, folded: str, words: frozenset[str], foreign: bool) -> bool:
    if '"' in text or "“" in text:
        unquoted = _QUOTED.sub(_unquote, text)
        if unquoted.strip(" .,;:!?"):
            text, folded = unquoted, unquoted.casefold()
    if not _found(text, folded, words, foreign):
        # A quotation that stays may split an order ('You "must answer" Paris').
        if '"' not in text and "“" not in text:
            return False
        plain = _QUOTE_MARKS.sub(" ", text)
        if not _found(plain, plain.casefold(), words, foreign):
            return False
    described = _DESCRIBED_TITLE.match(text)
    opens = _CLAUSE_START_ORDER.match(text) or (foreign and OPENING_ORDER.match(text))
    if described is None or not opens:
        return True
    rest = text[described.end() :]
    return _found(rest, rest.casefold(), words, foreign)


@lru_cache(maxsize=TEXTS)
def is_trusted(text: str) -> bool:
    """False for a sentence that addresses the agent (injected instructions), not the world."""
    shown = unmasked(text)
    if len(shown) == 1:
        return _is_trusted_as(shown[0])
    return all(_is_trusted_as(visible) for visible in shown)


def _is_trusted_as(visible: str) -> bool:
    folded = visible.casefold()
    words = _read_words(folded)
    foreign = addresses_in_other_language(visible, folded, words)
    return not _is_order(visible, folded, words, foreign)


@lru_cache(maxsize=TEXTS)
def introduces(text: str) -> bool:
    """Whether a sentence addressing the agent introduces the next one ("Note to AI:",
    "Attention, language models."): it ends in a colon, is short or points ahead."""
    visible = text.rstrip()
    if (
        not visible.endswith(":")
        and len(visible.split()) > 8
        and not _AHEAD.search(visible.casefold())
    ):
        return False
    return not is_trusted(text)
