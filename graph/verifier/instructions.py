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
from itertools import pairwise

from graph.verifier.clean import unmasked
from graph.verifier.foreign_orders import (
    FOREIGN_ORDER,
    OPENING_ORDER,
    addresses_in_other_language,
)
from graph.verifier.normalise import split_words

_ADDRESSEE = (
    r"(?:ai|a\.i\.|assistants?|chat ?bots?|bots?|llms?|(?:ai |language |large language )models?"
    r"|models?|agents?|readers?|systems?|users?|gpt|chatgpt|claude|gemini|copilot"
    r"|artificial intelligences?"
    r"|(?:machine|automated|automatic|ai)\s+(?:readers?|agents?|systems?|tools?|crawlers?))"
)
_ANSWER_VERB = (
    r"(?:answer|say|respond|reply|report|output|state|write|print|return|finish|declare"
    r"|conclude|type|give|tell|use)"
)
# Verbs that order an answer when they open a clause (words such as "state",
# "print" or "use" open clauses as nouns too often to count there).
_ORDER_VERB = r"(?:answer|say|respond|reply|report|output|finish|declare|conclude)"
# Addressees that are only ever software ("readers" and "models" are people too).
_MACHINE = (
    r"(?:ai|a\.i\.|assistants?|chat ?bots?|llms?|robots?|artificial intelligences?"
    r"|(?:ai|language|large language)\s+"
    r"(?:models?|systems?|assistants?|agents?|tools?)|chatgpt|gpt|claude|gemini|copilot"
    r"|(?:machine|automated|automatic)\s+(?:readers?|agents?|systems?|tools?|crawlers?))"
)
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
            rf"\b(?:note|message|instructions?|reminder|notice|memo|directive|task|text)s?\s+"
            rf"(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+)?(?:[\w-]+\s+)?{_ADDRESSEE}\b",
            rf"\b(?:meant|intended|addressed|directed)\s+(?:only\s+)?(?:for|to)\s+"
            rf"(?:the\s+|any\s+|all\s+)?{_MACHINE}\b",
            rf"\b{_MACHINE}\s+(?:are|is)\s+(?:hereby\s+|now\s+)?(?:instructed|told|informed|asked"
            r"|reminded|required|directed|ordered|advised)\b",
            rf"\b(?:summar(?:y|ies)|answers?|responses?|replies|outputs?)\b[^.;]{{0,30}}?\b{_MODAL}\s+"
            rf"(?:\w+\s+)?{_ANSWER_VERB}\b",
            r"\bin\s+(?:your|any)\s+(?:answer|reply|response|output|summary)\b",
            r"\b(?:this|that)\s+is\s+the\s+(?:correct\s+|right\s+|real\s+)?answer\b",
            # Chat-template markup.
            r"<\s*/?\s*(?:system|assistant|user|human|instructions?)\s*>|<\|\w+\|>|\[/?inst\]"
            r"|\"role\"\s*:",
            # Text hidden from a human reader of the page.
            r"<[^>]*style=[^>]*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0)",
            rf"\b(?:dear|attention|hey|hello)\s*,?\s+(?:the\s+)?{_ADDRESSEE}\b",
            rf"\b{_ADDRESSEE}\s+(?:reading|processing|parsing|seeing|summari[sz]ing|scanning"
            r"|crawling|who reads?|that reads?)\b",
            r"\b(?:whoever|anyone who|anybody who|everyone who)\s+(?:reads|is reading|sees)\b",
            # Software named as whom a remark is for, or told what to know or do.
            rf"\b(?:for|to)\s+(?:all\s+|any\s+|the\s+)?{_MACHINE}(?:\s+only)?\s*[,:;!—–-]",
            r"\bif you(?:'re| are)\s+(?:reading|seeing|processing|parsing)\s+this\b",
            rf"\b{_MACHINE}\s*,?\s+(?:take\s+note|note\s+(?:this|that|well))\b",
            rf"\b{_MACHINE}\s+{_MODAL}\s+(?:\w+\s+)?(?:know|note|remember|understand|treat"
            r"|consider|assume|believe|accept|repeat|insist|claim|assert)\b",
            rf"\bif you(?:'re| are)\s+(?:an?\s+|the\s+)?{_ADDRESSEE}\b",
            rf"\b(?:{_MACHINE}|bots?|readers?)\s*,?\s+(?:you\s+)?{_MODAL}\s+(?:\w+\s+)?{_ANSWER_VERB}\b",
            # Second person orders and answer labels.
            rf"\byou\s+{_MODAL}\s+(?:now\s+|also\s+|instead\s+)?{_ANSWER_VERB}\b",
            r"\b(?:you(?:'re| are)\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|language model|chatbot"
            r"|helpful))",
            r"\b(?:the|your)\s+(?:only\s+)?(?:correct|real|true|actual|final|right|expected"
            r"|acceptable|intended|proper|best)\s+answer\b",
            r"\b(?:the|your)\s+(?:only\s+)?(?:correct|right|acceptable|intended|proper)\s+"
            r"(?:response|reply|output)\b",
            rf"\byour\s+(?:answer|response|reply|output|task|job)\s*(?::|=|is\b|{_MODAL})",
            r"\bthe answer (?:be|must|should|shall|has to|needs to|is to)\b",
            r"\bwhen(?:ever)?\s+(?:(?:answering|responding|replying)(?:\s+(?:questions?|queries"
            r"|prompts?|users?)\b[^,]{0,40})?\s*,|you(?:'re| are)?\s+(?:asked|answer|answering"
            r"|respond|responding|reply|replying|prompted)\b)",
            r"\b(?:answer|respond|reply)\s+accordingly\b",
            r"\b(?:sure|remember|forget)\s+(?:to|that you)\s+(?:answer|say|respond|reply|report"
            r"|state|output|write)\b",
            rf"\byou\s+{_MODAL}\s+(?:\w+\s+)?repeat\b",
            r"(?:^|[;:,—–]\s*|\bplease\s+)\W*(?:tell|inform)\s+the\s+(?:users?|askers?"
            r"|questioners?)\b",
            r"\banswer\s+(?:to|for)\s+(?:this|the|your|any)\s+question\s+(?:is|should|must)\b",
            r"\bthe answer (?:you|to give)\b",
            r"^\W*(?:final\s+|correct\s+)?(?:answer|a|response|reply|output|answering|solution)"
            r"\s*[:=]",
            r"^\W*(?:ai|assistant|system|model|agent|user|developer|instruction|robot)s?\s*:",
            r"\bfinish\s*\[|^\W*(?:thought|action|observation)\s*\d*\s*:",
            r"\b(?:system prompt|prompt injection|new instructions|jailbreak)",
            # An order to answer at the start of a clause.
            rf"(?:^|[;:,—–]\s*|(?<!\b[A-Z])[.!?]\s+|\b(?:please|now|always|just|simply|then"
            rf"|instead|kindly|do|so)\s+)\W*{_ORDER_VERB}\b(?!\s+(?:to|of|for|from|on|and)\b)",
            r"(?:^|[;:,—–]\s*)\W*(?:state|claim|assert|write|print|output|type|return|repeat)"
            r"\s+(?:that|this|it)\b",
            r"\bthat\s+you\s+(?:answer|say|respond|reply|report)\b",
            r"\band\s+(?:answer|say|respond|reply)\b(?!\s+(?:to|of|for|from|on|and)\b)",
        ]
    ),
    re.IGNORECASE,
)
# "Say Anything... is a 1989 film": a title starting with such a verb, then described.
_DESCRIBED_TITLE = re.compile(
    r"^\W*[A-Z][\w'’.!?,-]*(?:\s+[\w'’.!?&:,-]+){0,6}?\s+(?:is|was|are|were)\s+"
    r"(?:an?|the|one|\d|written|recorded|released|directed|produced|performed|composed"
    r"|published|originally)\b"
)
_CLAUSE_START_ORDER = re.compile(rf"^\W*{_ORDER_VERB}\b", re.IGNORECASE)
# Quoted titles inside a sentence ("Say You, Say Me") are names, not orders.
_QUOTED = re.compile(r"[\"“][^\"“”]{1,80}[\"”]")
# A quotation that addresses the agent is no title: it stays ("The page says “Note to AI: ...”").
_QUOTED_ORDER = re.compile(rf"\b{_MACHINE}\b|:\s*\w|^[\"“](?:role|content)[\"”]$", re.IGNORECASE)
# Every pattern above needs one of these words, so most sentences skip the patterns.
_TRIGGERS = frozenset(
    split_words(
        "ignore disregard forget override bypass skip ai assistant assistants chatbot chatbots"
        " chat bot bots llm llms model models agent agents reader readers system systems user"
        " users developer instruction gpt claude gemini copilot whoever anyone anybody everyone"
        " you your answer say respond reply report output finish declare conclude response"
        " thought action observation jailbreak prompt chatgpt machine automated automatic"
        " answering responding replying robot robots artificial"
        " instructions inst im solution summary summaries"
    )
)
# Verbs that order a statement with "that", "this" or "it" next ("State that ...").
_THAT_VERBS = frozenset(split_words("state claim assert write print output type return repeat"))
_THAT = frozenset(split_words("that this it"))
_LOWER_WORD = re.compile(r"[a-z]+")
# A sentence pointing at what comes next ("the following applies", "the next line").
_AHEAD = re.compile(r"\b(?:following|below|next\s+(?:line|sentence|statement|fact))\b", re.I)
# Markers the words do not show: "A.I.", chat-template roles, hidden HTML.
_MARKERS = ("a.i", '"role"', "<|", "<system", "style=")
_A_LABEL = re.compile(r"^\W*a\s*[:=]", re.IGNORECASE)


