"""Decide whether stored evidence supports a proposed final answer.

`verify_answer` is a pure function of (question, answer, evidence): no I/O, no
model. Text on both sides is normalised as HotpotQA scores answers (case,
punctuation, articles) and further folded so that accents, possessives,
numbers, dates and units compare equal (`30 July 1970` ~ `July 30, 1970`,
`7 billion` ~ `7,000,000,000`). An answer is supported when a trusted stored
sentence related to the question states it (as one span, as a close span, or
part by part); a yes/no or pick-one-of-two comparison answer is never stated
verbatim, so it is *grounded* when evidence about each compared entity was
stored, and the verdict says it is grounded rather than entailed. Sentences
that read like instructions to the agent never count as evidence.
"""

from graph.verifier.verdicts import (
    GROUNDING_COMPARISON,
    GROUNDING_COMPUTED,
    GROUNDING_CONTAINED,
    GROUNDING_NONE,
    GROUNDING_PARAPHRASE,
)
from graph.verifier.verify import verify_answer

__all__ = [
    "GROUNDING_COMPARISON",
    "GROUNDING_COMPUTED",
    "GROUNDING_CONTAINED",
    "GROUNDING_NONE",
    "GROUNDING_PARAPHRASE",
    "verify_answer",
]
