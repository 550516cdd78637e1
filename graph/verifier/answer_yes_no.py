"""A yes or no as a reply says it: followed by its reason ("Yes, both are American."),
or as a statement that answers a yes/no question ("Both are American.", "Neither is.",
"True"), read as the yes or no it says."""

from __future__ import annotations

import re

from graph.verifier.kinds.question import analyse_question
from graph.verifier.text.normalise import analyse, singular
from graph.verifier.text.wordstems import STOPWORDS

# The auxiliary and modal verbs a yes/no question opens a clause with, or a statement
# answers with; the ones that ask ("are you", "would they"), the "has" ones aside.
_AUXILIARIES = ("is", "are", "was", "were", "has", "have", "had", "do", "does", "did")
_MODALS = ("can", "could", "will", "would")
_VERBS_SAID = "|".join((*_AUXILIARIES, *_MODALS))
_VERB = f"(?:{_VERBS_SAID})"
_ASKING = "|".join(verb for verb in (*_AUXILIARIES, *_MODALS) if not verb.startswith("ha"))
# The words a yes or no's reason opens with ("yes they are", "no both were born ..."), not
# a name's next word ("No Doubt", "Yes Man").
_REASON_OPENING = re.compile(
    r"(?:they|it|he|she|both|neither|only|not|because|since|as|the|this|that|these|those"
    rf"|{_VERBS_SAID})\b",
    re.I,
)
# An auxiliary verb that opens a clause ("Were X and Y ...", "..., are they ...") or asks
# ("would you be ...").
_AUXILIARY = re.compile(
    rf"(?:^\W*|[.,;!?]\s+){_VERB}\b|\b(?:{_ASKING})\s+(?:you|they|he|she|it|both)\b", re.I
)
_EXPLAINED_YES_NO = re.compile(r"^(yes|no)(?:\s*[,;:!–—]|\s+-|\.(?!\s*\d))\s*\S", re.I)
# A reply's first word that says yes or no, alone or before its reason ("True.", "Correct,
# both are."; "True Lies" is a title).
_AFFIRMING = re.compile(
    r"^(?:(true|correct|indeed|yeah|yep)|(false|incorrect|nope))(?:$|\s*[,;:!–—-]|\.)", re.I
)
# A statement about both things a question names: "Both are American.", "They were both
# born in 1950", "Neither is a singer.", "Only Ann Lee is American."; a verb after the
# subject, so that a title ("Both Sides Now", "Only Fools and Horses") is no statement.
_BOTH = re.compile(
    rf"^(?:(?:both(?: of them)?|each of them)\s+{_VERB}|they\s+(?:{_VERB}\s+)?both)\s+(.*)$",
    re.I,
)
_NEITHER = re.compile(rf"^(?:neither|none)(?: of them)?\s+{_VERB}\s+(.*)$", re.I)
_ONLY = re.compile(rf"^only\s+(.+?)\s+{_VERB}\s+(.*)$", re.I)
# The verbs a statement's words leave out when they are compared with the question's.
_VERBS = frozenset(_AUXILIARIES)


def yes_or_no_said(question: str, answer: str) -> str:
    """A yes or no followed by its reason ("Yes, both are American.", "yes they are"),
    when the question asks yes or no: no wh-word, and an auxiliary verb opens a clause or
    asks ("Are ...?", "..., would you ...?"), or it names two things ("X and Y both ...?").
    A title such as "Yes, Minister" answers "Name the sitcom ..." or a "which" whole. A
    statement is read as the yes or no it says (`_stated`)."""
    explained = _EXPLAINED_YES_NO.match(answer)
    first, _, rest = answer.partition(" ")
    if explained:
        said = explained.group(1)
    elif first.casefold() in ("yes", "no") and _REASON_OPENING.match(rest):
        said = first
    else:
        said = _stated(question, answer) or ""
    if not said:
        return answer
    asked = analyse_question(question)
    if not asked.asks_yes_no:
        return answer
    yes_no = asked.strict_yes_no or asked.pair_kind == "and" or _AUXILIARY.search(question)
    return said if yes_no else answer


def _within_question(question: str, words: str) -> bool:
    """Every content word of a statement's rest is the question's: "American" of "Are
    they both American?", never "British" (a statement about another attribute)."""
    asked = {singular(token) for token in analyse(question).tokens}
    said = [singular(t) for t in analyse(words).tokens if t not in STOPWORDS and t not in _VERBS]
    return bool(said) and all(token in asked for token in said)


def _stated(question: str, answer: str) -> str | None:
    """The yes or no a statement says: "True"/"Correct" (yes) or "False" (no), "Both are
    <what the question asks>" (yes), "Neither is ..." or "Only <one> is ..." (no)."""
    text = answer.strip().rstrip(".!")
    affirming = _AFFIRMING.match(text)
    if affirming:
        return "yes" if affirming.group(1) else "no"
    both = _BOTH.match(text)
    if both and _within_question(question, both.group(1)):
        return "yes"
    neither, only = _NEITHER.match(text), _ONLY.match(text)
    if neither and _within_question(question, neither.group(1)):
        return "no"
    if only and all(_within_question(question, part) for part in only.groups()):
        return "no"
    return None
