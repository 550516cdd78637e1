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

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cached_property, lru_cache
from itertools import pairwise

from tools.base import Evidence, Verdict

GROUNDING_CONTAINED = "contained"
GROUNDING_PARAPHRASE = "paraphrase"
GROUNDING_COMPARISON = "comparison-grounded"
GROUNDING_NONE = "none"

REASON_EMPTY = "The answer is empty, so there is nothing to check."
REASON_NO_EVIDENCE = "No evidence is stored yet, so no sentence can support {answer!r}."
REASON_CONTAINED = "{answer!r} is stated in stored {cite}."
REASON_TITLE = (
    "Stored {cite} from page {title!r} answers the question, and {answer!r} is that page's subject."
)
REASON_PARAPHRASE = (
    "Every part of {answer!r} is stated in stored {cite}, though not as one verbatim span."
)
REASON_COMPARISON = (
    "Grounded, not entailed: there is stored evidence about each compared entity ({entities};"
    " {cite}), but no sentence states the comparison behind {answer!r}."
)
REASON_COMPARISON_STATED = (
    "{answer!r} is stated in stored {cite}, and there is stored evidence about each compared"
    " entity ({entities})."
)
REASON_ENTITY_MISSING = (
    "A comparison needs stored evidence about each compared entity; none is stored about {missing}."
)
REASON_NOT_STATED = "No stored sentence states {missing}."
REASON_UNRELATED = "{answer!r} appears only in stored {cite}, unrelated to the question."
REASON_INJECTED = (
    "{answer!r} appears only inside instruction-like text in an observation ({cite}),"
    " which is never evidence."
)
REASON_CONTRADICTED = "{answer!r} is denied by stored {cite}."
REASON_OTHER_VALUE = "No stored sentence states {answer!r}; related stored sentences give {values}."
REASON_YES_NO_EXPECTED = "The question asks yes or no, but {answer!r} is neither."
REASON_YES_NO_UNEXPECTED = "{answer!r} does not answer a question that asks what, which or who."
REASON_PERSON_EXPECTED = "The question asks who, but {answer!r} is a number or a date."
REASON_NUMBER_EXPECTED = "The question asks for a number, but {answer!r} contains none."
REASON_YEAR_EXPECTED = "The question asks for a year, but {answer!r} contains none."
REASON_NOT_ALTERNATIVE = "The question asks to choose {alternatives}; {answer!r} is neither."

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

_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_ABBREVIATION = re.compile(r"\b(?:[^\W\d_]\.){2,}")
_APOSTROPHE = re.compile(r"(?<=\w)['’](?:s\b|(?=\w))")
_COMBINING = re.compile(r"[\u0300-\u036f]")
_DIGIT = re.compile(r"\d")
_TOKEN = re.compile(r"\d+(?:[.,]\d+)*|[^\W\d_]+")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_TENS_UNITS = re.compile(
    r"\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[\s-]+"
    r"(one|two|three|four|five|six|seven|eight|nine)\b"
)
_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")
_ANSWER_PARTS = re.compile(r"\s*(?:[,;/&()]|\band\b)\s*", re.IGNORECASE)
_CLAUSES = re.compile(r"(?<=[.?!])\s+")
_YEAR_QUESTION = re.compile(
    r"\b(?:what|which)\s+year\b|\bbirth ?year\b|\byear of (?:birth|death)\b", re.IGNORECASE
)
_NUMBER_QUESTION = re.compile(
    r"\bhow (?:many|much|old|long|tall|high|far|large|big|wide|deep|heavy)\b", re.IGNORECASE
)
_WHO_START = re.compile(r"^\W*(?:who|whom)\b", re.IGNORECASE)
_WH_WORD = re.compile(r"\b(?:what|which|who|whom|whose|when|where|why|how)\b", re.IGNORECASE)
_AUXILIARY_START = re.compile(
    r"^\W*(?:is|are|was|were|do|does|did|has|have|had|can|could|will|would|should)\b",
    re.IGNORECASE,
)
_PADDED_NUMBER = re.compile(r"(?<= )\d[\d.]*(?= )")
_CAPITALISED_RUN = re.compile(r"(?:\b[A-Z][\w'’-]*\s+){1,}[A-Z][\w'’-]*")
_RAW_WORD = re.compile(r"[A-Z]\.(?=\s)|(?:[^\s,;?!()\"“”.]|\.(?=\S))+|[,;?!()]|\.")