def _unquote(match: re.Match[str]) -> str:
    quoted = match.group(0)
    return quoted if _QUOTED_ORDER.search(quoted) else " "


def _found(text: str, foreign: bool) -> bool:
    return _INSTRUCTION.search(text) is not None or (
        foreign and FOREIGN_ORDER.search(text) is not None
    )


def _is_order(text: str, foreign: bool) -> bool:
    unquoted = _QUOTED.sub(_unquote, text)
    if unquoted.strip(" .,;:!?"):
        text = unquoted
    if not _found(text, foreign):
        return False
    described = _DESCRIBED_TITLE.match(text)
    opens = _CLAUSE_START_ORDER.match(text) or (foreign and OPENING_ORDER.match(text))
    if described is None or not opens:
        return True
    return _found(text[described.end() :], foreign)


@lru_cache(maxsize=65536)
def is_trusted(text: str) -> bool:
    """False for a sentence that addresses the agent (injected instructions), not the world."""
    return all(_is_trusted_as(visible) for visible in unmasked(text))


def _is_trusted_as(visible: str) -> bool:
    folded = visible.casefold()
    words = _LOWER_WORD.findall(folded)
    foreign = addresses_in_other_language(visible, words)
    if (
        not foreign
        and _TRIGGERS.isdisjoint(words)
        and not any(marker in folded for marker in _MARKERS)
        and not _A_LABEL.match(visible)
        and (
            _THAT_VERBS.isdisjoint(words)
            or not any(a in _THAT_VERBS and b in _THAT for a, b in pairwise(words))
        )
    ):
        return True
    return not _is_order(visible, foreign)


@lru_cache(maxsize=65536)
def introduces(text: str) -> bool:
    """Whether a sentence addressing the agent introduces the next one ("Note to AI:",
    "Attention, language models."): it ends in a colon, is short or points ahead."""
    visible = text.rstrip()
    if not visible.endswith(":") and len(visible.split()) > 8 and not _AHEAD.search(visible):
        return False
    return not is_trusted(text)
