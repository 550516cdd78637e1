"""The verifier benchmark's cases, built from HotpotQA questions and the offline snapshot.

Easy cases (the benchmark's first three kinds):

- `positive`: the gold answer with the gold supporting sentences;
- `distractor`: the gold answer with only the distractor paragraphs' sentences,
  built only when the answer occurs in none of them (nor in their titles);
- `wrong_answer`: another question's answer of the same type (chosen with a
  fixed seed) with the gold sentences.

Hard cases, on the evidence an episode stores after searching the gold pages
(their first five sentences plus the gold supporting sentences):

- `episode_positive`: the gold answer (its `context_evidence` adds every sentence of
  the question's other context pages, for the bench's invariances);
- `span_swap`: a span of the gold answer's kind (year or date, number, name)
  taken from that very evidence, sharing no word with the gold answer and not
  named in the question (up to `SWAPS_PER_QUESTION`, chosen with a fixed seed);
- `yes_no_swap`: the opposite yes/no of a comparison question;
- `choice_swap`: the other alternative of an either/or comparison question (the
  title of the other gold page), reported on its own: it is not one of the
  two hard-negative kinds the headline figure counts;
- the kinds of `graph.evaluation.hard_cases`: partial and extended names,
  bridge entities and bridge-page spans, negated, injected and absent answers
  (negatives), and rewordings of the gold answer (positives), each question's
  drawn with its own generator (seeded by `SEED` and its id).

`CASE_LABELS` gives each kind's label: True for the gold answer or a rewording
of it, False for a wrong answer.
"""

from __future__ import annotations

import hashlib
import html
import random
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from graph.evaluation.hard_cases import NEGATIVE_KINDS, POSITIVE_KINDS, as_evidence, hard_cases
from graph.evaluation.hotpot import normalize_answer
from graph.evaluation.spans import YES_NO, answer_kind, fold, is_other_answer, spans
from tools.wikipedia.snapshot import SNAPSHOT_FILE, iter_snapshot, normalize_title

SEED = 13
SEARCH_SENTENCES = 5
SWAPS_PER_QUESTION = 2
EASY_KINDS = ("positive", "distractor", "wrong_answer")
HARD_NEGATIVE_KINDS = ("span_swap", "yes_no_swap")
CASE_KINDS = (
    *EASY_KINDS,
    "episode_positive",
    *HARD_NEGATIVE_KINDS,
    "choice_swap",
    *NEGATIVE_KINDS,
    *POSITIVE_KINDS,
)
CASE_LABELS = {
    kind: kind in ("positive", "episode_positive", *POSITIVE_KINDS) for kind in CASE_KINDS
}

_PARENTHETICAL = re.compile(r"\s*\([^)]*\)\s*$")

Pages = dict[str, tuple[str, list[str]]]
Fact = tuple[str, int, str]


def load_pages(titles: Iterable[str], snapshot: Path = SNAPSHOT_FILE) -> Pages:
    """The snapshot pages with these titles, keyed by normalised title."""
    wanted = {normalize_title(title) for title in titles}
    pages: Pages = {}
    for title, sentences in iter_snapshot(snapshot):
        key = normalize_title(title)
        if key in wanted and key not in pages:
            # The title as Search shows it: the data escapes HTML ("Simon &amp; Simon").
            pages[key] = (html.unescape(title), [sentence.strip() for sentence in sentences])
    return pages


def pages_of(questions: Iterable[dict[str, Any]], snapshot: Path = SNAPSHOT_FILE) -> Pages:
    """The snapshot pages the cases of these questions read: their context and gold pages."""
    listed = list(questions)
    titles = {title for q in listed for title in q.get("context_titles", [])}
    titles |= {title for q in listed for title, _ in q["supporting_facts"]}
    return load_pages(titles, snapshot)


def _gold_facts(question: dict[str, Any], pages: Pages) -> list[Fact]:
    facts: list[Fact] = []
    for title, index in question["supporting_facts"]:
        page = pages.get(normalize_title(title))
        if page is not None and 0 <= index < len(page[1]):
            facts.append((page[0], index, page[1][index]))
    return facts


def _episode_facts(question: dict[str, Any], pages: Pages) -> list[Fact]:
    """What an episode stores after searching each gold page and looking up each gold
    sentence: the pages' first sentences, then the gold sentences past them."""
    facts: list[Fact] = []
    for key in dict.fromkeys(normalize_title(t) for t, _ in question["supporting_facts"]):
        if key in pages:
            title, sentences = pages[key]
            facts.extend(
                (title, i, sentences[i]) for i in range(min(SEARCH_SENTENCES, len(sentences)))
            )
    seen = {(title, index) for title, index, _ in facts}
    return facts + [fact for fact in _gold_facts(question, pages) if fact[:2] not in seen]