def _words(text: str) -> list[str]:
    return text.split()


_INSTRUCTION_TRIGGERS = frozenset(
    _words(
        "ignore disregard forget override note message instruction instructions reminder dear"
        " attention hey hello ai assistant system model agent user llm chatbot bot answer respond"
        " reply output you finish thought action observation prompt injection jailbreak"
    )
)
_ARTICLES = frozenset(_words("a an the"))
_MONTHS = _words(
    "january february march april may june july august september october november december"
)
_MONTH_NAMES = {
    **{month: month for month in _MONTHS},
    **{month[:3]: month for month in _MONTHS},
    "sept": "september",
}
_ORDINAL_SUFFIXES = frozenset(_words("st nd rd th"))
_NUMBER_WORDS = {
    **{
        word: str(value)
        for value, word in enumerate(
            _words(
                "zero one two three four five six seven eight nine ten eleven twelve thirteen"
                " fourteen fifteen sixteen seventeen eighteen nineteen twenty"
            )
        )
    },
    **{
        word: str(10 * tens)
        for tens, word in enumerate(
            _words("thirty forty fifty sixty seventy eighty ninety"), start=3
        )
    },
    **{
        word: str(value)
        for value, word in enumerate(
            _words(
                "third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth"
                " fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth"
            ),
            start=3,
        )
    },
    "once": "1",
    "twice": "2",
    "thrice": "3",
}
_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12, "bn": 10**9}
_UNITS = {
    "kilometres": "km",
    "kilometers": "km",
    "kilometre": "km",
    "kilometer": "km",
    "metres": "m",
    "meters": "m",
    "metre": "m",
    "meter": "m",
    "miles": "mi",
    "mile": "mi",
    "feet": "ft",
    "foot": "ft",
    "inches": "inch",
    "kilograms": "kg",
    "kilogram": "kg",
    "pct": "percent",
    "centimetres": "cm",
    "centimeters": "cm",
    "hectares": "ha",
    "acres": "acre",
}
_WORD_FOLDS = {**_NUMBER_WORDS, **_UNITS}
_REWRITTEN = frozenset([*_UNITS.values(), "percent", *_MONTH_NAMES.values()])
_TENS = frozenset(_words("twenty thirty forty fifty sixty seventy eighty ninety"))
_NEGATIONS = frozenset(
    _words(
        "not never nor neither instead incorrectly mistakenly falsely erroneously wrongly"
        " misattributed rather"
    )
)
_STOPWORDS = frozenset(
    _words(
        "a an the and or but of in on at to for from by with as into onto about over under after"
        " before between than then that this these those it its he she they his her their them him"
        " who whom whose which what when where why how is are was were be been being do does did"
        " has have had can could will would should may might also both same other one 1 not no yes"
        " there here name named known called first more most during while such only any all some"
        " each many much well"
    )
)
_LEADING_SKIP = frozenset(
    _words(
        "is are was were do does did has have had can could will would should which who what whom"
        " whose when where why how both between of in if the a an"
    )
)
_CONNECTORS = frozenset(
    _words(
        "of the de del della di da du des la le les von van der den y e and on in for at to a an"
        " with from & n"
    )
)


@dataclass(frozen=True, slots=True)
class _Text:
    """A text folded for matching: its tokens, and them joined with a space at each end."""

    tokens: tuple[str, ...]
    padded: str


@dataclass(frozen=True, slots=True)
class _Item:
    """One stored sentence with its page title; analysed only when a check needs it."""

    id: str
    title: str
    raw: str
    title_text: _Text

    @property
    def page(self) -> str:
        return self.title or self.id

    @property
    def text(self) -> _Text:
        return _analyse(self.raw)

    @property
    def trusted(self) -> bool:
        return _trusted(self.raw)

    def may_contain(self, probe: str | None) -> bool:
        """Whether the sentence can state a text whose `_probe` is `probe` (a cheap filter)."""
        return probe is None or probe in _plain(self.raw)


