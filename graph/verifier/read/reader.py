"""Measures how the stored sentences tie spans to one question (see
`graph.verifier.read.reading` for what is measured).

What depends only on a sentence and the question's words is computed once per
sentence and set of words, and kept: the question's cues in a sentence, and
for each span of a kind in it, how far it sits from the relation words. An
answer then only filters those spans (its rivals share no word with it).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from operator import itemgetter

from graph.verifier.evidence.candidates import NUMBER, YEAR, Span, answer_kind
from graph.verifier.evidence.matching import Item, title_text
from graph.verifier.kinds.classes import Classified
from graph.verifier.read.conversions import converts
from graph.verifier.read.reading import (
    DESCRIBED_WORDS,
    UNIT_REACH,
    Placement,
    Reading,
    following_cost,
    without_event,
)
from graph.verifier.read.relation import (
    FAR,
    Cues,
    cue_positions,
    cue_stem,
    distance,
    listed,
    locate,
    nearest_position,
    placements,
    reading,
    title_core,
    token_stems,
)
from graph.verifier.read.slots import MADE
from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.normalise import Text, analyse, singular
from graph.verifier.trust.denials import negated

Rival = tuple[tuple[str, ...], Span, int]
_POSITION = itemgetter(0)
# A sentence with more cues than this has them counted once, and each span reads only the
# cues inside it (a long sentence stating the answer many times); fewer are read whole.
_FEW_CUES = 64
# How many (reader, kind, words) tables are kept: a reader is kept per question and evidence.
_KEPT_TABLES = 1024


@lru_cache(maxsize=16384)
def _title_stems(title: str) -> frozenset[str]:
    return frozenset(map(cue_stem, title_text(title).tokens))


@lru_cache(maxsize=TEXTS)
def _cues_stated(
    raw: str, title: str, stems: frozenset[str]
) -> tuple[frozenset[str], Counter[str]]:
    """The cues of `stems` a sentence or its page's title states, and how many times the
    sentence states each."""
    counts = Counter(stem for _, stem in cue_positions(raw, stems))
    return frozenset(counts).union(_title_stems(title) & stems), counts


@lru_cache(maxsize=TEXTS)
def sentence_cues(raw: str, title: str, stems: frozenset[str], span: Span | None) -> frozenset[str]:
    """The cues of `stems` a sentence states outside `span`; its page's subject (its
    title) counts as stated ("He was born ..." on Nolan's page). In a sentence of many cues
    only those inside the span are read for each span, so a sentence stating an answer
    many times is read once."""
    positions = cue_positions(raw, stems)
    if len(positions) <= _FEW_CUES:
        inside_span = span or (0, 0)
        found = {s for i, s in positions if not inside_span[0] <= i < inside_span[1]}
        return frozenset(found | (_title_stems(title) & stems))
    stated, counts = _cues_stated(raw, title, stems)
    if span is None:
        return stated
    first = bisect_left(positions, span[0], key=_POSITION)
    last = bisect_left(positions, span[1], first, key=_POSITION)
    inside: dict[str, int] = {}
    for _, stem in positions[first:last]:
        inside[stem] = inside.get(stem, 0) + 1
    only_inside = {stem for stem, times in inside.items() if times == counts[stem]}
    only_inside.difference_update(_title_stems(title))
    return stated - only_inside if only_inside else stated


@lru_cache(maxsize=TEXTS)
def spans_by_distance(raw: str, kind: str, relation: frozenset[str]) -> tuple[Rival, ...]:
    """Each span of `kind` in a sentence with how far it sits from the nearest relation
    word (`FAR` if the sentence has none); the other members of its list do not count."""
    positions = cue_positions(raw, relation)
    if not positions:
        return tuple((tokens, span, FAR) for span, tokens in placements(raw, kind))
    skipped = listed(raw, kind)
    cost = following_cost(kind)
    return tuple(
        (tokens, span, distance(positions, span, skipped, cost))
        for span, tokens in placements(raw, kind)
    )


@lru_cache(maxsize=TEXTS)
def _rival_profile(raw: str, kind: str, relation: frozenset[str]) -> tuple[int, tuple[Rival, ...]]:
    """A sentence's spans of `kind` from the nearest to the relation words to the
    farthest, and the smallest of those distances."""
    table = tuple(sorted(spans_by_distance(raw, kind, relation), key=lambda rival: rival[2]))
    return (table[0][2] if table else FAR), table


@lru_cache(maxsize=16384)
def _title_words(title: str) -> frozenset[str]:
    return frozenset(title_core(title).tokens)


@lru_cache(maxsize=TEXTS)
def _stems_of(*raws: str) -> frozenset[str]:
    """The cue stems of the sentences (the neighbours of one)."""
    return frozenset().union(*map(token_stems, filter(None, raws)))


@lru_cache(maxsize=_KEPT_TABLES)
def _rival_sentences(
    reader: Reader, kind: str, relation: frozenset[str], stems: frozenset[str]
) -> tuple[tuple[int, bool, str], ...]:
    """Each sentence's question cues, whether it states a relation word and its text,
    those with the most cues first (so that the others are seldom read for spans)."""
    return tuple(
        sorted(
            (
                (
                    len(sentence_cues(item.raw, item.title, stems, None)),
                    bool(cue_positions(item.raw, relation)),
                    item.raw,
                )
                for item in reader.items
            ),
            key=lambda sentence: -sentence[0],
        )
    )


@lru_cache(maxsize=_KEPT_TABLES)
def _subject_pages(
    reader: Reader, stems: frozenset[str]
) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each stored page's title words and the cues its sentences state."""
    pages: dict[str, set[str]] = {}
    for item in reader.items:
        pages.setdefault(item.title, set()).update(sentence_cues(item.raw, item.title, stems, None))
    return tuple((_title_words(title), frozenset(cues)) for title, cues in pages.items())


@lru_cache(maxsize=TEXTS)
def _denied(raw: str, tokens: tuple[str, ...]) -> bool:
    """The sentence states the span only in a clause that denies or doubts it ("It is not
    true that X ..."): no rival, as it is no answer."""
    return negated(analyse(reading(raw)), analyse(" ".join(tokens)))


def _measures(raw: str, span: Span, kind: str, cues: Cues) -> bool:
    """A span may answer a question asking for a measure: a number with a unit of it next to
    it ("134 miles", not the "309" of "Route 309"), or anything when none is asked."""
    if kind != NUMBER or not cues.units:
        return True
    return not cues.units.isdisjoint(
        token_stems(raw)[max(0, span[0] - UNIT_REACH) : span[1] + UNIT_REACH]
    )


class Reader:
    """Measures how the stored sentences tie spans to one question (one reader serves every
    answer checked against the same question and evidence)."""

    def __init__(
        self,
        items: list[Item],
        cues: Cues,
        question: Text,
        question_names: frozenset[str],
        head: str,
        rival_fits: Callable[[tuple[str, ...]], bool],
    ) -> None:
        self.items = items
        self.rival_fits = rival_fits
        self._fits: dict[tuple[str, ...], bool] = {}
        self.cues = cues
        self.question = question
        self.question_names = question_names
        self.head = singular(head) if head not in ("", "who", "where") else ""
        pages: dict[str, dict[int, Item]] = {}
        for item in items:
            pages.setdefault(item.page, {})[item.position] = item
        self.pages = pages

    def _neighbour_stems(self, item: Item) -> frozenset[str]:
        if item.position < 0:
            return frozenset()
        page = self.pages.get(item.page, {})
        before, after = page.get(item.position - 1), page.get(item.position + 1)
        return _stems_of(before.raw if before else "", after.raw if after else "")

    def place(self, item: Item, span: Span, cues: Cues, kind: str | None) -> Placement:
        in_sentence = sentence_cues(item.raw, item.title, cues.stems, span)
        near = (self._neighbour_stems(item) & cues.stems) - in_sentence
        positions = cue_positions(item.raw, cues.relation_for(kind))
        # Without a relation word the distance is FAR whatever is skipped: the sentence's
        # spans need not be read.
        skipped = listed(item.raw, kind) if kind and positions else ()
        relation = distance(positions, span, skipped, following_cost(kind))
        closest = nearest_position(positions, span[0])
        if closest is None:
            return Placement(item, span, in_sentence, near, relation, "")
        words = analyse(reading(item.raw)).tokens
        word = words[closest[0]]
        if word == MADE:
            described = " ".join(words[closest[0] + 1 : closest[0] + DESCRIBED_WORDS])
            return Placement(item, span, in_sentence, near, relation, "", f"a {described}")
        return Placement(item, span, in_sentence, near, relation, word)

    def _is_rival(self, tokens: tuple[str, ...], answer: Text) -> bool:
        """Another answer of the same kind: shares no word with the answer, is not named in
        the question, and is not of a class the question excludes."""
        if not set(tokens).isdisjoint(answer.tokens):
            return False
        fits = self._fits.get(tokens)
        if fits is None:
            fits = f" {' '.join(tokens)} " not in self.question.padded and self.rival_fits(tokens)
            self._fits[tokens] = fits
        return fits

    def _competes(
        self, raw: str, tokens: tuple[str, ...], span: Span, kind: str, answer: Text, cues: Cues
    ) -> bool:
        """A span of a sentence is a rival of the answer there: another thing of its kind,
        measuring what is asked, not denied, and no conversion of the answer's measure."""
        return (
            self._is_rival(tokens, answer)
            and _measures(raw, span, kind, cues)
            and not _denied(raw, tokens)
            and not (kind == NUMBER and converts(raw, span, answer.tokens))
        )

    def slot(self, placed: list[Placement], kind: str, answer: Text, cues: Cues) -> bool:
        """The answer is the span of its kind nearest to a relation word in its sentence."""
        nearest = min(placed, key=lambda p: p.relation_distance, default=None)
        if nearest is None or nearest.relation_distance >= FAR:
            return False
        raw = nearest.item.raw
        table = spans_by_distance(raw, kind, cues.relation_for(kind))
        distance = nearest.relation_distance
        return not any(
            gap < distance and self._competes(raw, tokens, span, kind, answer, cues)
            for tokens, span, gap in table
        )

    def rivals(self, kind: str, answer: Text, cues: Cues) -> tuple[int, int]:
        """The most question cues in a sentence stating a rival span, and how near the
        question's relation word the nearest rival sits (anywhere in the evidence); a
        sentence that can change neither (no more cues, no relation word) is not read for
        spans."""
        most, nearest = 0, FAR
        relation = cues.relation_for(kind)
        for count, related, raw in _rival_sentences(self, kind, relation, cues.stems):
            if count <= most and not related:
                continue
            closest, table = _rival_profile(raw, kind, relation)
            if not table or (count <= most and closest >= nearest):
                continue
            for tokens, span, gap in table:
                if count <= most and gap >= nearest:
                    break
                if self._competes(raw, tokens, span, kind, answer, cues):
                    most, nearest = max(most, count), min(nearest, gap)
                    break
        return most, nearest

    def subject_cues(self, answer: Text, cues: Cues) -> int:
        """The cues on the stored page whose subject the answer is (-1: no such page)."""
        words = frozenset(answer.tokens)
        own: set[str] = set()
        found = False
        for title, stated in _subject_pages(self, cues.stems):
            if title and (title <= words or words <= title):
                found = True
                own |= stated
        return len(own) if found else -1

    def read(self, raw_answer: str, stating: list[Item], classified: Classified) -> Reading:
        answer = analyse(raw_answer)
        kind = answer_kind(answer, raw_answer)
        if kind == YEAR:
            answer = without_event(answer, self.cues.dates)
        own = frozenset(cue_stem(token) for token in answer.tokens)
        cues = self.cues.without(own)
        placed = tuple(
            self.place(item, span, cues, kind)
            for item in stating
            for span in locate(item.raw, answer.tokens)
        )
        return Reading(self, answer, cues, kind, placed, classified)
