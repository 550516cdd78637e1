"""The classes an answer may belong to, and whether they fit the question.

Strong sources: the injected lexicon (the first sentence of the answer's own
article), the answer's own stored page (its first sentence), a demonym (it
names a country's people) and a date. Weak sources, which count only when no
strong one says anything: the category word that ends the name ("Sun Belt
Tournament", though titles end so too: "Sex and the City"), the lexicon's
guess (a given name), the capitalised small words only titles have ("The
Closer I Get"), and the words around it in a stating sentence ("actor James
Cromwell", "directed by Stanley Kubrick").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from graph.verifier.evidence.candidates import find_in
from graph.verifier.evidence.matching import Item
from graph.verifier.kinds.answer_types import Expected, NameLexicon, class_of
from graph.verifier.kinds.descriptions import COPULA, classes_of, described_class
from graph.verifier.kinds.places import is_city, is_region
from graph.verifier.text.cache_sizes import TEXTS, WORDS
from graph.verifier.text.categories import (
    DATE,
    DEMONYMS,
    MODIFIER,
    NATIONALITY,
    PERSON,
    PLACE,
    WHERE_CLASSES,
    WHO_CLASSES,
    WORK,
)
from graph.verifier.text.normalise import (
    MONTH_NAMES,
    Text,
    analyse,
    is_number,
    singular,
    split_words,
)

FROM_LEXICON = "lexicon"
FROM_PAGE = "page"
FROM_NAME = "name"
FROM_GUESS = "guess"
FROM_CONTEXT = "context"
FROM_ENDING = "name ending"
CITY = "a large city"
REGION = "a country or a state"
# Places within a country or a state, which neither answers ("which town?", "which stadium?").
WITHIN_REGION = frozenset(
    split_words(
        "city town village hamlet suburb borough neighbourhood neighborhood municipality"
        " commune parish settlement locality capital metropolis district street road avenue"
        " building tower skyscraper stadium arena venue airport station hotel mall castle"
        " palace campus school university college hospital museum prison"
    )
)
_WEAK = frozenset({FROM_GUESS, FROM_CONTEXT, FROM_ENDING})
# The sources that say what a name is on their own authority.
STRONG_SOURCES = frozenset({FROM_LEXICON, FROM_PAGE, FROM_NAME})
_SHOWN_CHARS = 80
# A name's last word joined to a lower-case participle or describing word ("New
# Jersey-based", "Award-winning", "English-language"), not to the lower-case part of a
# romanised given name ("Yeon Sang-ho", "Jung Yu-mi").
_COMPOUND_MODIFIER = re.compile(
    r"\w-(?:[a-z]{2,}(?:ed|ing)|led|run|born|made|style|era|wide|like|language)\W*$"
)
_PREPOSITIONS = frozenset(split_words("in on during since until by from"))
# Capitalised small words that only a title capitalises ("The Closer I Get").
# A Roman numeral closing a name: its class is the word's before ("World War II").
_NUMERAL = re.compile(r"[IVX]+")
_TITLE_WORDS = frozenset(
    split_words(
        "I Me My You Your We Us Our It Is Are Was Were Be Been Do Does Don't Get Got Go Goes"
        " Know Knows Can Can't Will Won't Why What When How This That Not No Never Let Say"
    )
)

_WORD_RUN = re.compile(r"\w+")


# Words before a name that say what it is: the agent of "directed by", a person
# "starring", a place one is "born in".
_AGENT_VERBS = frozenset(
    split_words(
        "directed written produced created composed founded cofounded published released"
        " performed sung recorded developed designed built owned operated voiced hosted presented"
        " edited illustrated painted invented discovered coached managed led distributed"
        " manufactured narrated choreographed authored"
    )
)
_PERSON_BEFORE = frozenset(split_words("starring featuring starred"))
_PLACE_BEFORE = frozenset(
    split_words("born located based headquartered situated raised died buried lies lived")
)


def local_classes(tokens: tuple[str, ...], span: tuple[int, int]) -> dict[str, str]:
    """Class -> the words that give it, from a name's neighbours in its sentence:
    a category noun right before it ("actor James Cromwell"), "directed by" (a person
    or an organisation), "starring", "born in", "born" right after it, or "is a ..."
    after a name that opens the sentence."""
    start, end = span
    found: dict[str, str] = {}
    before = tokens[max(0, start - 2) : start]
    if before:
        kinds = class_of(before[-1]) if not before[-1][0].isdigit() else frozenset()
        if kinds:
            found.update(dict.fromkeys(kinds, before[-1]))
        elif before[-1] in _PERSON_BEFORE:
            found[PERSON] = before[-1]
        elif len(before) == 2 and before[1] == "by" and before[0] in _AGENT_VERBS:
            found.update(dict.fromkeys(WHO_CLASSES, " ".join(before)))
        elif len(before) == 2 and before[1] == "in" and before[0] in _PLACE_BEFORE:
            found.update(dict.fromkeys(WHERE_CLASSES, " ".join(before)))
    after = tokens[end : end + 12]
    if after[:1] == ("born",):
        found.setdefault(PERSON, "born")
    elif start == 0 and after[:1] and after[0] in COPULA:
        described = described_class(" ".join(after))
        for kind in described[0] if described else ():
            found.setdefault(kind, " ".join(after[:6]))
    return found


@dataclass(frozen=True, slots=True)
class Classified:
    """The classes found for an answer, each with its source and the words that say so."""

    classes: dict[str, tuple[str, str]]
    region: bool = False

    @property
    def known(self) -> frozenset[str]:
        strong = {kind for kind, (source, _) in self.classes.items() if source not in _WEAK}
        return frozenset(strong or self.classes)

    def fits(self, expected: Expected) -> bool | None:
        """True or False when both the question and the answer say; None otherwise. A
        country or a state is no place within one ("which town?")."""
        if not expected.classes:
            return None
        known = self.known
        if not known:
            return None
        if self.region and singular(expected.noun) in WITHIN_REGION:
            return False
        return not known.isdisjoint(expected.classes)

    def strong_mismatch(self, expected: Expected) -> bool:
        """It does not fit, and every class found for it comes from a strong source (its
        own page or lead, the lexicon, its form)."""
        return self.fits(expected) is False and all(
            source in STRONG_SOURCES for source, _ in self.classes.values()
        )

    def why(self) -> str:
        """The answer's classes and the words behind them: "a person (lexicon: '...')"."""
        kinds = sorted(self.known)
        source, words = self.classes[kinds[0]]
        named = " or ".join(f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}" for kind in kinds)
        return f"{named} ({source}: {words!r})"


