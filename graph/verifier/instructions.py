"""Recognise text addressed to the agent (injected instructions) rather than the world."""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.normalise import analyse, split_words

# Text addressed to the agent rather than describing the world (checked on raw text).
_INSTRUCTION = re.compile(
    "|".join(
        [
            r"\b(?:ignore|disregard|forget|override)\b[^.]{0,40}?"
            r"\b(?:instructions?|prompts?|rules|guidelines|context)\b",
            r"\b(?:note|message|instructions?|reminder)s?\s+(?:to|for)\s+(?:the\s+|any\s+)?"
            r"(?:ai|assistant|model|agent|chatbot|bot|llm|language model)s?\b",
            r"\b(?:dear|attention|hey|hello)\s*,?\s+(?:ai|assistant|model|agent|chatbot|llm)\b",
            r"^\W*(?:ai|assistant|system|model|agent|user)\s*:",
            r"\b(?:ai|llm|language model|assistant|chatbot)s?\s*,?\s+"
            r"(?:you|must|should|are instructed|will now)\b",
            r"\b(?:the|your)\s+(?:correct|real|true|actual|final|right)\s+answer\b",
            r"\banswer\s+(?:to|for)\s+(?:this|the|your)\s+question\s+(?:is|should|must)\b",
            r"\b(?:respond|reply|output)\s+(?:only\s+)?(?:with|that)\b",
            r"\byou\s+(?:must|should|need to|have to|are to|are required to)\s+(?:now\s+)?"
            r"(?:answer|respond|reply|say|output|write|use|finish|ignore|stop|state)\b",
            r"\bfinish\s*\[|^\W*(?:thought|action|observation)\s*:",
            r"\b(?:system prompt|prompt injection|new instructions|jailbreak)",
            r"\byou(?: are|'re)\s+(?:now\s+)?(?:an?\s+)?"
            r"(?:ai|assistant|language model|chatbot|helpful)",
        ]
    ),
    re.IGNORECASE,
)
_INSTRUCTION_TRIGGERS = frozenset(
    split_words(
        "ignore disregard forget override note message instruction instructions reminder dear"
        " attention hey hello ai assistant system model agent user llm chatbot bot answer respond"
        " reply output you finish thought action observation prompt injection jailbreak"
    )
)


@lru_cache(maxsize=65536)
def is_trusted(text: str) -> bool:
    """False for a sentence that addresses the agent (injected instructions), not the world."""
    return _INSTRUCTION_TRIGGERS.isdisjoint(analyse(text).tokens) or not _INSTRUCTION.search(text)
