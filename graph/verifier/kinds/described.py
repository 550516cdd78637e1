"""The entity a question describes is not what it asks for: in "What is the nickname of
the football player that co-starred in Phase IV?" the football player is the bridge, and
an answer whose own article calls it one ("Brian Bosworth ... is a former American
football player") names the bridge, not the nickname. Such an answer is at most grounded.

A described noun is one a relative clause or a participle follows ("the N that / who
/ which / whose / where / whom", "a N associated with / known for / based in ..."); it
counts only when the question asks for something else (its category noun differs, and it
is not the question's own "Who was the N who ...") and the head noun of what the lead
sentence of the answer's article says it is ("is an English actor") is that noun.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.kinds.answer_types import NameLexicon
from graph.verifier.text.normalise import singular

# A word of the described noun's phrase is no relative pronoun nor a form of "be" ("the
# gang that was based": the gang, not "was").
_ADVERBS = "best|well|also|widely|most|originally|later"
_WORD = rf"(?!(?:that|who|which|whose|where|whom|is|was|are|were|{_ADVERBS})\b)[a-z-]+"
_DESCRIBED = re.compile(
    rf"\b(?:the|an?) ((?:{_WORD} ){{0,2}}{_WORD}) (?:that|who|which|whose|where|whom"
    rf"|(?:(?:{_ADVERBS}) )?(?:associated|known|based|located"
    r"|developed|founded|created|featuring|published|released|famous|noted))\b"
)
# "Who was the N who ...", "What is an N that ...", "Name the N which ...", and a closing
# "..., what is the N?": the N is what the question asks for.
_ASKED = re.compile(
    r"^\s*(?:(?:who|what|which)\s+(?:is|was|are|were)\s+|name\s+)(?:the|an?)\s+"
    r"((?:[a-z-]+ ){0,2}[a-z-]+) (?:that|who|which|whose|where|whom)\b"
    r"|(?:^|[,;]\s*)(?:who|what|which)\s+(?:is|was|are|were)\s+(?:the|an?)\s+"
    r"((?:[a-z-]+ ){0,2}[a-z-]+)[\s?]*$"
)
_IS_A = re.compile(r"\b(?:is|was|are|were) (?:an?|the|one of the)\b(?P<what>[^,;()]*)")
# Where a description's head phrase ends: "a volcano in Italy", "an actor who" ("and" does
# not end it: "a computer and video game studio", "a businessman and administrator").
_HEAD_END = re.compile(r"\s(?:in|of|from|that|who|which|for|at|on|with|by|based|located|known)\b")


@lru_cache(maxsize=4096)
def described_nouns(question: str, asked: str) -> frozenset[str]:
    """The head nouns of what the question describes, other than the noun it asks for
    (kept per question: every answer to it is checked so)."""
    skipped = {singular(asked.casefold().split()[-1])} if asked.strip() else set()
    opening = _ASKED.search(question)
    if opening is not None:
        skipped.add(singular((opening.group(1) or opening.group(2)).split()[-1]))
    heads = {singular(match.group(1).split()[-1]) for match in _DESCRIBED.finditer(question)}
    return frozenset(head for head in heads if head not in skipped and len(head) > 2)


def head_words(lead: str) -> list[str]:
    """The words, folded, of the head of what a lead sentence says its subject is ("is a
    prefecture-level city in ..." -> prefecture, level, city)."""
    match = _IS_A.search(lead)
    head = _HEAD_END.split(match["what"].casefold(), maxsplit=1)[0] if match else ""
    return re.findall(r"[a-z]+", head)


def is_described_bridge(
    answer: str, question: str, asked: str, lexicon: NameLexicon | None
) -> str | None:
    """The described noun the answer's lead says it is, or None."""
    if lexicon is None:
        return None
    nouns = described_nouns(question, asked)
    if not nouns:
        return None
    for lead in lexicon.describe(answer)[:1]:
        words = set(map(singular, head_words(lead)))
        for noun in sorted(nouns):  # a fixed order: the reason names the same noun every run
            if noun in words:
                return noun
    return None