@lru_cache(maxsize=TEXTS)
def _word_runs(raw: str) -> frozenset[str]:
    """The sentence's maximal runs of word characters."""
    return frozenset(_WORD_RUN.findall(raw))


def _written_common(word: str, raw: str) -> bool:
    """The sentence writes the word in lower case, or as an abbreviation ("EP"), not only
    as part of a name ("Station"). A word of word characters only is whole where it is a
    whole run of them (what `\\b` marks), so a set lookup answers without a pattern."""
    forms = (word, word.upper())
    if all(_WORD_RUN.fullmatch(form) for form in forms):
        return not _word_runs(raw).isdisjoint(forms)
    return re.search(rf"\b(?:{re.escape(word)}|{re.escape(word.upper())})\b", raw) is not None


@lru_cache(maxsize=TEXTS)
def _context_classes(raw: str, span: tuple[int, int]) -> dict[str, str]:
    """`local_classes` of a span of a stored sentence, less a category noun the sentence
    writes only capitalised (the end of another name: "La Ciotat Station, Arrival ...")."""
    return {
        kind: words
        for kind, words in local_classes(analyse(raw).tokens, span).items()
        if _written_common(words.split()[0], raw)
    }


@lru_cache(maxsize=WORDS)
def _from_lexicon(key: str, lexicon: NameLexicon) -> dict[str, tuple[str, str]]:
    """Class -> (source, description) from the lexicon's descriptions of a name."""
    return {
        kind: (FROM_LEXICON, description[:_SHOWN_CHARS])
        for kind, description in classes_of(lexicon.describe(key)).items()
    }