@dataclass(frozen=True, slots=True)
class _Found:
    """Where an answer (or one part of it) is stated."""

    ids: tuple[str, ...]
    grounding: str
    title: str = ""


def _is_number(token: str) -> bool:
    return token[:1].isdigit()


@lru_cache(maxsize=65536)
def _singular(token: str) -> str:
    if len(token) > 4 and token.endswith("ies"):
        return token[:-3] + "y"
    if len(token) > 3 and token.endswith("s") and not token.endswith(("ss", "us", "is")):
        return token[:-1]
    return token


@lru_cache(maxsize=65536)
def _stem(token: str) -> str:
    """A crude stem for topical overlap; empty for stopwords."""
    return "" if token in _STOPWORDS else _singular(token)[:5]


def _number(token: str) -> list[str]:
    """Canonical digits of a numeric token (`7,000` -> `7000`, `3.50` -> `3.5`, `07` -> `7`).

    Commas that are not thousands separators split the token (`1,2,3`).
    """
    if "," in token:
        if not _THOUSANDS.fullmatch(token):
            return [number for part in token.split(",") if part for number in _number(part)]
        token = token.replace(",", "")
    if token.isdigit():
        return [str(int(token))]
    try:
        return [format(Decimal(token).normalize(), "f")]
    except InvalidOperation:
        return [token]


def _scaled(number: str, scale: int) -> str:
    try:
        return format((Decimal(number) * scale).normalize(), "f")
    except InvalidOperation:
        return number


def _fold_numbers(raw: list[str]) -> list[str]:
    """Fold the tokens around each number: ordinals, scales, months and day-month order."""
    out: list[str] = []
    size = len(raw)
    start = 0
    for index in [i for i, token in enumerate(raw) if token[0].isdigit()]:
        if index < start:
            continue
        out.extend(raw[start:index])
        if out and out[-1] in _MONTH_NAMES:
            out[-1] = _MONTH_NAMES[out[-1]]
        numbers = _number(raw[index])
        after = index + 1
        if after < size and raw[after] in _ORDINAL_SUFFIXES:
            after += 1
        following = raw[after] if after < size else ""
        if following in _SCALES and len(numbers) == 1:
            numbers = [_scaled(numbers[0], _SCALES[following])]
            after += 1
        else:
            month_at = after + 1 if following == "of" else after
            month = _MONTH_NAMES.get(raw[month_at]) if month_at < size else None
            if month and len(numbers) == 1 and numbers[0].isdigit() and 1 <= int(numbers[0]) <= 31:
                numbers = [month, numbers[0]]
                after = month_at + 1
        out.extend(numbers)
        start = after
    out.extend(raw[start:])
    return out


def _tens_units(match: re.Match[str]) -> str:
    return str(int(_NUMBER_WORDS[match.group(1)]) + int(_NUMBER_WORDS[match.group(2)]))


def _iso_date(match: re.Match[str]) -> str:
    month = int(match.group(2))
    if not 1 <= month <= 12:
        return match.group(0)
    return f"{_MONTHS[month - 1]} {int(match.group(3))} {match.group(1)}"


def _unabbreviate(match: re.Match[str]) -> str:
    return match.group(0).replace(".", "")


@lru_cache(maxsize=65536)
def _analyse(text: str) -> _Text:
    """Fold `text` for matching (cached: stored sentences recur across checks)."""
    folded = text.casefold()
    if not folded.isascii():
        folded = _COMBINING.sub("", unicodedata.normalize("NFKD", folded))
    if "-" in folded and _DIGIT.search(folded):
        folded = _ISO_DATE.sub(_iso_date, folded)
    if "." in folded:
        folded = _ABBREVIATION.sub(_unabbreviate, folded)
    if "'" in folded or "’" in folded:
        folded = _APOSTROPHE.sub("", folded)
    if "%" in folded:
        folded = folded.replace("%", " percent ")
    raw = _TOKEN.findall(folded)
    if not _TENS.isdisjoint(raw):
        raw = _TOKEN.findall(_TENS_UNITS.sub(_tens_units, folded))
    if _DIGIT.search(folded):
        raw = _fold_numbers(raw)
    raw = [_WORD_FOLDS.get(token, token) for token in raw if token not in _ARTICLES]
    return _Text(tuple(raw), f" {' '.join(raw)} ")