def _distractor_facts(question: dict[str, Any], pages: Pages) -> list[Fact]:
    gold = {normalize_title(title) for title, _ in question["supporting_facts"]}
    facts: list[Fact] = []
    for title in question.get("context_titles", []):
        key = normalize_title(title)
        if key in gold or key not in pages:
            continue
        page_title, sentences = pages[key]
        facts.extend((page_title, index, text) for index, text in enumerate(sentences))
    return facts


def _occurs(answer: str, texts: Iterable[str]) -> bool:
    """Whether the answer occurs, as whole words, in any of the texts."""
    needle = f" {' '.join(fold(answer))} "
    return needle != "  " and any(needle in f" {' '.join(fold(text))} " for text in texts)


def _wrong_answers(questions: list[dict[str, Any]]) -> dict[str, str]:
    """For each question, another question's answer of the same type (fixed seed)."""
    rng = random.Random(SEED)
    normalised = [normalize_answer(question["answer"]) for question in questions]
    chosen: dict[str, str] = {}
    for question, gold in zip(questions, normalised, strict=True):
        others = [
            other["answer"]
            for other, answer in zip(questions, normalised, strict=True)
            if other["type"] == question["type"] and answer != gold
        ]
        if others:
            chosen[question["_id"]] = rng.choice(others)
    return chosen


def span_swaps(question: dict[str, Any], facts: list[Fact], rng: random.Random) -> list[str]:
    """Wrong answers of the gold answer's kind, taken from the evidence itself."""
    gold = question["answer"]
    kind = answer_kind(gold)
    found: dict[tuple[str, ...], str] = {}
    for _, _, text in facts:
        for span in spans(kind, text, like=gold):
            if is_other_answer(span, gold, question["question"]):
                found.setdefault(fold(span), span)
    candidates = sorted(found.values())
    return rng.sample(candidates, min(SWAPS_PER_QUESTION, len(candidates)))


def fold_of(question_id: str, folds: int) -> int:
    """A question's fold out of `folds`, stable across runs and machines."""
    return int(hashlib.sha1(question_id.encode("utf-8")).hexdigest(), 16) % folds


def choice_swap(question: dict[str, Any]) -> str | None:
    """The other alternative of an either/or comparison: the title of the gold page
    that the gold answer does not name."""
    titles = list(dict.fromkeys(title for title, _ in question["supporting_facts"]))
    if question["type"] != "comparison" or " or " not in question["question"] or len(titles) != 2:
        return None
    names = [_PARENTHETICAL.sub("", title) for title in titles]
    gold = set(fold(question["answer"]))
    shared = [bool(gold & set(fold(name))) for name in names]
    if shared.count(True) != 1:
        return None
    return names[shared.index(False)]


def build_cases(questions: list[dict[str, Any]], pages: Pages) -> Iterator[dict[str, Any]]:
    """Every benchmark case: question, answer, answer kind, evidence and the expected label."""
    wrong = _wrong_answers(questions)
    pool = sorted({question["answer"].strip() for question in questions})
    rng = random.Random(SEED)
    for question in questions:
        gold = _gold_facts(question, pages)
        base = {
            "id": question["_id"],
            "type": question["type"],
            "question": question["question"],
            "answer_kind": answer_kind(question["answer"]),
        }
        if gold:
            yield (
                base
                | {"case": "positive", "answer": question["answer"], "label": True}
                | {"evidence": as_evidence(gold)}
            )
        distractors = _distractor_facts(question, pages)
        texts = [text for _, _, text in distractors] + [title for title, _, _ in distractors]
        if distractors and not _occurs(question["answer"], texts):
            yield base | {
                "case": "distractor",
                "answer": question["answer"],
                "evidence": as_evidence(distractors),
                "label": False,
            }
        if gold and question["_id"] in wrong:
            yield base | {
                "case": "wrong_answer",
                "answer": wrong[question["_id"]],
                "answer_kind": answer_kind(wrong[question["_id"]]),
                "evidence": as_evidence(gold),
                "label": False,
            }
        if not gold:
            continue
        episode = _episode_facts(question, pages)
        evidence = as_evidence(episode)
        yield (
            base
            | {"case": "episode_positive", "answer": question["answer"], "label": True}
            | {"evidence": evidence, "context_evidence": as_evidence(episode + distractors)}
        )
        for swap in span_swaps(question, episode, rng):
            yield base | {"case": "span_swap", "answer": swap, "evidence": evidence, "label": False}
        other = choice_swap(question)
        if other is not None:
            yield base | {
                "case": "choice_swap",
                "answer": other,
                "evidence": evidence,
                "label": False,
            }
        if question["type"] == "comparison" and base["answer_kind"] == YES_NO:
            opposite = "no" if question["answer"].strip().casefold() == "yes" else "yes"
            yield base | {
                "case": "yes_no_swap",
                "answer": opposite,
                "evidence": evidence,
                "label": False,
            }
        own = random.Random(f"{SEED}:{question['_id']}")
        yield from hard_cases(question, base, episode, pool, own)
