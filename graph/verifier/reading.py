"""How the stored evidence ties a stated answer to the question: the measurements the
rules (and the optional learned scorer) decide on.

For each placement of the answer in a trusted, related stating sentence: the
question's cues in that sentence (its page's subject counts as mentioned, so
"He was born in 1970" on Nolan's page mentions Nolan), the further cues in
the neighbouring sentences of the same page, and how far the nearest relation
word ("born", "directed") is. Then, over the evidence: whether the answer is
the span of its kind nearest that relation word in its sentence, whether it
is the subject of a stored page that shares the question's words, whether the
question's category noun stands next to it ("the film Lolita"), whether it
only names what the question already names, and how strongly another span of
its kind is tied (its rival).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

from graph.verifier.candidates import YEAR, Span, answer_kind
from graph.verifier.classes import Classified
from graph.verifier.matching import Item
from graph.verifier.normalise import Text, analyse, singular
from graph.verifier.relation import (
    FAR,
    Cues,
    cue_positions,
    cue_stem,
    distance,
    listed,
    locate,
    placements,
    reading,
    title_core,
    token_stems,
)
from graph.verifier.slots import MADE

HEAD_BEFORE = 3
# A date follows its relation word ("born 1920 - died 2003"): a word after it counts twice.
DATE_FOLLOWING_COST = 2


@lru_cache(maxsize=65536)
def nouns(raw: str) -> tuple[str, ...]:
    """The tokens of a sentence, as read, in the singular: where a category noun is found
    ("the film Lolita"; "Mica Paris sang" names no singer)."""
    return tuple(singular(token) for token in analyse(reading(raw)).tokens)


def _without_event(answer: Text, events: frozenset[str]) -> Text:
    """A date answer without the event word it opens with ("born 12 December 1925"): the
    event ties the date in the sentence, as for any other date."""
    tokens = answer.tokens
    while len(tokens) > 1 and cue_stem(tokens[0]) in events:
        tokens = tokens[1:]
    return answer if tokens == answer.tokens else Text(tokens, f" {' '.join(tokens)} ")


def _following_cost(kind: str | None) -> int:
    return DATE_FOLLOWING_COST if kind == YEAR else 1


HEAD_AFTER = 6
DESCRIBED_WORDS = 5
UNIT_REACH = 2


@dataclass(frozen=True, slots=True)
class Placement:
    """One place where a stored sentence states the answer, and its ties."""

    item: Item
    span: Span
    sentence_cues: frozenset[str]
    near_cues: frozenset[str]
    relation_distance: int
    relation_word: str
    described: str = ""


class Reading:
    """The measurements of one stated answer, each taken when first asked for (the rules
    stop at the first tie they find)."""

    def __init__(
        self,
        reader: Reader,
        answer: Text,
        cues: Cues,
        kind: str | None,
        placements: tuple[Placement, ...],
        classified: Classified,
    ) -> None:
        self.reader = reader
        self.answer = answer
        self.cues = cues
        self.kind = kind
        self.placements = placements
        self.classified = classified

    @cached_property
    def best(self) -> Placement | None:
        """The placement with the most cues around it (nearest relation word on a tie)."""
        return max(
            self.placements,
            key=lambda p: (len(p.sentence_cues | p.near_cues), -p.relation_distance),
            default=None,
        )

    @property
    def relation_distance(self) -> int:
        return min((p.relation_distance for p in self.placements), default=FAR)

    @property
    def sentence_cues(self) -> int:
        return len(self.best.sentence_cues) if self.best else 0

    @property
    def near_cues(self) -> int:
        return len(self.best.near_cues) if self.best else 0

    @property
    def cue_count(self) -> int:
        return len(self.cues.stems)

    @cached_property
    def slot(self) -> bool:
        """The answer is the span of its kind nearest a relation word in its sentence."""
        if self.kind is None:
            return False
        return self.reader.slot(list(self.placements), self.kind, self.answer, self.cues)

    @cached_property
    def subject_cues(self) -> int:
        """The cues on the stored page whose subject the answer is (-1: no such page)."""
        return self.reader.subject_cues(self.answer, self.cues)

    @cached_property
    def head_adjacent(self) -> bool | None:
        """The question's category noun next to the answer (None: the question has none)."""
        head = self.reader.head
        if not head:
            return None
        return any(
            head in nouns(p.item.raw)[max(0, p.span[0] - HEAD_BEFORE) : p.span[0]]
            or head in nouns(p.item.raw)[p.span[1] : p.span[1] + HEAD_AFTER]
            for p in self.placements
        )

    @cached_property
    def names_question(self) -> bool:
        """Most of the answer's words are words of names the question gives."""
        content = [token for token in self.answer.tokens if cue_stem(token)]
        named = sum(cue_stem(token) in self.reader.question_names for token in content)
        return bool(content) and 2 * named >= len(content)

    @cached_property
    def numbered(self) -> bool:
        """The question's category noun stands right before the number ("District 53")."""
        head = self.reader.head
        return bool(head) and any(
            nouns(p.item.raw)[p.span[0] - 1 : p.span[0]] == (head,)
            for p in self.placements
            if p.span[0]
        )

    @cached_property
    def has_unit(self) -> bool:
        """A unit of the asked quantity ("ft" for "how tall?") inside the answer's span or
        within `UNIT_REACH` words of it in a stating sentence (True when none is asked)."""
        units = self.cues.units
        return not units or any(
            not units.isdisjoint(
                token_stems(p.item.raw)[max(0, p.span[0] - UNIT_REACH) : p.span[1] + UNIT_REACH]
            )
            for p in self.placements
        )

    @cached_property
    def rivals(self) -> tuple[int, int]:
        """(most cues of a sentence stating a rival span, nearest rival to a relation word)."""
        if self.kind is None:
            return (0, FAR)
        return self.reader.rivals(self.kind, self.answer, self.cues)

    @property
    def rival_cues(self) -> int:
        return self.rivals[0]

    @property
    def rival_distance(self) -> int:
        return self.rivals[1]


