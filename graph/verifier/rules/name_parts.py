"""Names cut short: an answer that the evidence writes only as part of a
longer name ("Eddie" where it says "Eddie Izzard", "Gatwick" where it says "Gatwick
Airport") names something else, and is grounded, never verified (not rejected: the
capitalised phrase around a right answer is sometimes no name, "Swiss Neoclassical",
"British Conservative"). An answer that joins another name ("X and Y") is left to the
learned combiner, which is trained on such answers: a rule that grounded those no
sentence states together did not pay its way on held-out folds.

Read on the raw sentence: a name continues into a capitalised word written right next to
it (a sentence's first word, the function words a sentence or title may open with, and
a person's title or "Jr." aside; a numeral is part of it: "World War II", "Henry
VIII"), or one particle away ("Bank of America"; before a name only a person's
particle: "the Cathedral of Lithuania" is about Lithuania). A word before a name that describes it
(a demonym, a party, a direction: "Republican Lee Zeldin") or owns it ("TV's") is no part
of it; a full stop ends a sentence or an initial, never a word ("Pictures.", "J.").
"""

from __future__ import annotations

import re
from functools import lru_cache

from graph.verifier.evidence.matching import contains, probe_of
from graph.verifier.read.check import Check
from graph.verifier.rules.unasked import gives_asked_nationality
from graph.verifier.text.categories import DEMONYMS
from graph.verifier.text.normalise import split_words
from graph.verifier.verdicts import GROUNDING_STATED, citation, ground
from tools.base import Verdict

REASON_PART_OF_NAME = (
    "{answer!r} is written in stored {cite} only as part of a longer name ({longer}),"
    " which may name something else: give the whole name if that is what is asked."
)

# A word (from a letter or digit on) and what parts it from the next word: everything up
# to the next letter or digit.
_WORD_AND_GAP = re.compile(r"([^\W_][\w'’.-]*)([\W_]*)")
_QUALIFIER = re.compile(r"\s*(?:,.*|\([^)]*\))$")
_TITLES = frozenset(
    split_words(
        "mr mrs ms dr sir dame lord lady king queen prince princess emperor pope saint st"
        " president director chairman general senator governor judge justice captain chief"
        " minister professor prof rev bishop coach mayor jr sr"
        # ranks, whose plural stands before a list of names ("Constables A and B")
        " constable constables sergeant sergeants detective detectives inspector inspectors"
        " lieutenant lieutenants colonel colonels admiral admirals officer officers"
        " sgt lt col pc"
    )
)
_PARTICLES = frozenset(split_words("of de du da di van von der den la le del y"))
# A Roman numeral ends a name ("World War II", "Henry VIII"), and a full stop after it a
# sentence, not an abbreviation.
_NUMERAL = re.compile(r"[IVXLCDM]+")
# What may stand before the name it belongs to: a person's particles ("Daphne du
# Maurier"), not "of" ("the Cathedral of Lithuania" is about Lithuania).
_LEADING_PARTICLES = _PARTICLES - {"of"}
# Words before a name that describe it rather than belong to it: "American BMX rider",
# "Republican Lee Zeldin", "Southern United States".
_DESCRIBING = DEMONYMS | frozenset(
    split_words(
        "republican democrat democratic conservative liberal labour socialist communist"
        " northern southern eastern western northeastern northwestern southeastern"
        " southwestern central"
    )
)
_OPENERS = frozenset(
    split_words(
        "a an and as at but by for from he her his in it its of on or she that the their"
        " these they this those to was we were when where which while who with"
    )
)


@lru_cache(maxsize=16384)
def _words(text: str) -> tuple[tuple[str, bool], ...]:
    """The words of a raw sentence, each with whether only spaces part it from the next
    (one scan for both; the text after the last word parts it from none)."""
    pairs = _WORD_AND_GAP.findall(text)
    if not pairs:
        return ()
    words = [(word, gap.isspace()) for word, gap in pairs]
    words[-1] = (pairs[-1][0], False)
    return tuple(words)


def _extends(word: str) -> bool:
    """A neighbouring word that makes a longer name: capitalised, and no opener, title or
    suffix of a name (`_OPENERS`, `_TITLES`)."""
    key = word.casefold().strip(".")
    return word[:1].isupper() and key not in _OPENERS and key not in _TITLES


def _describes(word: str) -> bool:
    """A word before a name that describes it (a demonym, a party, a direction) or owns
    it ("TV's")."""
    return word.casefold() in _DESCRIBING or word.endswith(("'s", "’s"))


@lru_cache(maxsize=16384)
def _folded_words(text: str) -> tuple[str, ...]:
    """The words folded, without a full stop ("Pictures." ends a sentence, "J." an
    initial)."""
    return tuple(word.casefold().rstrip(".") for word, _ in _words(text))


def _occurrences(text: str, needle: tuple[str, ...]) -> list[int]:
    """Where the needle's words stand in the text's words."""
    folded = _folded_words(text)
    size = len(needle)
    if needle[0] not in folded:
        return []
    return [i for i in range(len(folded) - size + 1) if folded[i : i + size] == needle]