@lru_cache(maxsize=65536)
def _singular_form(padded: str) -> str:
    """A padded folded text with each word in the singular."""
    return f" {' '.join(map(_singular, padded.split()))} "


@lru_cache(maxsize=65536)
def _stems(padded: str) -> frozenset[str]:
    """The content-word stems of a padded folded text."""
    return frozenset(map(_stem, padded.split())) - {""}


@lru_cache(maxsize=65536)
def _trusted(text: str) -> bool:
    """False for a sentence that addresses the agent (injected instructions), not the world."""
    return _INSTRUCTION_TRIGGERS.isdisjoint(_analyse(text).tokens) or not _INSTRUCTION.search(text)


@lru_cache(maxsize=65536)
def _plain(text: str) -> str:
    """Case, accents, apostrophes and full stops folded away, as `_analyse` folds them."""
    folded = text.casefold()
    if not folded.isascii():
        folded = _COMBINING.sub("", unicodedata.normalize("NFKD", folded))
    return folded.replace("'", "").replace("’", "").replace(".", "")


def _probe(needle: _Text) -> str | None:
    """A substring every sentence that states `needle` must contain, or None.

    It is the start of the needle's longest plain word (not a number, month or
    unit, which folding may have rewritten), short enough to match plurals.
    """
    words = [token for token in needle.tokens if token.isalpha() and token not in _REWRITTEN]
    if not words:
        return None
    word = max(words, key=len)
    if word.endswith("ies"):
        return word[:-3]
    return word[:-1] if word.endswith("s") else word


@lru_cache(maxsize=65536)
def _names(text: str) -> frozenset[str]:
    """Capitalised two-word names in a sentence (`Clear Lake`, `Pacific Games`), folded."""
    pairs: set[str] = set()
    for name in _CAPITALISED_RUN.findall(text):
        words = name.casefold().split()
        pairs.update(f"{a} {b}" for a, b in pairwise(words))
    return frozenset(pairs)


def _item(evidence_id: str, title: str, text: str) -> _Item:
    return _Item(evidence_id, title, text, _analyse(_PARENTHETICAL.sub("", title)))


def _items(evidence: Sequence[Evidence]) -> list[_Item]:
    items: list[_Item] = []
    for record in evidence:
        source = record.get("source") or {}
        title = str(source.get("title") or "")
        items.append(_item(str(record["id"]), title, str(record["text"])))
    return items


def _contains(hay: _Text, needle: _Text) -> bool:
    """The needle's tokens occur in the hay, in order, as whole words."""
    return bool(needle.tokens) and needle.padded in hay.padded


def _contains_singular(hay: _Text, needle: _Text) -> bool:
    """`_contains`, with every word of both texts in the singular (`plants` ~ `plant`)."""
    return bool(needle.tokens) and _singular_form(needle.padded) in _singular_form(hay.padded)


def _near(hay: _Text, needle: _Text) -> bool:
    """Every needle token within a window barely longer than the needle, in any order."""
    wanted = set(needle.tokens)
    if len(wanted) < 2 or not wanted.issubset(hay.tokens):
        return False
    width = len(needle.tokens) + 1
    positions = [i for i, token in enumerate(hay.tokens) if token in wanted]
    for first, start in enumerate(positions):
        seen = {hay.tokens[i] for i in positions[first:] if i < start + width}
        if seen >= wanted:
            return True
    return False


def _negated(hay: _Text, needle: _Text) -> bool:
    """The needle occurs, and every occurrence follows a negation cue within five words."""
    size = len(needle.tokens)
    if not size or needle.padded not in hay.padded or _NEGATIONS.isdisjoint(hay.tokens):
        return False
    starts = [
        i for i in range(len(hay.tokens) - size + 1) if hay.tokens[i : i + size] == needle.tokens
    ]
    return all(not _NEGATIONS.isdisjoint(hay.tokens[max(0, i - 5) : i]) for i in starts)


