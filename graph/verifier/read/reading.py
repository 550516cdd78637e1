"""How the stored evidence ties a stated answer to the question: the measurements the
rules and the learned combiner decide on.

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

from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from graph.verifier.evidence.candidates import YEAR, Span
from graph.verifier.evidence.matching import Item
from graph.verifier.kinds.classes import Classified
from graph.verifier.read.relation import (
    FAR,
    Cues,
    cue_stem,
    reading,
    token_stems,
)
from graph.verifier.text.cache_sizes import TEXTS
from graph.verifier.text.kept import kept_property
from graph.verifier.text.normalise import Text, analyse, singular

HEAD_BEFORE = 3
# A date follows its relation word ("born 1920 - died 2003"): a word after it counts twice.
DATE_FOLLOWING_COST = 2


@lru_cache(maxsize=TEXTS)
def nouns(raw: str) -> tuple[str, ...]:
    """The tokens of a sentence, as read, in the singular: where a category noun is found
    ("the film Lolita"; "Mica Paris sang" names no singer)."""
    return tuple(map(singular, analyse(reading(raw)).tokens))


def without_event(answer: Text, events: frozenset[str]) -> Text:
    """A date answer without the event word it opens with ("born 12 December 1925"): the
    event ties the date in the sentence, as for any other date."""
    tokens = answer.tokens
    while len(tokens) > 1 and cue_stem(tokens[0]) in events:
        tokens = tokens[1:]
    return answer if tokens == answer.tokens else Text.of(tokens)


def following_cost(kind: str | None) -> int:
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


class Sentences(Protocol):
    """What a reading asks of the sentences it was read from (`graph.verifier.read.reader`)."""

    head: str
    question_names: frozenset[str]

    def slot(self, placed: list[Placement], kind: str, answer: Text, cues: Cues) -> bool:
        """The answer is the span of its kind nearest to a relation word in its sentence."""
        ...

    def rivals(self, kind: str, answer: Text, cues: Cues) -> tuple[int, int]:
        """The strongest rival span's cues and its nearness to the relation word."""
        ...

    def subject_cues(self, answer: Text, cues: Cues) -> int:
        """The cues on the stored page whose subject the answer is (-1: no such page)."""
        ...


class Reading:
    """The measurements of one stated answer, each taken when first asked for (the rules
    stop at the first tie they find)."""

    def __init__(
        self,
        reader: Sentences,
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

    @kept_property
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

    @kept_property
    def slot(self) -> bool:
        """The answer is the span of its kind nearest a relation word in its sentence."""
        if self.kind is None:
            return False
        return self.reader.slot(list(self.placements), self.kind, self.answer, self.cues)

    @kept_property
    def subject_cues(self) -> int:
        """The cues on the stored page whose subject the answer is (-1: no such page)."""
        return self.reader.subject_cues(self.answer, self.cues)

    @kept_property
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

    @kept_property
    def names_question(self) -> bool:
        """Most of the answer's words are words of names the question gives."""
        content = [token for token in self.answer.tokens if cue_stem(token)]
        named = sum(cue_stem(token) in self.reader.question_names for token in content)
        return bool(content) and 2 * named >= len(content)

    @kept_property
    def numbered(self) -> bool:
        """The question's category noun stands right before the number ("District 53")."""
        head = self.reader.head
        return bool(head) and any(
            nouns(p.item.raw)[p.span[0] - 1 : p.span[0]] == (head,)
            for p in self.placements
            if p.span[0]
        )

    @kept_property
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

    @kept_property
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
