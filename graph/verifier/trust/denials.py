"""Denials: a sentence that writes a span only to deny it, call it false, report it as a
claim, doubt it, or (when the question asks what was won) name it as a nomination, does
not state it.

Two reaches: a cue denies the few words after it ("not", "rumoured"); a frame denies a
whole clause ("It is often wrongly said that ...", "It is not true that ...", "... was
later shown to be false")."""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from graph.verifier.text.normalise import Text, analyse, split_words

_NEGATIONS = frozenset(
    split_words(
        "not never nor neither instead incorrectly mistakenly falsely erroneously wrongly"
        " misattributed rather"
    )
)
# Cues after a span that call what it is said to be false ("called X erroneously").
_FALSE_AFTER = frozenset(split_words("incorrectly mistakenly falsely erroneously wrongly"))
# Cues that report a claim without stating it, one word or two ("some sources say ...",
# "once believed"); they govern a clause, so they reach further back than a negation.
_HEDGES = frozenset(split_words("rumoured rumored allegedly supposedly purportedly reputedly"))
_HEDGE_PAIRS = frozenset(
    analyse(pair.replace("_", " ")).tokens  # folded as sentences are ("once" is "1")
    for pair in split_words(
        "some_sources other_sources once_believed once_thought long_believed long_thought"
        " originally_thought previously_thought previously_believed early_reports"
        " initial_reports first_reports"
    )
)
# A question without any pair's first word shares none of them, nor any hedge pair.
_HEDGE_FIRSTS = frozenset(pair[0] for pair in _HEDGE_PAIRS)
_HEDGE_PAIR_WORDS = frozenset(word for pair in _HEDGE_PAIRS for word in pair)
# Frames that deny everything after them in the sentence: a falsity adverb next to a
# word of saying ("wrongly said that"), a statement of untruth ("not true that"), doubt
# about a clause ("doubt that", "unclear whether"); a word that calls the sentence's
# claim a myth denies all of it.
_SAYING = frozenset(
    split_words(
        "said says claimed claims believed thought reported stated attributed credited"
        " described listed assumed asserted cited named identified"
    )
)
_UNTRUE = frozenset(split_words("false untrue wrong incorrect inaccurate unfounded baseless"))
_DOUBT = frozenset(
    split_words("doubt doubts doubted doubtful disputed disputes unclear uncertain questioned")
)
_CLAUSE_OPENERS = frozenset(split_words("that whether"))
_DENYING_WORDS = frozenset(split_words("myth misconception untrue"))
# Frames that deny everything before them: "... was later shown to be false".
_SHOWN = frozenset(split_words("shown proven proved found revealed turned"))
_WITHDRAWN = frozenset(split_words("debunked retracted refuted disproved disproven"))
FRAME_WORDS = _FALSE_AFTER | _DOUBT | _DENYING_WORDS | _UNTRUE | _WITHDRAWN | {"true"}
_NOMINATIONS = frozenset(
    split_words("nominated nomination nominations nominee nominees shortlisted longlisted")
)
_WINS = frozenset(split_words("win wins won winning winner winners awarded received earned"))
# A cue that a span was so once but is no longer ("formerly known as X"; not "previously",
# which also orders events: "who previously released X"), and the words of a question
# that asks about a former state ("What was ... called before ...?").
_FORMER = frozenset(split_words("formerly"))
_ASKS_FORMER = frozenset(
    split_words("formerly previously originally original former earlier before")
)
_PRESENT_AUX = frozenset(split_words("is are does do has have"))
_AUX = _PRESENT_AUX | frozenset(split_words("was were did had"))
NEGATION_WORDS = 5  # words before a span a negation or a nomination reaches
HEDGE_WORDS = 9  # words before a span a hedge reaches
FALSE_AFTER_WORDS = 3  # words after a span a falsity adverb reaches


class Denials(NamedTuple):
    """The cues that deny a span for one question, and every word of them (a sentence
    with none of those words denies nothing)."""

    cues: frozenset[str]  # negations, and nominations when the question asks what was won
    hedges: frozenset[str]
    hedge_pairs: frozenset[tuple[str, ...]]
    words: frozenset[str]


PLAIN = Denials(_NEGATIONS, frozenset(), frozenset(), _NEGATIONS | _FALSE_AFTER)


