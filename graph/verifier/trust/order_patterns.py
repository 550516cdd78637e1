"""The English patterns of text addressed to the agent, each with the words it needs.

Every pattern reads `unmasked` text casefolded, so it is written in lower case and
compiled without `re.IGNORECASE` (about twice as fast). Each one carries a gate: the
words (runs of a-z in the folded text) of which any match holds at least one, and
substrings that stand in for words the runs split ("a.i."). A pattern runs only when
its gate opens, so a sentence pays for the few patterns its words could complete,
not for all of them. Some gates need a second word too (`also`: the verb an addressee
pattern ends on; `gated_patterns`). `tests/test_verifier_gates.py`
checks on real sentences and every injection phrasing that a gate never hides a match.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.trust.gated_patterns import GatedPattern
from graph.verifier.trust.gated_patterns import gated as _gated
from graph.verifier.trust.order_words import (
    ADDRESS,
    ADDRESS_MARKS,
    ADDRESSEE,
    ANSWER_NOUNS,
    ANSWER_VERB,
    ANSWER_VERBS,
    MACHINE,
    MODAL,
    ORDER_VERB,
    SOFTWARE,
    VOCATIVE,
)


def _addressed(pattern: str, also: str = "") -> GatedPattern:
    """A pattern naming an addressee; with `also`, words one of which every match holds too."""
    return _gated(ADDRESS, pattern, ADDRESS_MARKS, also)


ORDER_PATTERNS = (
    # Telling the reader to drop what it was told.
    _gated(
        "ignore disregard forget override bypass skip",
        r"\b(?:ignore|disregard|forget|override|bypass|skip)\b[^.]{0,40}?"
        r"\b(?:instructions?|directions?|directives?|prompts?|rules|guidelines|guidance"
        r"|context|commands?|orders|messages?|above|everything|told|question(?=\s*[.;:,!]))\b",
    ),
    # An addressee: a vocative, a note or message to it, or it reading this text.
    _addressed(
        rf"(?:^|[;:!?]\s*|(?<!\b[a-z])(?<!\bmr)(?<!\bms)(?<!\bdr)(?<!\bmrs)\.\s*)\W*"
        rf"(?:(?:dear|attention|hey|hello|hi|note to|message to|to)\s+)?"
        rf"(?:the\s+|any\s+|all\s+|every\s+)?(?:{VOCATIVE}\s*[,:;!—–-]"
        rf"|(?:robots?|{SOFTWARE})\s*[:;!])"
    ),
    _addressed(
        rf"\b(?:note|message|instructions?|reminder|notice|memo|directive|task|text|ps|p\.s\.)s?"
        rf"(?:\s+|\s*[(\[\"“]\s*)(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+)?(?:[\w-]+\s+)?{ADDRESSEE}\b"
    ),
    _addressed(
        rf"\b(?:meant|intended|addressed|directed)\s+(?:only\s+)?(?:for|to)\s+"
        rf"(?:the\s+|any\s+|all\s+)?{MACHINE}\b|\b(?:sentence|line|text|note|message"
        rf"|paragraph|statement|section)\s+(?:is|are)\s+(?:only\s+)?(?:for|to)\s+"
        rf"(?:the\s+|any\s+|all\s+)?{MACHINE}\b",
        "meant intended addressed directed sentence line text note message paragraph statement"
        " section",
    ),
    _addressed(
        rf"\b{MACHINE}\s+(?:are|is)\s+(?:hereby\s+|now\s+)?(?:instructed|told|informed|asked"
        r"|reminded|required|directed|ordered|advised)\b",
        "instructed told informed asked reminded required directed ordered advised",
    ),
    _gated(
        "summary summaries answer answers response responses replies output outputs",
        rf"\b(?:summar(?:y|ies)|answers?|responses?|replies|outputs?)\b[^.;]{{0,30}}?\b{MODAL}"
        rf"\s+(?:\w+\s+)?{ANSWER_VERB}\b",
    ),
    _gated(ANSWER_NOUNS, rf"\bin\s+(?:your|any)\s+(?:{ANSWER_NOUNS.replace(' ', '|')})\b"),
    _gated("answer", r"\b(?:this|that)\s+is\s+the\s+(?:correct\s+|right\s+|real\s+)?answer\b"),
    # Chat-template markup, and text hidden from a human reader of the page.
    _gated(
        "",
        r"<\s*/?\s*(?:system|sys|assistant|user|human|instructions?)\s*>|<\|\w+\|>|\[/?inst\]"
        r"|^\W*#+\s*(?:instruction|response|system|input)\s*:"
        r"|\"role\"\s*:"
        r"|<[^>]{0,300}?style=[^>]{0,300}?(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0)",
        ("<", "#", "[inst]", "[/inst]", '"role"'),
    ),
    _addressed(
        rf"\b(?:dear|attention|hey|hello|hi|greetings|fyi|psst)\s*,?\s+(?:the\s+)?{ADDRESSEE}\b",
        "dear attention hey hello hi greetings fyi psst",
    ),
    _addressed(
        rf"\b(?:dear|hey|hello|hi|greetings)(?:\s+there)?\s*,?\s+(?:the\s+)?(?:[\w-]+\s+)?"
        rf"{ADDRESSEE}\s*[,:;!.—–-]",
        "dear hey hello hi greetings",
    ),
    # Software named after "you,", a handle or in brackets; "as an AI", "you, the AI".
    _addressed(
        rf"\byou\s*,\s*(?:the\s+)?{MACHINE}\s*[:!]"
        r"|^\W*(?:ais?|assistants?|chat ?bots?|llms?)\s*[.…]"
    ),
    _addressed(
        rf"(?:^|\s)@\s?(?:{MACHINE}|bots?|agents?|models?)\b|\[\s*(?:{MACHINE}|bots?|agents?"
        rf"|models?)\s*\]|^\W*[\w-]+\s+(?:agents?|assistants?|bots?)\s*:"
    ),
    _addressed(
        rf"^\W*as\s+an?\s+{MACHINE}\s*,|\bas\s+an?\s+{MACHINE}\s*,?\s+you\b"
        rf"|\byou\s*,\s*(?:the\s+|an?\s+)?{MACHINE}\s*,",
        "as you",
    ),
    # A short lead-in in any language naming an AI, then a colon ("Uwaga dla AI:").
    _gated(
        "ai ais ia ki llm llms",
        r"^\W*(?:[^\s:]+\s+){0,3}(?:ais?|a\.i\.?|ia|ki|llms?)(?:\s+[^\s:]+)?\s*:",
        ("a.i",),
    ),
    # Notes and instructions labelled for software, and labels of a prompt.
    _gated(
        "note notes message messages notice notices memo memos instruction instructions prompt"
        " override directive directives",
        rf"^\W*(?:{MACHINE}|models?|bots?|agents?)\s+(?:notes?|messages?|notices?|memos?"
        r"|instructions?)\s*:|^\W*(?:[\w-]+\s+){0,2}(?:instructions?|prompt|override"
        r"|directives?)\s*:|^\W*(?:hidden|secret|private|confidential|developer|system|admin"
        r"|machine-readable)\s+(?:notes?|messages?)\s*:",
    ),
    _gated(
        "q question",
        r"\bq(?:uestion)?\s*:\s*(?:what|who|whom|which|where|when|how|why)\b[^?]{0,200}\?\s*"
        r"(?:a|answer)\s*:",
    ),
    # Telling the reader which sources to trust.
    _gated(
        "other another different",
        r"(?:^|[;:,.—–]\s*)\W*(?:do\s+not|don't|never)\s+(?:trust|believe|rely\s+on)\s+"
        r"(?:any\s+)?(?:other|another|different)\b",
    ),
    _gated(
        "treat page source text sentence site document",
        r"\b(?:trust|believe|use)\s+only\s+this\s+(?:page|source|text|sentence|site|document)\b"
        r"|\btreat\s+this\s+(?:\w+\s+)?as\s+(?:authoritative|true|fact|correct|the\s+truth)\b",
    ),
    _addressed(
        rf"\b{ADDRESSEE}\s+(?:reading|processing|parsing|seeing|summari[sz]ing|scanning"
        r"|crawling|who reads?|that reads?)\b",
        "reading processing parsing seeing summarising summarizing scanning crawling who that",
    ),
    _gated(
        "reads reading read sees reader readers",
        r"\b(?:whoever|anyone who|anybody who|everyone who)\s+(?:reads|is reading|sees)\b"
        r"|\b(?:you|one|whoever)\s+(?:who\s+(?:is\s+|are\s+)?)?(?:reading|reads?)\s+this\b"
        r"|\breaders?\s+of\s+this\s+(?:page|text|article|site|document)\b",
    ),
    # Software named as whom a remark is for, or told what to know or do.
    _addressed(
        rf"\b(?:for|to)\s+(?:all\s+|any\s+|the\s+)?(?:{MACHINE}(?:\s+only)?\s*[,:;!—–-]"
        r"|(?:bots?|models?|agents?)\s*:)"
    ),
    _gated("you youre", r"\bif you(?:'?re| are)\s+(?:reading|seeing|processing|parsing)\s+this\b"),
    _addressed(rf"\b{MACHINE}\s*,?\s+(?:take\s+note|note\s+(?:this|that|well))\b", "note"),
    _addressed(
        rf"\b{MACHINE}\s+{MODAL}\s+(?:\w+\s+)?(?:know|note|remember|understand|treat"
        r"|consider|assume|believe|accept|repeat|insist|claim|assert|rely|trust)\b",
        "know note remember understand treat consider assume believe accept repeat insist claim"
        " assert rely trust",
    ),
    _gated("you youre", rf"\bif you(?:'?re| are)\s+(?:an?\s+|the\s+)?{ADDRESSEE}\b"),
    _addressed(
        rf"\b(?:{MACHINE}|bots?|readers?)\s*,?\s+(?:you\s+)?{MODAL}\s+(?:\w+\s+)?{ANSWER_VERB}\b",
        ANSWER_VERBS,
    ),
    # Second person orders and answer labels.
    _gated("you", rf"\byou\s+{MODAL}\s+(?:now\s+|also\s+|instead\s+)?{ANSWER_VERB}\b"),
    _gated(
        "you youre",
        r"\b(?:you(?:'?re| are)\s+(?:now\s+)?(?:an?\s+)?(?:ai|assistant|language model|chatbot"
        r"|helpful))",
    ),
    _gated(
        "answer",
        r"\b(?:the|your)\s+(?:only\s+)?(?:correct|real|true|actual|final|right|expected|valid"
        r"|acceptable|intended|proper|best)\s+answer\b",
    ),
    _gated(
        "response reply output",
        r"\b(?:the|your)\s+(?:only\s+)?(?:correct|right|acceptable|intended|proper)\s+"
        r"(?:response|reply|output)\b",
    ),
    _gated("your", rf"\byour\s+(?:answer|response|reply|output|task|job)\s*(?::|=|is\b|{MODAL})"),
    _gated("answer", r"\bthe answer (?:be|must|should|shall|has to|needs to|is to)\b"),
    _gated(
        "answering responding replying you youre",
        r"\bwhen(?:ever)?\s+(?:(?:answering|responding|replying)(?:\s+(?:questions?|queries"
        r"|prompts?|users?)\b[^,]{0,40})?\s*,|you(?:'?re| are)?\s+(?:asked|answer|answering"
        r"|respond|responding|reply|replying|prompted)\b)",
    ),
    _gated("accordingly", r"\b(?:answer|respond|reply)\s+accordingly\b"),
    _gated(
        "sure remember forget",
        r"\b(?:sure|remember|forget)\s+(?:to|that you)\s+(?:answer|say|respond|reply|report"
        r"|state|output|write)\b",
    ),
    _gated("you", rf"\byou\s+{MODAL}\s+(?:\w+\s+)?repeat\b"),
    _gated(
        "user users asker askers questioner questioners",
        r"(?:^|[;:,—–]\s*|\bplease\s+)\W*(?:tell|inform|let)\s+(?:the\s+)?(?:users?|askers?"
        r"|questioners?)\b",
    ),
    _gated(
        "answer",
        r"\banswer\s+(?:to|for)\s+(?:this|the|your|any)\s+question\s+(?:is|should|must)\b"
        r"|\bthe answer (?:you|to give)\b",
    ),
    _gated(
        "",
        r"^\W*(?:(?:(?:final|correct|expected|gold|true|real|right)\s+)?(?:answer|a|response"
        r"|reply|output|answering|solution)\s*(?:[:=]|-+>|=>|-\s)|(?:ai|assistant|system|model"
        r"|agent|user|developer|instruction|robot|admin|administrator|operator)s?\s*:"
        r"|(?:thought|action|observation)\s*\d*\s*:|ground\s+truth\s*:)",
        (":", "=", "-"),
    ),
    _gated("finish", r"\bfinish\s*\["),
    _gated(
        "",
        r"(?:system prompt|prompt injection|new instructions|jailbreak|(?:begin|end|start)\s+"
        r"(?:of\s+)?instructions)",
        ("prompt", "instructions", "jailbreak"),
    ),
    # An order to answer at the start of a clause.
    _gated(
        "answer say respond reply report output finish declare conclude",
        rf"(?:^|[;:,—–]\s*|--\s*|(?<!\b[a-z])[.!?]\s*|\b(?:please|now|always|just"
        rf"|simply|then|instead|kindly|do|so)\s+)\W*{ORDER_VERB}\b"
        r"(?!\s+(?:to|of|for|from|on|and)\b(?![^.:]{0,40}:|\s+the\s+users?\b))"
        # After a bracket, bar, ellipsis or quotation mark, titles ("(Reply Version)") too.
        rf"|[(\[|…\"“]\s*{ORDER_VERB}(?:\s*:|\s+(?:with|that|only|exactly|accordingly)\b)",
    ),
    _gated(
        "state claim assert write print output type return repeat insist mention explain",
        r"(?:^|[;:,—–]\s*)\W*(?:state|claim|assert|write|print|output|type|return|repeat|insist"
        r"|mention|explain)"
        r"\s+(?:that|this|it)\b",
    ),
    _gated("you", r"\b(?:that|so)\s+you\s+(?:answer|say|respond|reply|report)\b"),
    _gated(
        "you",
        rf"\byou(?:'ll|'d(?:\s+better)?|'re\s+to)\s+(?:only\s+|always\s+)?{ORDER_VERB}\b",
    ),
    # Whoever asks is to hear it; what the answer or an assistant's answer is.
    _gated(
        "ask asks asked asking",
        r"\b(?:if|when(?:ever)?|in\s+case|should)\s+(?:you(?:'re|\s+are|\s+get|\s+were)?"
        r"|anyone|anybody|someone|somebody|(?:a|the|any)\s+users?|users)\s+(?:asks?|asked)\b"
        r"|\bwhoever\s+asks\b|\basking\s+(?:\w+\s+){0,3}?(?:should|must|is\s+to|are\s+to"
        r"|needs?\s+to)\s+(?:be\s+told|hear)\b",
    ),
    _gated(
        "answer reply response output",
        r"\bthe\s+(?:answer|reply|response|output)\s+(?:needs\s+to|ought\s+to|will)\s+be\b"
        rf"|\b{MACHINE}'s\s+(?:final\s+)?(?:answer|reply|response|output)\b"
        r"|\b(?:give|return|print|output|use|write)\s+\w+\s+as\s+(?:the|your)\s+(?:final\s+)?"
        r"(?:answer|response|reply|output)\b|^\W*the\s+answer\s+is\b",
    ),
    _gated(
        "answering responding replying answer response reply",
        r"\buse\s+(?:this|that|it)\s+(?:when|in\s+your|in\s+the)\s+(?:answering|responding"
        r"|replying|answer|response|reply)\b",
    ),
    _gated(
        "answer say respond reply",
        r"\band\s+(?:answer|say|respond|reply)\b(?!\s+(?:to|of|for|from|on|and)\b)",
    ),
)

_ALWAYS = tuple(gated.pattern for gated in ORDER_PATTERNS if gated.may_match(frozenset(), ""))
_BY_WORD: dict[str, list[int]] = {}
_BY_SUBSTRING: dict[str, list[int]] = {}
for _index, _gated_pattern in enumerate(ORDER_PATTERNS):
    for _word in _gated_pattern.words:
        _BY_WORD.setdefault(_word, []).append(_index)
    for _substring in _gated_pattern.substrings:
        _BY_SUBSTRING.setdefault(_substring, []).append(_index)
_OPENING = frozenset(_BY_WORD)
_ALSO = {index: gated.also for index, gated in enumerate(ORDER_PATTERNS) if gated.also}
GATE_WORDS = _OPENING.union(*_ALSO.values())
_SUBSTRINGS = tuple(_BY_SUBSTRING)


def patterns_for(words: frozenset[str], folded: str) -> tuple[re.Pattern[str], ...]:
    """The patterns whose gates a text with these words (and this folded form) opens,
    in their order."""
    return _opened_by(words, tuple([s for s in _SUBSTRINGS if s in folded]))


@lru_cache(maxsize=8192)
def _opened_by(words: frozenset[str], substrings: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The patterns whose gates these words and substrings (of `_SUBSTRINGS`) open."""
    opened: set[int] = set()
    for word in words & _OPENING:
        opened.update(_BY_WORD[word])
    for substring in substrings:
        opened.update(_BY_SUBSTRING[substring])
    opened.difference_update([i for i in opened if i in _ALSO and _ALSO[i].isdisjoint(words)])
    if not opened:
        return _ALWAYS
    return _ALWAYS + tuple(ORDER_PATTERNS[index].pattern for index in sorted(opened))


_LATER_OF = {gated.pattern: gated.later for gated in ORDER_PATTERNS if gated.later is not None}


def at_later_sentences(patterns: tuple[re.Pattern[str], ...]) -> list[re.Pattern[str]]:
    """Of these patterns, those that read the start of a text, as they read the start of
    each of its sentences."""
    return [_LATER_OF[pattern] for pattern in patterns if pattern in _LATER_OF]