class Reader:
    """Measures how the stored sentences tie spans to one question."""

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
        self.cues = cues
        self.question = question
        self.question_names = question_names
        self.head = singular(head) if head not in ("", "who", "where") else ""
        pages: dict[str, dict[int, Item]] = {}
        for item in items:
            pages.setdefault(item.page, {})[item.index] = item
        self.pages = pages

    def _neighbour_stems(self, item: Item) -> frozenset[str]:
        page = self.pages.get(item.page, {})
        found: set[str] = set()
        for index in (item.index - 1, item.index + 1):
            other = page.get(index)
            if other is not None and item.index >= 0:
                found.update(token_stems(other.raw))
        return frozenset(found)

    def _sentence_cues(self, item: Item, cues: Cues, span: Span | None) -> frozenset[str]:
        positions = cue_positions(item.raw, cues.stems)
        inside = span or (0, 0)
        stems = {s for i, s in positions if not inside[0] <= i < inside[1]}
        subject = {cue_stem(token) for token in item.title_text.tokens}
        return frozenset(stems | (subject & cues.stems))

    def place(self, item: Item, span: Span, cues: Cues, kind: str | None) -> Placement:
        in_sentence = self._sentence_cues(item, cues, span)
        near = (self._neighbour_stems(item) & cues.stems) - in_sentence
        skipped = listed(item.raw, kind) if kind else frozenset()
        positions = cue_positions(item.raw, cues.relation_for(kind))
        relation = distance(positions, span, skipped, _following_cost(kind))
        words = analyse(reading(item.raw)).tokens
        nearest = min(positions, key=lambda p: abs(p[0] - span[0]), default=None)
        word = words[nearest[0]] if nearest is not None else ""
        if nearest is not None and word == MADE:
            described = " ".join(words[nearest[0] + 1 : nearest[0] + DESCRIBED_WORDS])
            return Placement(item, span, in_sentence, near, relation, "", f"a {described}")
        return Placement(item, span, in_sentence, near, relation, word)

    def _is_rival(self, tokens: tuple[str, ...], answer: Text) -> bool:
        """Another answer of the same kind: shares no word with the answer, is not named in
        the question, and is not of a class the question excludes."""
        if not set(tokens).isdisjoint(answer.tokens):
            return False
        return f" {' '.join(tokens)} " not in self.question.padded and self.rival_fits(tokens)

    def slot(self, placed: list[Placement], kind: str, answer: Text, cues: Cues) -> bool:
        """The answer is the span of its kind nearest to a relation word in its sentence."""
        nearest = min(placed, key=lambda p: p.relation_distance, default=None)
        if nearest is None or nearest.relation_distance >= FAR:
            return False
        positions = cue_positions(nearest.item.raw, cues.relation_for(kind))
        skipped = listed(nearest.item.raw, kind)
        cost = _following_cost(kind)
        return not any(
            distance(positions, span, skipped, cost) < nearest.relation_distance
            for span, tokens in placements(nearest.item.raw, kind)
            if self._is_rival(tokens, answer)
        )

    def rivals(self, kind: str, answer: Text, cues: Cues) -> tuple[int, int]:
        """The most question cues in a sentence stating a rival span, and how near the
        question's relation word the nearest rival sits (anywhere in the evidence)."""
        most, nearest = 0, FAR
        cost = _following_cost(kind)
        for item in self.items:
            rivals = [
                span
                for span, tokens in placements(item.raw, kind)
                if self._is_rival(tokens, answer)
            ]
            if not rivals:
                continue
            most = max(most, len(self._sentence_cues(item, cues, None)))
            positions = cue_positions(item.raw, cues.relation_for(kind))
            if positions:
                skipped = listed(item.raw, kind)
                nearest = min(
                    nearest, *(distance(positions, span, skipped, cost) for span in rivals)
                )
        return most, nearest

    def subject_cues(self, answer: Text, cues: Cues) -> int:
        """The cues on the stored page whose subject the answer is (-1: no such page)."""
        words = set(answer.tokens)
        own: set[str] = set()
        found = False
        for item in self.items:
            title = set(title_core(item.title).tokens)
            if title and (title <= words or words <= title):
                found = True
                own |= self._sentence_cues(item, cues, None)
        return len(own) if found else -1

    def read(self, raw_answer: str, stating: list[Item], classified: Classified) -> Reading:
        answer = analyse(raw_answer)
        kind = answer_kind(answer, raw_answer)
        if kind == YEAR:
            answer = _without_event(answer, self.cues.dates)
        own = frozenset(cue_stem(token) for token in answer.tokens)
        cues = self.cues.without(own)
        placed = tuple(
            self.place(item, span, cues, kind)
            for item in stating
            for span in locate(item.raw, answer.tokens)
        )
        return Reading(self, answer, cues, kind, placed, classified)