@lru_cache(maxsize=4096)
def denial_cues(question: Text) -> Denials:
    """The cues that deny a span for this question: negations; hedges ("rumoured", "some
    sources") the question does not share; nominations when it asks what was won and not
    what was nominated ("nominated for the Mercury Prize" answers no "which prize did it
    win?"); a former state when it asks what is so now ("formerly called the Mercury
    Music Prize" answers no "what is the prize called?")."""
    tokens = question.tokens
    cues = _NEGATIONS
    if not _WINS.isdisjoint(tokens) and _NOMINATIONS.isdisjoint(tokens):
        cues |= _NOMINATIONS
    if asks_present(question):
        cues |= _FORMER
    hedges = _HEDGES if _HEDGES.isdisjoint(tokens) else _HEDGES.difference(tokens)
    if _HEDGE_FIRSTS.isdisjoint(tokens):  # most questions: every hedge pair denies
        pairs, pair_words = _HEDGE_PAIRS, _HEDGE_PAIR_WORDS
    else:
        pairs = _HEDGE_PAIRS.difference(pairwise(tokens))
        pair_words = frozenset(word for pair in pairs for word in pair)
    return Denials(cues, hedges, pairs, cues | hedges | _FALSE_AFTER | pair_words)


def asks_present(question: Text) -> bool:
    """The question asks what is so now: its first auxiliary is in the present ("What is
    the prize called?", not "What was ...", nor a question with none) and it asks about
    no former state ("formerly", "originally", "before")."""
    first = next((token for token in question.tokens if token in _AUX), None)
    return first in _PRESENT_AUX and _ASKS_FORMER.isdisjoint(question.tokens)


def _denied_at(tokens: tuple[str, ...], start: int, end: int, denials: Denials) -> bool:
    """The span at tokens[start:end] follows a cue within `NEGATION_WORDS` (a nomination
    only with no win stated between: "nominated for and won X") or a hedge within
    `HEDGE_WORDS`, or precedes a falsity adverb ("called X erroneously")."""
    won = False
    for token in reversed(tokens[max(0, start - NEGATION_WORDS) : start]):
        if token in denials.cues and not (won and token in _NOMINATIONS):
            return True
        won = won or token in _WINS
    clause = tokens[max(0, start - HEDGE_WORDS) : start]
    if not denials.hedges.isdisjoint(clause) or not denials.hedge_pairs.isdisjoint(
        pairwise(clause)
    ):
        return True
    return not _FALSE_AFTER.isdisjoint(tokens[end : end + FALSE_AFTER_WORDS])


def negated(hay: Text, needle: Text, denials: Denials = PLAIN) -> bool:
    """The needle occurs, and every occurrence is denied (see `_denied_at`)."""
    size = len(needle.tokens)
    if not size or needle.padded not in hay.padded:
        return False
    if denials.words.isdisjoint(hay.tokens) and FRAME_WORDS.isdisjoint(hay.tokens):
        return False
    starts = [
        i for i in range(len(hay.tokens) - size + 1) if hay.tokens[i : i + size] == needle.tokens
    ]
    after, before = _frames(hay.tokens)
    return all(
        i >= after or i + size <= before or _denied_at(hay.tokens, i, i + size, denials)
        for i in starts
    )


def _frames(tokens: tuple[str, ...]) -> tuple[int, int]:
    """Where denying frames reach: spans starting at or after the first index are denied
    (`len(tokens)` when no frame opens), and spans ending at or before the second (0)."""
    after, before = len(tokens), 0
    if FRAME_WORDS.isdisjoint(tokens):
        return after, before
    for i, token in enumerate(tokens):
        window = tokens[i + 1 : i + 4]
        if token in _DENYING_WORDS:  # "X is a myth", "a misconception is that X"
            return 0, len(tokens)
        opens = (
            (token in _FALSE_AFTER and not _SAYING.isdisjoint(window))
            or (token == "not" and window[:1] == ("true",))
            or (token in _DOUBT and not _CLAUSE_OPENERS.isdisjoint(window))
        )
        if opens and i < after:
            after = i + 1
        closes = token in _WITHDRAWN or (
            token in _SHOWN and not _UNTRUE.isdisjoint(tokens[i + 1 : i + 5])
        )
        if closes:
            before = i
    return after, before
