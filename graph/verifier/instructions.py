"""Recognise text addressed to the agent (injected instructions) rather than the world.

A sentence is not evidence when, after Unicode tricks are undone (`clean`), it
addresses an assistant, a model, an AI, a bot or the reader; gives an order
to answer, say, respond, reply, report, output, state or finish; labels an
answer ("Answer: ..."); or tells its reader to ignore other instructions. A
title that starts with such a verb and is then described ("Say Anything... is
a 1989 film") is not an order.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.clean import clean
from graph.verifier.normalise import split_words

_ADDRESSEE = (
    r"(?:ai|a\.i\.|assistants?|chat ?bots?|bots?|llms?|(?:ai |language |large language )models?"
    r"|models?|agents?|readers?|systems?|users?|gpt|claude|gemini|copilot)"
)
_ANSWER_VERB = (
    r"(?:answer|say|respond|reply|report|output|state|write|print|return|finish|declare"
    r"|conclude|type|give|tell|use)"
)
# Verbs that order an answer when they open a clause (words such as "state",
# "print" or "use" open clauses as nouns too often to count there).
_ORDER_VERB = r"(?:answer|say|respond|reply|report|output|finish|declare|conclude)"
_MODAL = (
    r"(?:must|should|shall|will|need to|needs to|have to|has to|are to|is to|are required to"
    r"|are instructed to|are asked to|always|only|may only)"
)

_INSTRUCTION = re.compile(
    "|".join(
        [
            # Telling the reader to drop what it was told.
            r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.]{0,40}?"
            r"\b(?:instructions?|directions?|directives?|prompts?|rules|guidelines|guidance"
            r"|context|commands?|orders|messages?|above|everything)\b",
            # An addressee: a vocative, a note or message to it, or it reading this text.
            rf"(?:^|[.;:!?]\s*)\W*(?:(?:dear|attention|hey|hello|hi|note to|message to|to)\s+)?"
            rf"(?:the\s+|any\s+|all\s+|every\s+)?{_ADDRESSEE}\s*[,:;!—–-]",
            rf"\b(?:note|message|instructions?|reminder|notice|memo|directive)s?\s+(?:to|for)\s+"
            rf"(?:the\s+|any\s+|all\s+|every\s+)?(?:\w+\s+)?{_ADDRESSEE}\b",
            rf"\b(?:dear|attention|hey|hello)\s*,?\s+(?:the\s+)?{_ADDRESSEE}\b",
            rf"\b{_ADDRESSEE}\s+(?:reading|processing|parsing|seeing|summari[sz]ing|scanning"
            r"|crawling|who reads?|that reads?)\b",
            r"\b(?:whoever|anyone who|anybody who|everyone who)\s+(?:reads|is reading|sees)\b",
            rf"\bif you(?:'re| are)\s+(?:an?\s+|the\s+)?{_ADDRESSEE}\b",
            rf"\b(?:ai|a\.i\.|assistants?|chat ?bots?|bots?|llms?|language models?|ai models?"
            rf"|readers?)\s*,?\s+(?:you\s+)?{_MODAL}\s+(?:\w+\s+)?{_ANSWER_VERB}\b",
            # Second person orders and answer labels.
            rf"\byou\s+{_MODAL}\s+(?:now\s+|also\s+|instead\s+)?{_ANSWER_VERB}\b",
            r"\b(?:you(?:'re| are)\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|language model|chatbot"
            r"|helpful))",
            r"\b(?:the|your)\s+(?:correct|real|true|actual|final|right|expected)\s+answer\b",
            r"\banswer\s+(?:to|for)\s+(?:this|the|your|any)\s+question\s+(?:is|should|must)\b",
            r"\bthe answer (?:you|to give)\b",
            r"^\W*(?:final\s+)?(?:answer|a|response|reply|output)\s*[:=]",
            r"^\W*(?:ai|assistant|system|model|agent|user|developer|instruction)s?\s*:",
            r"\bfinish\s*\[|^\W*(?:thought|action|observation)\s*\d*\s*:",
            r"\b(?:system prompt|prompt injection|new instructions|jailbreak)",
            # An order to answer at the start of a clause.
            rf"(?:^|[;:,—–]\s*|\b(?:please|now|always|just|simply|then|instead)\s+)\W*"
            rf"{_ORDER_VERB}\b(?!\s+(?:to|of|for|from|on|and)\b)",
            r"\band\s+(?:answer|say|respond|reply)\b(?!\s+(?:to|of|for|from|on|and)\b)",
        ]
    ),
    re.IGNORECASE,
)
# "Say Anything... is a 1989 film": a title starting with such a verb, then described.
_DESCRIBED_TITLE = re.compile(
    r"^\W*[A-Z][\w'’.!?-]*(?:\s+[\w'’.!?&:-]+){0,6}?\s+(?:is|was|are|were)\s+"
    r"(?:an?|the|one|\d)\b"
)
_CLAUSE_START_ORDER = re.compile(rf"^\W*{_ORDER_VERB}\b", re.IGNORECASE)
# Quoted titles inside a sentence ("Say You, Say Me") are names, not orders.
_QUOTED = re.compile(r"[\"“][^\"“”]{1,80}[\"”]")
# Every pattern above needs one of these words, so most sentences skip the patterns.
_TRIGGERS = frozenset(
    split_words(
        "ignore disregard forget override bypass skip ai assistant assistants chatbot chatbots"
        " chat bot bots llm llms model models agent agents reader readers system systems user"
        " users developer instruction gpt claude gemini copilot whoever anyone anybody everyone"
        " you your answer say respond reply report output finish declare conclude response"
        " thought action observation jailbreak prompt"
    )
)
_LOWER_WORD = re.compile(r"[a-z]+")
_A_LABEL = re.compile(r"^\W*a\s*[:=]", re.IGNORECASE)


def _is_order(text: str) -> bool:
    unquoted = _QUOTED.sub(" ", text)
    if unquoted.strip(" .,;:!?"):
        text = unquoted
    if not _INSTRUCTION.search(text):
        return False
    described = _DESCRIBED_TITLE.match(text)
    if described is None or not _CLAUSE_START_ORDER.match(text):
        return True
    rest = text[described.end() :]
    return _INSTRUCTION.search(rest) is not None


@lru_cache(maxsize=65536)
def is_trusted(text: str) -> bool:
    """False for a sentence that addresses the agent (injected instructions), not the world."""
    visible = clean(text)
    words = _LOWER_WORD.findall(visible.casefold())
    if _TRIGGERS.isdisjoint(words) and not _A_LABEL.match(visible):
        return True
    return not _is_order(visible)