def _is_named(word: str) -> bool:
    first = next((char for char in word if char.isalnum()), "")
    return first.isupper() or first.isdigit()


def _trim(run: list[str]) -> list[str]:
    """Drop connectors and question words from the ends of a run of words."""
    start, end = 0, len(run)
    while start < end and (
        run[start].lower() in _CONNECTORS or run[start].lower() in _LEADING_SKIP
    ):
        start += 1
    while end > start and run[end - 1].lower() in _CONNECTORS:
        end -= 1
    return run[start:end]


def _run(words: list[str], start: int, step: int) -> tuple[list[str], bool]:
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
        _is_named(words[index]) or words[index].lower() in _CONNECTORS
    ):
        run.append(words[index])
        index += step
    run = _trim(run if step > 0 else run[::-1])
    if run:
        return run, True
    if (
        0 <= start < len(words)
        and words[start].isalpha()
        and words[start].lower() not in _STOPWORDS | _LEADING_SKIP
    ):
        return [words[start]], False
    return [], False


def _pair(words: list[str]) -> tuple[tuple[_Text, ...], str, bool]:
    """The two names joined by the question's last usable `or` (else `and`)."""
    for kind in ("or", "and"):
        for index in range(len(words) - 1, -1, -1):
            if words[index].lower() != kind:
                continue
            left, left_named = _run(words, index - 1, -1)
            right, right_named = _run(words, index + 1, 1)
            names = (_analyse(" ".join(left)), _analyse(" ".join(right)))
            if names[0].tokens and names[1].tokens:
                return names, kind, left_named and right_named
    return (), "", False


def _named_entities(words: list[str]) -> tuple[_Text, ...]:
    """Capitalised names in a question that joins none with `and`/`or`."""
    names: list[_Text] = []
    run: list[str] = []
    for word in [*words, "."]:
        if _is_named(word) or (run and word.lower() in _CONNECTORS):
            run.append(word)
            continue
        name = _analyse(" ".join(_trim(run)))
        if name.tokens:
            names.append(name)
        run = []
    return tuple(names)


@dataclass(frozen=True, slots=True)
class _Question:
    """What the checks need to know about the question."""

    text: _Text
    asks_yes_no: bool
    strict_yes_no: bool
    asks_year: bool
    asks_number: bool
    asks_person: bool
    asks_which: bool
    pair: tuple[_Text, ...]
    pair_kind: str
    pair_named: bool
    words: tuple[str, ...]
    name_stems: frozenset[str]


@lru_cache(maxsize=4096)
def _question(question: str) -> _Question:
    clauses = _CLAUSES.split(question.strip())
    wh = _WH_WORD.search(question)
    has_wh = wh is not None
    first_wh = wh.group(0).lower() if wh else ""
    words = _RAW_WORD.findall(question)
    pair, kind, named = _pair(words)
    return _Question(
        text=_analyse(question),
        asks_yes_no=not has_wh,
        strict_yes_no=not has_wh and bool(_AUXILIARY_START.match(clauses[-1])),
        asks_year=_YEAR_QUESTION.search(question) is not None,
        asks_number=_NUMBER_QUESTION.search(question) is not None,
        asks_person=_WHO_START.match(clauses[-1]) is not None,
        asks_which=first_wh in ("which", "who", "whom"),
        pair=pair,
        pair_kind=kind,
        pair_named=named,
        words=tuple(words),
        name_stems=frozenset().union(
            *(_stems(name.padded) for name in (*pair, *_named_entities(words)))
        ),
    )


