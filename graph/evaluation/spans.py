"""Answer kinds and same-kind spans, for the verifier benchmark's hard negatives.

An answer's kind is `yes/no`, `year` (a year or a date), `number`, `name` (a
capitalised name or title) or `other` (a lower-case phrase). `spans(kind, text)`
finds the spans of one kind in a sentence, as a model that read the right page
could pick the wrong one. These helpers serve the benchmark only: the verifier
never uses them, so the benchmark does not grade the verifier on its own
reading of the text.
"""

from __future__ import annotations

import re
import unicodedata

from graph.verifier.text.normalise import split_words

YES_NO = "yes/no"
YEAR = "year"
NUMBER = "number"
NAME = "name"
OTHER = "other"
ANSWER_KINDS = (YEAR, NUMBER, NAME, YES_NO)

_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December"
    r"|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?"
)
_YEAR = r"(?:1[0-9]{3}|20[0-9]{2})"
_DAY = r"[0-3]?[0-9](?:st|nd|rd|th)?"
_DATE = re.compile(
    rf"\b(?:{_MONTH}\s+{_DAY},?\s+{_YEAR}|{_DAY}\s+(?:of\s+)?{_MONTH},?\s+{_YEAR}"
    rf"|{_MONTH},?\s+{_YEAR}|{_YEAR}s?)(?![\d,.]\d)\b"
)
_BARE_YEAR = re.compile(rf"(?<![\d,.]){_YEAR}(?![\d,.]\d|\d)")
_NUMBER_WORDS = split_words(
    "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
    " sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety"
    " hundred"
)
_NUMBER = re.compile(
    r"(?<![\w.,])(?:\$|US\$|£|€)?\d+(?:[,.]\d+)*"
    r"(?:\s+(?:thousand|million|billion|trillion))?%?(?![\w.,]*\d)"
    rf"|\b(?:{'|'.join(_NUMBER_WORDS)})\b",
    re.IGNORECASE,
)
_CONNECTORS = frozenset(
    split_words("of the de del della di da du des la le von van der den y and & for on")
)
_NAME_WORD = re.compile(r"[A-Z][\w'’.\-]*")
_TOKEN = re.compile(r"[\w'’.\-&]+|[^\w\s]")
_POSSESSIVE = re.compile(r"['’]s?$")
_QUOTED = re.compile(r"\"([^\"]{2,60})\"")
_SENTENCE_STARTERS = frozenset(
    split_words(
        "The A An He She It They His Her Its Their In On At By For From This That These Those"
        " After Before During When While As Since Although However Also"
    )
)
_NOT_NAMES = frozenset(
    split_words(
        "January February March April May June July August September October November December"
        " Monday Tuesday Wednesday Thursday Friday Saturday Sunday"
    )
)


def answer_kind(answer: str) -> str:
    """The kind of a gold answer: yes/no, year (or date), number, name or other."""
    text = answer.strip()
    if text.casefold() in ("yes", "no"):
        return YES_NO
    date = _DATE.fullmatch(text.rstrip("."))
    if date is not None:
        return YEAR
    if _NUMBER.match(text) and not re.search(r"[A-Z]", text):
        return NUMBER
    if text[:1].isupper() or (text[:1].isdigit() and re.search(r"[A-Z]", text)):
        return NAME
    return OTHER


def _dates(text: str) -> list[str]:
    return [match.group(0).rstrip(".") for match in _DATE.finditer(text)]


def _date_shape(date: str) -> int:
    """How fine a date is: 0 a bare year, 1 a month and year, 2 a full date."""
    digit_groups = len(re.findall(r"\d+", date))
    has_month = re.search(_MONTH, date) is not None
    return 0 if not has_month else (2 if digit_groups > 1 else 1)


def _numbers(text: str) -> list[str]:
    inside_dates = [match.span() for match in _DATE.finditer(text)]
    found: list[str] = []
    for match in _NUMBER.finditer(text):
        start, end = match.span()
        if any(a <= start and end <= b for a, b in inside_dates):
            continue
        found.append(match.group(0))
    return found


def _names(text: str) -> list[str]:
    """Capitalised runs (connectors allowed inside, punctuation not) and quoted titles."""
    found = [quoted.strip() for quoted in _QUOTED.findall(text) if quoted.strip()[:1].isupper()]
    run: list[str] = []
    run_start = previous_end = 0
    for match in [*_TOKEN.finditer(text), None]:
        token = match.group(0) if match else ""
        word = _POSSESSIVE.sub("", token)
        word = word.rstrip(".") if len(word) > 2 else word
        start = match.start() if match else len(text)
        joined = match is not None and (not run or not text[previous_end:start].strip())
        if joined and _NAME_WORD.fullmatch(word) and word[0].isupper():
            run_start = start if not run else run_start
            run.append(word)
        elif joined and run and word.casefold() in _CONNECTORS and word.islower():
            run.append(word)
        else:
            while run and run[-1].casefold() in _CONNECTORS:
                run.pop()
            first_word = not text[:run_start].strip(" \"'“(")
            single = len(run) == 1 and (run[0] in _SENTENCE_STARTERS or first_word)
            if run and not single and not all(part in _NOT_NAMES for part in run):
                found.append(" ".join(run))
            run = []
            if match is not None and _NAME_WORD.fullmatch(word) and word[0].isupper():
                run_start = start
                run.append(word)
        previous_end = match.end() if match else 0
    return found


def fold(text: str) -> tuple[str, ...]:
    """Case, accents, punctuation and articles folded away: the words that identify a span."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(char for char in text if not unicodedata.combining(char))
    words = re.findall(r"\w+", text)
    return tuple(word for word in words if word not in ("a", "an", "the"))


def spans(kind: str, text: str, like: str = "") -> list[str]:
    """The spans of `kind` in `text`; for dates, those as fine as the date `like`."""
    if kind == YEAR:
        shape = _date_shape(like) if like else None
        if shape == 0:
            return _BARE_YEAR.findall(text)
        return [date for date in _dates(text) if shape is None or _date_shape(date) == shape]
    if kind == NUMBER:
        return _numbers(text)
    if kind == NAME:
        return _names(text)
    return []


def is_other_answer(candidate: str, gold: str, question: str) -> bool:
    """A candidate is a different answer: it shares no word with the gold answer (so it is
    neither a part nor an extension of it) and is not a name the question already gives."""
    words, gold_words = fold(candidate), fold(gold)
    if not words or not set(words).isdisjoint(gold_words):
        return False
    padded = f" {' '.join(fold(question))} "
    return f" {' '.join(words)} " not in padded
