"""What a question asks: yes/no, a year, a number, a person, or a choice between two
named alternatives, and the names it mentions."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain

from graph.verifier.text.normalise import Text, analyse, split_words
from graph.verifier.text.wordstems import STOPWORDS, stem

_CLAUSES = re.compile(r"(?<=[.?!])\s+")
_YEAR_QUESTION = re.compile(
    r"\b(?:what|which)\s+year\b|\bbirth ?year\b|\byear of (?:birth|death)\b", re.IGNORECASE
)
# A question asking an age ("How old ...?", "at what age", "aged").
_AGE_QUESTION = re.compile(r"\b(?:how old|age|aged)\b", re.IGNORECASE)
_NUMBER_QUESTION = re.compile(
    r"\bhow (?:many|much|old|long|tall|high|far|large|big|wide|deep|heavy)\b", re.IGNORECASE
)
# A date asked: "When did ..." (matched at the start), "... founded when?", "What date
# ...", "date of birth", "the birth date of", "what was the birthday of", "in which month"
# (three patterns: one alternation of them all was searched slowly).
_WHEN_FIRST = re.compile(r"\W*when\s+(?:was|were|is|are|did|does|do|has|had|will)\b", re.IGNORECASE)
_WHEN_LAST = re.compile(r"\bwhen\s*\?\s*$", re.IGNORECASE)
_DATE_QUESTION = re.compile(
    r"\b(?:what|which)\s+(?:date|month)\b|\bdate\s+of\s+(?:birth|death)\b"
    r"|\b(?:birth|death)\s?date\b|\bbirthday\b",
    re.IGNORECASE,
)
# Each match of `_DATE_QUESTION` holds one of these, in lower case once lowered (their
# letters fold only to ASCII under IGNORECASE): most questions hold none, and skip it.
_DATE_WORDS = ("date", "month", "thday")
# A quantity asked by its noun: "at what age", "what is the seating capacity of", "what was
# the population in 2016 of", "what is the total number of", "approximately what percentage"
# (not "the length of the ice").
_QUANTITIES = (
    "age|capacity|population|height|length|area|elevation|depth|width|weight|distance"
    "|percentage|proportion"
)
_QUANTITY_QUESTION = re.compile(
    rf"\b(?:what|which)\s+(?:(?:is|was|are|were)\s+the\s+(?:\w+\s+)?)?(?:{_QUANTITIES})\b"
    r"|\b(?:what|which)\s+(?:is|was|are|were)\s+the\s+(?:\w+\s+)?"
    r"(?:number|percentage|amount)\s+of\b",
    re.IGNORECASE,
)
# A part of a name asked: "what is the middle name of", "which surname", "what was her
# maiden name" (a nickname is no part of a name).
_NAME_PART_QUESTION = re.compile(
    r"\b(?:what|which)\s+(?:(?:is|was|are|were)\s+(?:the|his|her|their|its)\s+)?"
    r"(?:(?:first|middle|last|given|family|maiden|christian)\s+names?|surnames?|forenames?)\b",
    re.IGNORECASE,
)
_WHO_START = re.compile(r"^\W*(?:who|whom)\b", re.IGNORECASE)
_WH_WORD = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
_AUXILIARY_START = re.compile(
    r"^\W*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
# A letter or digit (what `str.isalnum` accepts: a word character but the underscore).
_ALNUM = re.compile(r"[^\W_]")
_RAW_WORD = re.compile(r"[A-Z]\.(?=\s)|(?:[^\s,;?!()\"“”.]+|\.(?=\S))+|[,;?!()]|\.")

_LEADING_SKIP = frozenset(
    split_words(
        "is are was were do does did has have had can could will would should which who what whom"
        " whose when where why how both between of in if the a an"
    )
)
NAME_CONNECTORS = frozenset(
    split_words(
        "of the de del della di da du des la le les von van der den y e and on in for at to a an"
        " with from & n"
    )
)
_TRIMMED_FIRST = NAME_CONNECTORS | _LEADING_SKIP
# What opens a list of one thing's names: "known as", "referred to as", "also called", "aka".
_ALIAS_WORDS = frozenset(("aka", "a.k.a", "nicknamed", "alias"))
_ALIAS_LEADS = frozenset(("known", "to", "also", "commonly", "often", "sometimes"))
_ALIAS_ADVERBS = frozenset(("simply", "just", "also", "sometimes", "often"))
# Words that never stand in for a name next to a conjunction.
_NOT_STAND_INS = STOPWORDS | _LEADING_SKIP


@lru_cache(maxsize=16384)
def _is_named(word: str) -> bool:
    """The word's first letter or digit is a capital or a digit (kept per word: questions
    share most of theirs)."""
    first = _ALNUM.search(word)
    return first is not None and (first.group().isupper() or first.group().isdigit())


def _trim(run: list[str]) -> list[str]:
    """Drop connectors and question words from the ends of a run of words."""
    start, end = 0, len(run)
    while start < end and run[start].lower() in _TRIMMED_FIRST:
        start += 1
    while end > start and run[end - 1].lower() in NAME_CONNECTORS:
        end -= 1
    return run[start:end]


def _run(words: tuple[str, ...], start: int, step: int) -> tuple[list[str], bool]:
    """The name next to a conjunction, walking away from it, and whether it is capitalised.

    Without a capitalised name, one plain content word next to the conjunction
    stands in (`cranberries and blueberries`).
    """
    if 0 <= start < len(words) and words[start] == ",":
        start += step
    run: list[str] = []
    index = start
    if step > 0:
        ahead = start
        while (
            ahead < min(len(words), start + 4) and words[ahead].isalpha() and words[ahead].islower()
        ):
            ahead += 1
        if ahead < len(words) and _is_named(words[ahead]):
            index = ahead
    while 0 <= index < len(words) and (
        _is_named(words[index]) or words[index].lower() in NAME_CONNECTORS
    ):
        run.append(words[index])
        index += step
    run = _trim(run if step > 0 else run[::-1])
    if run:
        return run, True
    if (
        0 <= start < len(words)
        and words[start].isalpha()
        and words[start].lower() not in _NOT_STAND_INS
    ):
        joined = start + 2 * step
        if (
            step < 0
            and joined >= 0
            and words[start + step].lower() == "and"
            and _is_named(words[joined])
        ):  # "Gin and tonic and Paloma": the plain word ends a name joined by "and"
            return [words[joined], words[start + step], words[start]], False
        return [words[start]], False
    return [], False


def _alias_opened(words: tuple[str, ...], lowered: list[str]) -> list[bool]:
    """For each word, whether the run of name words just before it is opened by an alias
    frame ("also known as simply SJ or SUJU": a conjunction there joins a name's aliases),
    in one pass."""
    opened = [False] * len(words)
    frame = False
    for at, word in enumerate(lowered):
        opened[at] = frame
        if _is_named(words[at]) or word in NAME_CONNECTORS or word in _ALIAS_ADVERBS:
            continue
        before = lowered[at - 1] if at else ""
        frame = (
            word in _ALIAS_WORDS
            or (word in ("as", "called") and before in _ALIAS_LEADS)
            or (word == "." and before in _ALIAS_WORDS)  # "a.k.a."
        )
    return opened


def _pair(words: tuple[str, ...]) -> tuple[tuple[Text, ...], str, bool]:
    """The two names joined by the question's last usable `or` (else `and`) that does not
    join aliases."""
    lowered = list(map(str.lower, words))
    aliased: list[bool] | None = None
    for kind in ("or", "and"):
        if kind not in lowered:
            continue
        aliased = aliased or _alias_opened(words, lowered)
        for index in range(len(words) - 1, -1, -1):
            if lowered[index] != kind or aliased[index]:
                continue
            left, left_named = _run(words, index - 1, -1)
            name = analyse(" ".join(left)) if left else None
            if name is None or not name.tokens:  # no name before: the other side is not read
                continue
            right, right_named = _run(words, index + 1, 1)
            other = analyse(" ".join(right)) if right else None
            if other is not None and other.tokens:
                return (name, other), kind, left_named and right_named
    return (), "", False


@lru_cache(maxsize=4096)
def named_entities(words: tuple[str, ...]) -> tuple[Text, ...]:
    """Capitalised names in a question that joins none with `and`/`or`."""
    names: list[Text] = []
    run: list[str] = []
    for word in [*words, "."]:
        if _is_named(word) or (run and word.lower() in NAME_CONNECTORS):
            run.append(word)
            continue
        if not run:  # no name ends here
            continue
        trimmed = _trim(run)
        name = analyse(" ".join(trimmed)) if trimmed else None  # ("Which" alone: none)
        if name is not None and name.tokens:
            names.append(name)
        run = []
    return tuple(names)


@dataclass(frozen=True, slots=True)
class Question:
    """What the checks need to know about the question."""

    text: Text
    asks_yes_no: bool
    strict_yes_no: bool
    asks_year: bool
    asks_date: bool
    asks_number: bool
    asks_age: bool
    asks_quantity: bool
    asks_name_part: bool
    asks_person: bool
    asks_which: bool
    pair: tuple[Text, ...]
    pair_kind: str
    pair_named: bool
    words: tuple[str, ...]
    name_stems: frozenset[str]


def _asks_date(question: str, lowered: str) -> bool:
    """Whether the question asks a date (`lowered`: it in lower case; see `_DATE_WORDS`)."""
    if "when" in lowered and (_WHEN_FIRST.match(question) or _WHEN_LAST.search(question)):
        return True
    return (
        any(word in lowered for word in _DATE_WORDS) and _DATE_QUESTION.search(question) is not None
    )


@lru_cache(maxsize=4096)
def analyse_question(question: str) -> Question:
    clauses = _CLAUSES.split(question.strip())
    wh = _WH_WORD.search(question)
    has_wh = wh is not None
    first_wh = wh.group(0).lower() if wh else ""
    words = tuple(_RAW_WORD.findall(question))
    pair, kind, named = _pair(words)
    # The year and number patterns' words, looked for first (their letters fold only to
    # ASCII under IGNORECASE, so a match always holds them in lower case); a quantity is
    # asked after "what" or "which", so never before the first wh-word (a `\b` at a
    # search's start still sees the character before it).
    lowered = question.lower()
    return Question(
        text=analyse(question),
        asks_yes_no=not has_wh,
        strict_yes_no=not has_wh and bool(_AUXILIARY_START.match(clauses[-1])),
        asks_year="year" in lowered and _YEAR_QUESTION.search(question) is not None,
        asks_date=_asks_date(question, lowered),
        asks_number="how" in lowered and _NUMBER_QUESTION.search(question) is not None,
        asks_age=("age" in lowered or "old" in lowered)
        and _AGE_QUESTION.search(question) is not None,
        asks_quantity=wh is not None
        and _QUANTITY_QUESTION.search(question, wh.start()) is not None,
        asks_name_part="name" in lowered and _NAME_PART_QUESTION.search(question) is not None,
        asks_person=_WHO_START.match(clauses[-1]) is not None,
        asks_which=first_wh in ("which", "who", "whom"),
        pair=pair,
        pair_kind=kind,
        pair_named=named,
        words=words,
        name_stems=frozenset(
            map(stem, chain.from_iterable(name.tokens for name in (*pair, *named_entities(words))))
        )
        - {""},
    )
