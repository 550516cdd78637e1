"""A question as a user may type it, read as asked: a label before it dropped
("Question: ...", "Please answer: ..."), each run of spaces read as one, and a question
typed in capitals read in lower case, so that `graph.verifier.text.casing.recased` gives
it the capitals the evidence writes (its names are found by their capitals)."""

from __future__ import annotations

import re

# A label or request before the question itself, then a colon or a spaced dash ("Q-Tip"
# is a name).
_LABEL = re.compile(
    r"^\s*(?:(?:the )?question|q|please answer(?: this)?|answer(?: this)?(?: question)?)"
    r"(?:\s*:|\s+[-–—])\s*",
    re.IGNORECASE,
)
_SPACES = re.compile(r"[ \t]{2,}")


def as_asked(question: str) -> str:
    """The question without a label before it, its runs of spaces as one, and in lower
    case when it has no lower-case letter but some capitals ("WHO DIRECTED ...?")."""
    labelled = _LABEL.match(question)
    asked = question[labelled.end() :] if labelled is not None else question
    if "  " in asked or "\t" in asked:
        asked = _SPACES.sub(" ", asked)
    asked = asked.strip() or question
    return asked.lower() if asked.isupper() else asked  # capitals, and no lower case
