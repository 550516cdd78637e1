"""Which stored sentences a comparison reads for each compared entity, and how far they
are tied to it: by their page's title, or only by the names they mention (a tool's
lines carry no title)."""

from __future__ import annotations

from graph.verifier.evidence.matching import Item, is_about
from graph.verifier.read.check import Check
from graph.verifier.read.relation import cue_stem
from graph.verifier.text.normalise import Text
from graph.verifier.verdicts import unique


def entity_name(entity: Text) -> str:
    return " ".join(entity.tokens)


def facts_of(check: Check) -> tuple[list[list[Item]], list[str]]:
    """The trusted sentences about each of the two compared entities, and the names of
    those with none."""
    facts = [
        [item for item in check.items if is_about(item, entity) and item.trusted]
        for entity in check.entities[:2]
    ]
    missing = [
        entity_name(entity)
        for entity, items in zip(check.entities[:2], facts, strict=True)
        if not items
    ]
    return facts, missing


def entity_stems(check: Check, facts: list[list[Item]]) -> frozenset[str]:
    """The compared entities' words, as their pages' titles write them; for an entity
    whose sentences carry no page title (a tool's lines), as the question names it: a
    compared thing's own name is never what is asked of both."""
    words: list[str] = []
    for entity, items in zip(check.entities[:2], facts, strict=True):
        titled = [token for item in items for token in item.title_text.tokens]
        words.extend(titled or entity.tokens)
    return frozenset(map(cue_stem, words))


def untitled_ids(facts: list[list[Item]], ids: tuple[str, ...]) -> list[str]:
    """The cited sentences without a page title: read for an entity only because they
    name it (`is_about`), so a sentence about another thing that names it, or one about
    it that names it not, may be misread."""
    cited = set(ids)
    return unique(
        item.id
        for items in facts
        for item in items
        if item.id in cited and not item.title_text.tokens
    )