@lru_cache(maxsize=WORDS)
def _guessed(key: str, lexicon: NameLexicon) -> dict[str, tuple[str, str]]:
    """Class -> (source, description) from the lexicon's guess about a name."""
    guess = lexicon.guess(key)
    if not guess:
        return {}
    return {kind: (FROM_GUESS, text) for kind, text in classes_of([guess]).items()}


def _title_words(words: list[str]) -> list[str]:
    """The words after the first that only a title capitalises ("The Closer I Get"); a
    last "I" is a numeral ("World War I", "Elizabeth I")."""
    last = len(words) - 1
    return [
        word
        for at, word in enumerate(words[1:], start=1)
        if word.strip("\"'“”,.!?") in _TITLE_WORDS and not (at == last and word == "I")
    ]


def classify(
    answer: Text,
    raw: str,
    items: Iterable[Item],
    stating: Iterable[Item],
    lexicon: NameLexicon | None,
) -> Classified:
    """What the answer is, from the lexicon, its own stored page, its own words and the
    sentences that state it."""
    found: dict[str, tuple[str, str]] = {}
    tokens = answer.tokens
    if not tokens or all(map(is_number, tokens)):
        return Classified(found)
    if DEMONYMS.issuperset(tokens):
        return Classified({NATIONALITY: (FROM_NAME, "a demonym")})
    if "-" in raw and _COMPOUND_MODIFIER.search(raw):
        return Classified({MODIFIER: (FROM_NAME, "a compound modifier")})
    key = " ".join(tokens)
    if lexicon is not None:
        found.update(_from_lexicon(key, lexicon))
    padded = answer.padded
    # The opening sentence of the answer's own page (position first: most are not).
    own = [item.raw for item in items if item.position == 0 and item.title_text.padded == padded]
    for kind, description in classes_of(own).items():
        found.setdefault(kind, (FROM_PAGE, description[:_SHOWN_CHARS]))
    city = is_city(key)
    region = not city and is_region(key)
    if city or region:
        found.setdefault(PLACE, (FROM_NAME, REGION if region else CITY))
    if lexicon is not None and not found:
        found.update(_guessed(key, lexicon))
    written = raw.split()
    if len(tokens) > 1 and "-" not in written[-1]:
        ending = tokens[-1]
        if len(tokens) > 2 and _NUMERAL.fullmatch(written[-1].rstrip(".,")):  # "World War II"
            ending = tokens[-2]
        for kind in class_of(ending):
            found.setdefault(kind, (FROM_ENDING, ending))
    if not MONTH_NAMES.keys().isdisjoint(tokens) and (
        any(map(is_number, tokens)) or tokens[0] in _PREPOSITIONS
    ):
        found.setdefault(DATE, (FROM_NAME, "a date"))
    # Title words are capitalised: none in a text with no capital (a folded name).
    title_words = [] if raw.islower() else _title_words(written)
    if title_words:
        found.setdefault(WORK, (FROM_ENDING, f"a title ({title_words[0]})"))
    for item in stating:
        for span in find_in(item.text, tokens):
            for kind, words in _context_classes(item.raw, span).items():
                found.setdefault(kind, (FROM_CONTEXT, words))
    return Classified(found, region)


@lru_cache(maxsize=TEXTS)
def _name_classified(tokens: tuple[str, ...], lexicon: NameLexicon | None) -> Classified:
    """What the lexicon and its own words say a name (folded tokens) is, whatever the
    question asks for."""
    text = Text.of(tokens)
    return classify(text, text.padded.strip(), (), (), lexicon)


@lru_cache(maxsize=TEXTS)
def name_fits(
    tokens: tuple[str, ...], classes: frozenset[str], lexicon: NameLexicon | None
) -> bool:
    """Whether a name (folded tokens) may be of one of the `classes` a question asks for:
    False only when the lexicon or the name itself says it is of another class (never
    when the question asks for no class: nothing is looked up then)."""
    if not classes:
        return True
    return _name_classified(tokens, lexicon).fits(Expected(classes)) is not False
