"""What only words an answer, dropped before it is checked: quotes or emphasis around
it, "The answer is X.", a sentence's full stop, "in" or "about" before a date or number,
and, when the question asks yes or no, the reason after a yes or no. A right answer
given so is checked as the answer itself (see the verifier bench's invariances,
`graph.evaluation.verifier_invariance`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

from graph.verifier.text.normalise import CARDINAL_WORDS, alternation

# A full stop after a word of three or more letters, not an abbreviation's ("Inc.").
_SENTENCE_STOP = re.compile(r"(?<![.\w])(?!(?:Inc|Ltd|Co|Jr|Sr|St|Bros|Corp)\.$)\w{3,}\.$")
# A date or number answer written with the word that introduces or hedges it ("in 1954",
# "about 80,000").
_LEADING_WORDS = re.compile(
    r"^(?:(?:in(?: the year)?|on|during|circa|c\.|ca\.|around|about|approximately|approx\."
    r"|roughly|(?:an )?estimated|the year)\s+(?=\d|(?-i:[A-Z][a-z]+)\.? \d)"
    r"|(?:around|about|approximately|roughly)\s+"
    rf"(?=(?-i:{alternation(list(CARDINAL_WORDS))}|a hundred|a thousand|a million|a dozen)\b))",
    re.IGNORECASE,
)
# A page title's disambiguation: "Lolita (1962 film)", "Bethany College (Kansas)".
_DISAMBIGUATED = re.compile(r"^(.*\S)\s*\([^()]+\)$")
# A reply that announces its answer: "The answer is X.", "The answer is: X", "Answer: X",
# "**Answer:** X", "ANSWER - X", "A: X", "It was X.", "I think X."; "answer is" and the verbs in
# lower case, so that a title ("The Answer Is Love", "It Was a Very Good Year") is kept
# whole.
_ANNOUNCED = re.compile(
    r"^(?:(?:[Ss]o,? )?[Tt]he (?:final |correct )?answer (?:is|would be):?\s"
    r"|(?i:(?:the )?(?:final )?answer)\s*:\s*|(?:[Ff]inal )?(?:[Aa]nswer|ANSWER)\s*[-–—]\s*|A:\s+"
    r"|(?:\*\*|__)(?i:(?:the )?(?:final )?answer)\s*(?::\s*(?:\*\*|__)|(?:\*\*|__)\s*:)\s*"
    r"|(?:[Ii]t|[Tt]hat|[Tt]his) (?:is|was|would be) "
    r"|I (?:think|believe)(?: (?:it is|it was|that))? "
    r"|(?:[Bb]ased on|[Aa]ccording to) (?:the )?(?:stored )?evidence, "
    r"|(?:[Tt]herefore|[Tt]hus|[Hh]ence), )"
)
# The most announcements read off one answer ("Based on the evidence, I think the answer
# is X." has three).
_MOST_ANNOUNCEMENTS = 4
# The same after the answer, and where it says it comes from: "Tromsø is the answer.",
# "Tromsø, according to the evidence", "Tromsø, as stated in E3", "Tromsø, I think" (in
# lower case: a title capitalises).
_SOURCE = r"(?:the )?(?:stored )?(?:evidence|sources?|sentences?(?: E\d+)?|E\d+|article|page)"
_ANNOUNCED_AFTER = re.compile(
    r"(?:\s+(?:is|was) the (?:final |correct )?answer"
    rf"|,?\s+(?:according to|as (?:stated|given|shown|said) (?:in|by)) {_SOURCE}"
    rf"|,?\s+as {_SOURCE} (?:shows|says|states)"
    r"|,\s+I (?:think|believe|guess))\.?$"
)
# What may wrap a whole answer without being part of it: quotes, and Markdown's emphasis
# and code marks (a model that writes Finish["Tromsø"] or **Tromsø** answers Tromsø).
_WRAPPERS = (
    ("**", "**"),
    ("__", "__"),
    ("*", "*"),
    ("_", "_"),
    ("`", "`"),
    ('"', '"'),
    ("“", "”"),
    ("„", "“"),
    ("'", "'"),
    ("‘", "’"),
    ("«", "»"),
    ("\\boxed{", "}"),
    ("$\\boxed{", "}$"),
)
_OPENINGS = frozenset(opening[0] for opening, _ in _WRAPPERS)
# The most marks unwrapped from one answer ('*"Tromsø"*' has two; more is no answer).
_MOST_WRAPS = 4
# How far from its end an answer's ending words and citations are looked for.
_END_REACH = 200
# Thousands set apart by a space, a no-break or a thin space, as SI style writes them
# ("481 420"), opening an answer: groups of exactly three digits after one of one to
# three, no other figure after them.
_SPACED_THOUSANDS = re.compile(
    r"^\d{1,3}(?:[ \u00a0\u2009\u202f]\d{3})+(?:\.\d+)?\b(?![.,]?\d| \d)"
)
_SPACES = re.compile(r"[ \u00a0\u2009\u202f]")
# A decimal comma opening an answer ("12,5 m"): one or two digits after it, never three
# (a thousands separator) or another comma.
_DECIMAL_COMMA = re.compile(r"^(\d+),(\d{1,2})(?![\d,])")
# Evidence cited after the answer: "Tromsø [E3]", "Tromsø (E3, E5).", "Tromsø [1]",
# "Tromsø (source: E3)" (a stored sentence's id, or a footnote of at most three digits:
# "Rocky (1976)" keeps its year).
_CITED = r"(?:E\d{1,6}|\d{1,3})"
_CITATION = re.compile(
    rf"(?:\s*[\[(]\s*(?:(?:sources?|evidence|see)\s*:?\s*)?{_CITED}(?:\s*[,;]\s*{_CITED})*"
    r"\s*[\])])+\s*\.?\s*$",
    re.IGNORECASE,
)
# A source named after the answer: "Tromsø (source: Wikipedia)", "Tromsø [via the
# Britannica]", "Tromsø (according to its article)".
_SOURCE_NOTE = re.compile(
    r"\s*[\[(]\s*(?:sources?\s*:|according to\s|via\s|per\s|cited (?:in|from)\s)[^()\[\]]{1,80}"
    r"[\])]\s*\.?\s*$",
    re.IGNORECASE,
)
# A hedge after the answer: "Tromsø (I think)", "Tromsø (probably)".
_HEDGED_AFTER = re.compile(
    r"\s*\((?:I think|I believe|I guess|probably|likely|most likely|not sure|unsure)\)\.?\s*$",
    re.IGNORECASE,
)
# The line that gives the answer after a reply's reasoning: "...\nAnswer: Tromsø".
_ANSWER_LINE = re.compile(
    r"^[ \t]*(?:\*\*|__)?(?i:(?:final )?answer)(?:\*\*|__)?\s*:[ \t]*(?:\*\*|__)?[ \t]*(\S.*)$",
    re.MULTILINE,
)
# A reply given as JSON: '{"answer": "Tromsø"}'.
_JSON_KEYS = ("answer", "final_answer", "Answer")
# A gloss after the answer: "Zack Morris (the character)", "Queen (a band)".
_GLOSS = re.compile(r"\s*\((?:the|a|an) [^()]{1,60}\)$")
# What a reply adds after its answer: a paragraph, a line that explains it, or a reason
# after "because" or a semicolon ("X; the evidence says so.", "X because E3 says so"; a
# semicolon within a name is kept: "Blood Sweat &amp; Tears").
_EXPLANATION = re.compile(
    r"\n\s*\n|\n\s*(?i:explanation|reason|because|evidence|sources?)\b|(?<!\s)\s+because\s"
    r"|;\s+(?:the|it|this|that|these|both|as|see|according|based|because)\s"
)
# A full stop after a closing quote or mark ('"Tromsø".').
_WRAPPED_STOPS = tuple(f"{closing}." for _, closing in _WRAPPERS)
# "Yes, both are American.": a yes or no with its reason after a stop (not "No. 5").


def _unwrapped(text: str) -> str:
    """The text without quotes or emphasis around all of it ('"Tromsø"', "**Tromsø**")."""
    for _ in range(_MOST_WRAPS):
        if text[:1] not in _OPENINGS:
            return text
        for opening, closing in _WRAPPERS:
            inner = text[len(opening) : -len(closing)]
            doubled = opening == closing and text.startswith(opening * 2)  # "**", not "*"
            if (
                not doubled
                and text.startswith(opening)
                and text.endswith(closing)
                and inner.strip()
                and _paired(inner, opening, closing)
            ):
                text = inner.strip()
                break
        else:
            return text
    return text


def _paired(inner: str, opening: str, closing: str) -> bool:
    """The marks inside a wrapped text pair up, each opening one first ('Robert "Throb"
    Young' may be wrapped in quotes; 'Heroes" and "Low' is two quoted names, not one)."""
    if opening == closing:
        count = inner.count(opening)
        first = inner.find(opening)
        return count % 2 == 0 and (first < 0 or first == 0 or inner[first - 1].isspace())
    opened = inner.find(opening)
    closed = inner.find(closing)
    return inner.count(opening) == inner.count(closing) and (closed < 0 or opened < closed)


def _without_end(text: str, ending: re.Pattern[str] = _ANNOUNCED_AFTER) -> str:
    """The text without what `ending` matches at its end, looked for in its last
    characters only (a search from every position of a long text would be quadratic);
    the text unchanged when that is all of it."""
    start = max(0, len(text) - _END_REACH)
    found = ending.search(text, start)
    return text[: found.start()].rstrip() if found is not None and found.start() > 0 else text


def _from_json(reply: str) -> str:
    """The answer a reply given as a JSON object names ('{"answer": "Tromsø"}'), else the
    reply."""
    try:
        decoded = json.loads(reply)
    except (ValueError, RecursionError):  # not JSON, or nested deeper than Python recurses
        return reply
    if isinstance(decoded, dict):
        for key in _JSON_KEYS:
            value = decoded.get(key)
            if isinstance(value, str | int | float) and not isinstance(value, bool):
                return str(value)
    return reply


def _answer_line(reply: str) -> str:
    """What the last "Answer:" line of a reply gives, when reasoning comes before it."""
    lines = list(_ANSWER_LINE.finditer(reply))
    if not lines or not reply[: lines[-1].start()].strip():
        return reply
    return lines[-1].group(1).strip()


def _first_paragraph(answer: str) -> str:
    """The answer without the explanation a reply adds after it: a new paragraph, a line
    opening "Explanation:", "Because ...", a reason after a semicolon or "because" (not
    when nothing comes before it)."""
    if "\n" not in answer and ";" not in answer and "because" not in answer:
        return answer.strip()  # nothing the search could find (and most answers are short)
    explained = _EXPLANATION.search(answer)
    if explained is None or not answer[: explained.start()].strip():
        return answer.strip()
    return answer[: explained.start()].rstrip(" \t\n,;:–—")


def _unannounced(text: str) -> str:
    """The text without the announcements that open it, one after another ("Based on the
    evidence, I think the answer is X")."""
    for _ in range(_MOST_ANNOUNCEMENTS):
        opened = _ANNOUNCED.match(text)
        if opened is None:
            break
        text = text[opened.end() :].lstrip()
    return text


def core_answer(answer: str) -> str:
    """The answer without what only words it: an explanation after it, quotes or emphasis
    around it, "The answer is", the evidence it cites ("[E3]", ", according to the
    evidence", "(source: Wikipedia)"), a gloss ("(the character)"), a sentence's full stop (not an
    abbreviation's: "D.C.", "Jr."), "in" or "about" before a date or number; the
    thousands of a number it opens with set apart by commas, not spaces ("481 420"), and
    its decimals by a point ("12,5 m")."""
    reply = _from_json(answer) if answer.lstrip().startswith("{") else answer
    if "\n" in reply:
        reply = _answer_line(reply)
    core = _unwrapped(_without_end(_unannounced(_unwrapped(_first_paragraph(reply)))))
    core = _unwrapped(_without_end(core, _CITATION))
    if core.endswith((")", "]", ").", "].")):
        core = _without_end(_without_end(_without_end(core, _HEDGED_AFTER), _SOURCE_NOTE), _GLOSS)
    if _SENTENCE_STOP.search(core[-_END_REACH:]) or core.endswith(_WRAPPED_STOPS):
        core = _unwrapped(core[:-1].rstrip())
    core = _LEADING_WORDS.sub("", core)
    if core[:1].isdigit():
        core = _SPACED_THOUSANDS.sub(lambda match: _SPACES.sub(",", match.group(0)), core)
        core = _DECIMAL_COMMA.sub(r"\1.\2", core)
    return core


def without_disambiguation(answer: str, titles: Iterable[str]) -> str:
    """A stored page's title given whole ("Lolita (1962 film)") as the name it
    disambiguates ("Lolita"): the parenthesis is the page's, not a claim to check."""
    match = _DISAMBIGUATED.match(answer)
    if match is None:
        return answer
    wanted = answer.casefold()
    return match.group(1) if any(title.casefold() == wanted for title in titles) else answer
