"""One verification's analysed inputs, which stored pages relate to the question, and
where the answer is stated."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graph.verifier.evidence.matching import (
    Item,
    contains,
    contains_singular,
    folded_list,
    holding,
    is_about,
    near,
    pages_linked,
    probe_of,
    shares_enough,
)
from graph.verifier.kinds.answer_types import NameLexicon, expected_class
from graph.verifier.kinds.classes import Classified, classify, name_fits
from graph.verifier.kinds.namesakes import Described, describes_as_asked, namesake_pages
from graph.verifier.kinds.question import analyse_question, named_entities
from graph.verifier.kinds.titled_pair import titled_pair
from graph.verifier.read.reader import Reader
from graph.verifier.read.reading import Reading
from graph.verifier.read.relation import question_cues
from graph.verifier.read.scope import Scope, scope
from graph.verifier.text.casing import written_as_stated
from graph.verifier.text.kept import kept_property
from graph.verifier.text.normalise import Text, analyse
from graph.verifier.text.wordstems import stems
from graph.verifier.trust.denials import denial_cues, negated
from graph.verifier.verdicts import MATCH_PARAPHRASE, MATCH_VERBATIM, unique

# What joins the parts of an answer; never a thousands separator ("13,000 kg").
_ANSWER_PARTS = re.compile(r"\s*(?:(?<!\d),|,(?!\d{3}(?!\d))|[;/&()]|\band\b)\s*", re.IGNORECASE)
# The most parts an answer is located by, part by part: each is looked for in every stored
# sentence, so a reply of thousands of parts ("Friday, Friday, ...") is checked whole.
_MOST_PARTS = 32


@dataclass(frozen=True, slots=True)
class Found:
    """Where an answer (or one part of it) is stated."""

    ids: tuple[str, ...]
    match: str
    title: str = ""


class Check:
    """One verification: the question, the stored sentences and the answer, analysed."""

    def __init__(
        self, question: str, answer: str, items: list[Item], lexicon: NameLexicon | None = None
    ) -> None:
        self.question = question
        self.q = titled_pair(analyse_question(question), items)
        self.answer = answer
        self.folded = analyse(answer)
        self.items = items
        self.lexicon = lexicon
        self.expected = expected_class(question)
        self.plain = answer.islower()
        answer_stems = stems(self.folded.padded)
        self.wanted = stems(self.q.text.padded) - answer_stems
        self.names = self.q.name_stems - answer_stems
        self.denials = denial_cues(self.q.text)
        self._stating: dict[str, list[Item]] = {}

    @kept_property
    def scope(self) -> Scope:
        """What this check shares with the others on the same evidence and question
        (looked up when first needed: many checks of a new evidence list end before)."""
        return scope(self.question, tuple(self.items), self.wanted, self.names, self.lexicon)

    @property
    def _by_page(self) -> dict[str, list[Item]]:
        return self.scope.by_page

    @property
    def _trusted(self) -> dict[str, list[Item]]:
        return self.scope.trusted

    @property
    def _direct(self) -> dict[str, bool]:
        return self.scope.direct

    def page_items(self, page: str) -> list[Item]:
        """The trusted stored sentences of a page (read only when a check needs them)."""
        if page not in self._trusted:
            self._trusted[page] = [item for item in self._by_page.get(page, ()) if item.trusted]
        return self._trusted[page]

    @kept_property
    def pages(self) -> dict[str, list[Item]]:
        """The trusted stored sentences by page."""
        return {page: self.page_items(page) for page in self._by_page if self.page_items(page)}

    def directly_related(self, page: str) -> bool:
        """The page's trusted sentences and its title (when one of them is trusted) share
        with the question a word of a name it mentions, or two other content words (the
        answer's own words aside): see `shares_enough`."""
        if page not in self._direct:
            sentences = self._by_page.get(page, [])
            self._direct[page] = shares_enough(sentences, self.wanted, self.names)
        return self._direct[page]

    @property
    def linked_pages(self) -> frozenset[str]:
        """Pages linked, step by step, to a directly related page: one names the other's
        title, or both name the same capitalised two-word name."""
        if self.scope.linked is None:
            self.scope.linked = self._linked_pages()
        return self.scope.linked

    def _linked_pages(self) -> frozenset[str]:
        related = {page for page in self.pages if self.directly_related(page)}
        pending = set(self.pages) - related
        while pending and related:
            linked = {
                page
                for page in pending
                if any(pages_linked(self.pages[page], self.pages[other]) for other in related)
            }
            if not linked:
                break
            related |= linked
            pending -= linked
        return frozenset(related)

    def related(self, item: Item) -> bool:
        """The sentence is on a page related to the question; on a namesake of what the
        question names, only if it names that thing itself (see `namesakes`)."""
        page, known = item.page, self.scope.related
        if page not in known:
            known[page] = self.directly_related(page) or page in self.linked_pages
        if not known[page]:
            return False
        namesake = self.namesakes.get(page)
        return namesake is None or describes_as_asked(item.text, item.title_text, namesake)

    @property
    def namesakes(self) -> dict[str, Described]:
        """The stored pages that are namesakes of a work the question names (kept in the
        scope: they depend on the question and the evidence only)."""
        shared = self.scope
        if shared.namesakes is None:
            shared.namesakes = namesake_pages(self.q.text, shared.by_page)
        return shared.namesakes

    @kept_property
    def entities(self) -> tuple[Text, ...]:
        """The compared entities: the question's pair, else its capitalised names."""
        return self.q.pair or named_entities(self.q.words)

    @kept_property
    def _folds(self) -> tuple[tuple[str, ...], str, str]:
        """The list's folds: each sentence's, the sentences' and the titles' (`folded_list`)."""
        return folded_list(tuple(self.items))

    def containing(self, probe: str | None) -> Sequence[Item]:
        """The stored sentences that can state a text whose `probe_of` is `probe`: their
        fold holds it (`holding`, a cheap filter)."""
        return holding(self.items, probe)

    def stating(self, needle: Text) -> list[Item]:
        """The trusted sentences that may state `needle` (cheap filters first)."""
        if needle.padded not in self._stating:
            probe = probe_of(needle)
            self._stating[needle.padded] = [item for item in self.containing(probe) if item.trusted]
        return self._stating[needle.padded]

    def find(self, needle: Text) -> Found | None:
        """A trusted, related sentence that states `needle`, or None (a sentence is
        checked for trust only once it states the needle: most candidates do not)."""
        probe = probe_of(needle)
        candidates = self.containing(probe)
        for item in candidates:
            if (
                contains(item.text, needle)
                and item.trusted
                and not negated(item.text, needle, self.denials)
                and self.related(item)
            ):
                return Found((item.id,), MATCH_VERBATIM)
        for item in candidates:
            if (
                (near(item.text, needle) or (self.plain and contains_singular(item.text, needle)))
                and item.trusted
                and not negated(item.text, needle, self.denials)
                and self.related(item)
            ):
                return Found((item.id,), MATCH_PARAPHRASE)
        if probe is not None and probe not in self._folds[2]:
            return None
        for item in self.items:
            if (
                item.title_may_contain(probe)
                and contains(item.title_text, needle)
                and item.trusted
                and not negated(item.text, needle, self.denials)
                and self.related(item)
            ):
                return Found((item.id,), MATCH_VERBATIM, item.title)
        return None

    def locate(self) -> tuple[Found | None, list[str]]:
        """Where the answer is stated, whole or part by part; else the parts no sentence states."""
        found = self.find(self.folded)
        if found is not None:
            return found, []
        split = _ANSWER_PARTS.split(self.answer, maxsplit=_MOST_PARTS)
        parts = [part for part in split if analyse(part).tokens]
        if (
            len(split) > _MOST_PARTS
            or len(parts) < 2
            or all(contains(self.q.text, analyse(part)) for part in parts)
        ):
            return None, [self.answer.strip()]
        located = [(part, self.find(analyse(part))) for part in dict.fromkeys(parts)]
        missing = [part for part, where in located if where is None]
        if missing:
            return None, missing
        ids = tuple(unique(i for _, where in located if where is not None for i in where.ids))
        return Found(ids, MATCH_PARAPHRASE), []

    def stating_items(self) -> list[Item]:
        """The trusted, related sentences that state the whole answer (not denied; kept:
        several rules read them)."""
        return self._stating_items

    @kept_property
    def _stating_items(self) -> list[Item]:
        needle = self.folded
        return [
            item
            for item in self.containing(probe_of(needle))
            if (contains(item.text, needle) or near(item.text, needle))
            and item.trusted
            and not negated(item.text, needle, self.denials)
            and self.related(item)
        ]

    def classify(self, raw: str, stating: list[Item]) -> Classified:
        """What a span is (see `graph.verifier.kinds.classes`)."""
        return classify(analyse(raw), raw, self.items, stating, self.lexicon)

    @property
    def reader(self) -> Reader:
        """The reader of the trusted related sentences (one per question and evidence)."""
        if self.scope.reader is None:
            self.scope.reader = self._reader()
        return self.scope.reader

    def _reader(self) -> Reader:
        names = question_cues(self.question).all_names
        classes, lexicon = self.expected.classes, self.lexicon
        return Reader(
            [item for item in self.items if item.trusted and self.related(item)],
            question_cues(self.question),
            self.q.text,
            names,
            self.expected.noun,
            lambda tokens: name_fits(tokens, classes, lexicon),
        )

    def read(self) -> Reading:
        """How the evidence ties the answer to the question."""
        stating = self.stating_items()
        written = written_as_stated(self.answer, [item.raw for item in stating])
        return self.reader.read(written, stating, self.classify(written, stating))

    def coverage(self, *, mentions: bool) -> tuple[list[str], list[str]]:
        """Evidence ids about each compared entity, and the entities with none.

        With `mentions`, a related sentence that names the entity also counts.
        """
        ids: list[str] = []
        uncovered: list[str] = []
        for entity in self.entities:
            about = [item.id for item in self.items if is_about(item, entity) and item.trusted]
            if not about and mentions:
                about = [
                    item.id
                    for item in self.stating(entity)
                    if contains_singular(item.text, entity) and self.related(item)
                ]
            ids.extend(about)
            if not about:
                uncovered.append(" ".join(entity.tokens))
        return ids, uncovered