class _Check:
    """One verification: the question, the stored sentences and the answer, analysed."""

    def __init__(self, question: str, answer: str, items: list[_Item]) -> None:
        self.q = _question(question)
        self.answer = answer
        self.folded = _analyse(answer)
        self.items = items
        self.plain = answer.islower()
        answer_stems = _stems(self.folded.padded)
        self.wanted = _stems(self.q.text.padded) - answer_stems
        self.names = self.q.name_stems - answer_stems
        self._direct: dict[str, bool] = {}

    @cached_property
    def pages(self) -> dict[str, list[_Item]]:
        """The trusted stored sentences by page."""
        pages: dict[str, list[_Item]] = {}
        for item in self.items:
            if item.trusted:
                pages.setdefault(item.page, []).append(item)
        return pages

    def directly_related(self, page: str) -> bool:
        """The page's sentences and title share with the question a word of a name the
        question mentions, or two other content words (the answer's own words aside)."""
        if page not in self._direct:
            sentences = self.pages.get(page, [])
            stems = frozenset().union(
                *(_stems(item.text.padded) for item in sentences),
                *(_stems(item.title_text.padded) for item in sentences[:1]),
            )
            shared = self.wanted & stems
            self._direct[page] = len(shared) > 1 or not self.names.isdisjoint(shared)
        return self._direct[page]

    @cached_property
    def linked_pages(self) -> frozenset[str]:
        """Pages linked, step by step, to a directly related page: one names the other's
        title, or both name the same capitalised two-word name."""
        related = {page for page in self.pages if self.directly_related(page)}
        pending = set(self.pages) - related
        while pending and related:
            linked = {
                page
                for page in pending
                if any(_linked(self.pages[page], self.pages[other]) for other in related)
            }
            if not linked:
                break
            related |= linked
            pending -= linked
        return frozenset(related)

    def related(self, item: _Item) -> bool:
        """The sentence is on a page related to the question."""
        return self.directly_related(item.page) or item.page in self.linked_pages

    @cached_property
    def entities(self) -> tuple[_Text, ...]:
        """The compared entities: the question's pair, else its capitalised names."""
        return self.q.pair or _named_entities(list(self.q.words))

    def stating(self, needle: _Text) -> list[_Item]:
        """The trusted sentences that may state `needle` (cheap filter first)."""
        probe = _probe(needle)
        return [item for item in self.items if item.may_contain(probe) and item.trusted]

    def find(self, needle: _Text) -> _Found | None:
        """A trusted, related sentence that states `needle`, or None."""
        candidates = self.stating(needle)
        for item in candidates:
            if (
                _contains(item.text, needle)
                and not _negated(item.text, needle)
                and self.related(item)
            ):
                return _Found((item.id,), GROUNDING_CONTAINED)
        for item in candidates:
            if (
                (_near(item.text, needle) or (self.plain and _contains_singular(item.text, needle)))
                and not _negated(item.text, needle)
                and self.related(item)
            ):
                return _Found((item.id,), GROUNDING_PARAPHRASE)
        for item in self.items:
            if (
                _contains(item.title_text, needle)
                and item.trusted
                and not _negated(item.text, needle)
                and self.related(item)
            ):
                return _Found((item.id,), GROUNDING_CONTAINED, item.title)
        return None

    def locate(self) -> tuple[_Found | None, list[str]]:
        """Where the answer is stated, whole or part by part; else the parts no sentence states."""
        found = self.find(self.folded)
        if found is not None:
            return found, []
        parts = [part for part in _ANSWER_PARTS.split(self.answer) if _analyse(part).tokens]
        if len(parts) < 2 or all(_contains(self.q.text, _analyse(part)) for part in parts):
            return None, [self.answer.strip()]
        located = [(part, self.find(_analyse(part))) for part in parts]
        missing = [part for part, where in located if where is None]
        if missing:
            return None, missing
        ids = tuple(_unique(i for _, where in located if where is not None for i in where.ids))
        return _Found(ids, GROUNDING_PARAPHRASE), []

    def coverage(self, *, mentions: bool) -> tuple[list[str], list[str]]:
        """Evidence ids about each compared entity, and the entities with none.

        With `mentions`, a related sentence that names the entity also counts.
        """
        ids: list[str] = []
        uncovered: list[str] = []
        for entity in self.entities:
            about = [item.id for item in self.items if _about(item, entity) and item.trusted]
            if not about and mentions:
                about = [
                    item.id
                    for item in self.stating(entity)
                    if _contains_singular(item.text, entity) and self.related(item)
                ]
            ids.extend(about)
            if not about:
                uncovered.append(" ".join(entity.tokens))
        return ids, uncovered