def _common_word(words: tuple[tuple[str, bool], ...], start: int, size: int) -> bool:
    """The capitalised answer's words stand at `start` all in lower case: a common noun
    ("in 21 states" for "States"), neither the name nor a sign it stands alone."""
    return all(word[:1].islower() for word, _ in words[start : start + size])


def _joined(words: tuple[tuple[str, bool], ...], left: int, right: int, step: int) -> bool:
    """Words at `left` and `right` (next to each other, or one particle apart between two
    capitalised words: "Bank of America", "Daphne du Maurier", not "the crime family of
    Newark") are parted by spaces alone."""
    if right - left == 1:
        return words[left][1]
    middle = words[left + 1][0]
    particles = _PARTICLES if step > 0 else _LEADING_PARTICLES
    capitalised = words[left][0][:1].isupper() and words[right][0][:1].isupper()
    return capitalised and words[left][1] and words[left + 1][1] and middle in particles


def _neighbour(words: tuple[tuple[str, bool], ...], index: int, step: int, first: int) -> int:
    """The index of the word that extends a name from `index` in direction `step` (next to
    it, or past a particle), or -1 when none does."""
    for reach in (1, 2):
        other = index + step * reach
        if other < first or other >= len(words) or not _extends(words[other][0]):
            continue
        if step < 0 and _describes(words[other][0]):
            continue
        left, right = sorted((index, other))
        if _joined(words, left, right, step):
            return other
    return -1


def _longer_name(
    words: tuple[tuple[str, bool], ...],
    start: int,
    end: int,
    first: int = 1,
    describing: bool = False,
) -> str | None:
    """The longer name the words at [start, end) are part of, or None when they stand
    alone: only a neighbour parted by spaces alone (or by a particle: "of", "du") extends
    a name, and not a sentence's first word (`first`: the first index that may extend
    one; 0 in a title); nothing extends past a possessive, nor past a word `describing`
    what follows it."""
    before = _neighbour(words, start, -1, first)
    possessive = words[end - 1][0].endswith(("'s", "’s"))
    after = -1 if possessive or describing else _neighbour(words, end - 1, 1, first)
    if before < 0 and after < 0:
        return None
    span = words[before if before >= 0 else start : after + 1 if after >= 0 else end]
    name = " ".join(word for word, _ in span)
    last = span[-1][0]
    ends_sentence = len(last) > 3 or _NUMERAL.fullmatch(last[:-1]) is not None
    return name[:-1] if name.endswith(".") and ends_sentence else name


def _in_titles(
    check: Check, needle: tuple[str, ...], describing: bool
) -> tuple[list[str], list[str]]:
    """The stored page titles (their part before a comma or a parenthesis) that name the
    answer inside a longer name, and their sentences' ids; none when a title is the answer."""
    longer: list[str] = []
    ids: list[str] = []
    for title in dict.fromkeys(item.title for item in check.items):
        head = _QUALIFIER.sub("", title)
        if _folded_words(head) == needle:
            return [], []
        words = _words(head)
        for start in _occurrences(head, needle):
            name = _longer_name(words, start, start + len(needle), 0, describing)
            if name is not None:
                stated = [item.id for item in check.items if item.title == title and item.trusted]
                if stated:
                    longer.append(name)
                    ids.append(stated[0])
    return longer, ids


def part_of_longer_name(check: Check) -> Verdict | None:
    """Grounded when the capitalised answer is written only inside a longer name: by
    every trusted sentence stating it, or by a stored page's title (when no stored title
    is the answer itself); None when it stands on its own, or when the question asks for
    a part of a name ("what is the middle name of ..."). A nationality asked for and given
    describes the capitalised words after it ("a Swiss Neoclassical painter")."""
    if check.q.asks_name_part:
        return None
    answer = check.answer.strip().rstrip(".")
    written = [word for word, _ in _words(answer)]
    needle = _folded_words(answer)
    if not needle or not any(word[:1].isupper() for word in written):
        return None
    if any(char.isdigit() for char in answer):
        return None
    describing = gives_asked_nationality(check)
    longer, ids = _in_titles(check, needle, describing)
    if longer:
        return _part_of(check, longer, ids)
    return _in_sentences(check, needle, describing)


def _part_of(check: Check, longer: list[str], ids: list[str]) -> Verdict:
    names = ", ".join(repr(name) for name in dict.fromkeys(longer))
    reason = REASON_PART_OF_NAME.format(answer=check.answer, cite=citation(ids), longer=names)
    return ground(ids, reason, [], GROUNDING_STATED)


def _in_sentences(check: Check, needle: tuple[str, ...], describing: bool) -> Verdict | None:
    """`part_of_longer_name` by the sentences stating the answer."""
    longer: list[str] = []
    ids: list[str] = []
    for item in check.containing(probe_of(check.folded)):
        if not contains(item.text, check.folded) or not item.trusted:
            continue
        words = _words(item.raw)
        starts = _occurrences(item.raw, needle)
        if not starts:  # stated only once folded (accents, numbers): cannot tell
            return None
        for start in starts:
            if _common_word(words, start, len(needle)):
                continue
            name = _longer_name(words, start, start + len(needle), describing=describing)
            if name is None:
                return None
            longer.append(name)
            ids.append(item.id)
    return _part_of(check, longer, ids) if longer else None