def _names_title(sentences: list[_Item], page: list[_Item]) -> bool:
    """Some sentence names the page's title (or the part before a comma: `Stull, Kansas`)."""
    core = _PARENTHETICAL.sub("", page[0].title)
    titles = [
        title for title in (_analyse(core), _analyse(core.split(",")[0])) if _stems(title.padded)
    ]
    return any(_contains(item.text, title) for item in sentences for title in titles)


def _linked(page: list[_Item], other: list[_Item]) -> bool:
    """Two pages are linked: one names the other's title, or both name the same name."""
    if _names_title(other, page) or _names_title(page, other):
        return True
    names = frozenset().union(*(_names(item.raw) for item in page))
    return any(not names.isdisjoint(_names(item.raw)) for item in other)


def _about(item: _Item, entity: _Text) -> bool:
    """The stored sentence is about `entity`: it comes from the entity's page.

    A page title inside the entity's name counts when it has two words or more
    (`Hoodoo Gurus` for "Sydney's Hoodoo Gurus", not `Boston` for "Boston
    College"). Evidence without a page title is about what it names.
    """
    title = item.title_text
    if not title.tokens:
        return _contains_singular(item.text, entity)
    if _contains_singular(title, entity):
        return True
    return len(title.tokens) > 1 and _contains_singular(entity, title)


def _names_same(answer: _Text, name: _Text) -> bool:
    """One name's words include the other's (`Irwin Shaw` ~ `Irwin Gilbert Shaw`)."""
    return set(answer.tokens) <= set(name.tokens) or set(name.tokens) <= set(answer.tokens)


def _alternative(answer: _Text, pair: tuple[_Text, ...]) -> int | None:
    """Which of the two alternatives the answer names, if exactly one."""
    scores = [len(set(answer.tokens).intersection(name.tokens) - _STOPWORDS) for name in pair]
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return None
    return scores.index(best)


def _unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _verdict(
    supported: bool, ids: Iterable[str], reason: str, missing: list[str], grounding: str
) -> Verdict:
    return Verdict(
        supported=supported,
        evidence_ids=_unique(ids),
        reason=reason,
        missing=missing,
        grounding=grounding,
    )


def _reject(reason: str, missing: list[str]) -> Verdict:
    return _verdict(False, [], reason, missing, GROUNDING_NONE)


def _cite(ids: Iterable[str]) -> str:
    """`sentence e1` or `sentences e1, e2`."""
    unique = _unique(ids)
    return f"sentence{'s' if len(unique) > 1 else ''} {', '.join(unique)}"


def _supported(check: _Check, found: _Found) -> Verdict:
    cite = _cite(found.ids)
    if found.title:
        reason = REASON_TITLE.format(cite=cite, title=found.title, answer=check.answer)
    elif found.grounding == GROUNDING_PARAPHRASE:
        reason = REASON_PARAPHRASE.format(cite=cite, answer=check.answer)
    else:
        reason = REASON_CONTAINED.format(cite=cite, answer=check.answer)
    return _verdict(True, found.ids, reason, [], found.grounding)


def _explain_missing(check: _Check, missing: list[str]) -> Verdict:
    """The most useful reason for an answer that no trusted related sentence states."""
    answer, folded = check.answer, check.folded
    probe = _probe(folded)
    stating = [
        item for item in check.items if item.may_contain(probe) and _contains(item.text, folded)
    ]
    untrusted = [item.id for item in stating if not item.trusted]
    if untrusted:
        return _reject(REASON_INJECTED.format(answer=answer, cite=_cite(untrusted)), missing)
    denied = [item.id for item in stating if _negated(item.text, folded)]
    if denied:
        return _reject(REASON_CONTRADICTED.format(answer=answer, cite=_cite(denied)), missing)
    if stating:
        unrelated = _cite(item.id for item in stating)
        return _reject(REASON_UNRELATED.format(answer=answer, cite=unrelated), missing)
    digits = {len(token) for token in folded.tokens if _is_number(token)}
    values = _unique(
        token
        for item in check.items
        if digits and item.trusted and check.directly_related(item.page)
        for token in _PADDED_NUMBER.findall(item.text.padded)
        if len(token) in digits
    )
    if values:
        return _reject(
            REASON_OTHER_VALUE.format(answer=answer, values=", ".join(values[:5])), missing
        )
    return _reject(
        REASON_NOT_STATED.format(missing=" or ".join(repr(part) for part in missing)), missing
    )


def _compare(check: _Check, *, stated: bool) -> Verdict:
    """A comparison: evidence about each compared entity, plus the answer when it is a value."""
    ids, uncovered = check.coverage(mentions=stated)
    names = ", ".join(" ".join(entity.tokens) for entity in check.entities)
    if not check.entities:
        pages = {item.page for item in check.items if item.trusted and check.related(item)}
        if len(pages) < 2:
            return _reject(
                REASON_ENTITY_MISSING.format(missing="a second entity"),
                ["a second compared entity"],
            )
        ids = [item.id for item in check.items if item.trusted and check.related(item)]
    elif uncovered and (check.q.pair or len(check.entities) - len(uncovered) < 2):
        return _reject(
            REASON_ENTITY_MISSING.format(missing=" and ".join(repr(m) for m in uncovered)),
            uncovered,
        )
    if not stated:
        reason = REASON_COMPARISON.format(cite=_cite(ids), entities=names, answer=check.answer)
        return _verdict(True, ids, reason, [], GROUNDING_COMPARISON)
    found, missing = check.locate()
    if found is None:
        return _explain_missing(check, missing)
    reason = REASON_COMPARISON_STATED.format(
        cite=_cite(found.ids), answer=check.answer, entities=names
    )
    return _verdict(True, [*found.ids, *ids], reason, [], found.grounding)


def verify_answer(
    question: str,
    answer: str,
    evidence: Sequence[Evidence],
    *,
    question_type: str | None = None,
) -> Verdict:
    """Judge `answer` to `question` against the stored `evidence`.

    `question_type` is HotpotQA's `bridge` or `comparison` when known; without
    it, a yes/no answer, or a choice between two named alternatives ("X or
    Y?"), is checked as a comparison.
    """
    if not _analyse(answer).tokens:
        return _reject(REASON_EMPTY, [])
    if not evidence:
        return _reject(REASON_NO_EVIDENCE.format(answer=answer), [answer.strip()])
    check = _Check(question, answer, _items(evidence))
    q, folded = check.q, check.folded
    yes_no = folded.tokens in (("yes",), ("no",))
    if q.strict_yes_no and not yes_no and q.pair_kind != "or":
        return _reject(REASON_YES_NO_EXPECTED.format(answer=answer), [])
    if yes_no and not q.asks_yes_no:
        return _reject(REASON_YES_NO_UNEXPECTED.format(answer=answer), [])
    if q.asks_year and not any(len(t) in (3, 4) and t.isdigit() for t in folded.tokens):
        return _reject(REASON_YEAR_EXPECTED.format(answer=answer), [])
    if q.asks_person and all(_is_number(t) or t in _MONTH_NAMES for t in folded.tokens):
        return _reject(REASON_PERSON_EXPECTED.format(answer=answer), [])
    if q.asks_number and not any(_is_number(t) for t in folded.tokens):
        return _reject(REASON_NUMBER_EXPECTED.format(answer=answer), [])
    comparison = question_type == "comparison"
    chosen = None if yes_no or not q.pair else _alternative(folded, q.pair)
    choice_question = q.pair_kind == "or" and q.pair_named
    if (
        q.pair_kind == "and"
        and q.pair_named
        and q.asks_which
        and chosen is not None
        and _names_same(folded, q.pair[chosen])
    ):
        choice_question = True
    if choice_question and chosen is None and not yes_no:
        alternatives = " or ".join(repr(" ".join(name.tokens)) for name in q.pair)
        return _reject(REASON_NOT_ALTERNATIVE.format(alternatives=alternatives, answer=answer), [])
    choice = chosen is not None and (choice_question or comparison)
    if yes_no or choice or comparison:
        return _compare(check, stated=not (yes_no or choice))
    found, missing = check.locate()
    if found is None:
        return _explain_missing(check, missing)
    return _supported(check, found)
