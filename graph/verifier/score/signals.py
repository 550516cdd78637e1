"""The signals a stated answer gives about whether it answers the question, each scaled to
about [0, 1]: what the rules measure, taken as evidence for a learned decision rather
than as vetoes (see `graph.verifier.score.combiner`).

Class: whether what the answer is (lexicon, own page, its words, its neighbours) fits
what the question asks for, and how strong the source that says so is (a named thing
offered for a kind of thing is grounded before: `graph.verifier.kinds.kind_asked`); a
year or a number offered for a name. Ties: how
near the question's relation word sits (for a date, its event; for a number, what it
counts or measures), whether the answer is the span of its kind nearest it, the
question's words in its sentence and around it, its own page, the category noun next to
it, a unit next to a measure, and how strongly the nearest rival span of its kind is
tied.
"""

from __future__ import annotations

from graph.verifier.evidence.candidates import NAME, NUMBER, YEAR
from graph.verifier.evidence.matching import contains
from graph.verifier.kinds.asked import asked_in_lead, asked_next_to, lead_of
from graph.verifier.kinds.classes import STRONG_SOURCES
from graph.verifier.kinds.question import named_entities
from graph.verifier.read.check import Check, Found
from graph.verifier.read.reading import Reading
from graph.verifier.read.relation import FAR, token_stems
from graph.verifier.read.relation import reading as reading_of
from graph.verifier.read.ties import RIVAL_DISTANCE, SLOT_DISTANCE, year_asked
from graph.verifier.text.categories import DEMONYMS
from graph.verifier.text.normalise import analyse, split_words
from graph.verifier.verdicts import MATCH_PARAPHRASE

CAP = 8.0
NEAR = 2

SIGNALS = (
    "kind_year",
    "kind_number",
    "kind_name",
    "asks_class",
    "class_fits",
    "class_mismatch_strong",
    "class_mismatch_weak",
    "class_unknown",
    "year_for_name",
    "number_for_name",
    "numbered",
    "slot",
    "relation_nearness",
    "relation_within_2",
    "relation_within_6",
    "no_relation_word",
    "slot_within_6",
    "rival_nearness",
    "nearer_than_rivals",
    "rival_far",
    "sentence_cues",
    "near_cues",
    "cue_share",
    "own_page",
    "own_page_cues",
    "category_noun_next",
    "no_category_noun",
    "names_question",
    "rival_cues",
    "cue_margin",
    "placements",
    "in_first_sentence",
    "event_asked",
    "event_unsaid",
    "count_asked",
    "count_unsaid",
    "unit_missing",
    "described",
    "paraphrase",
    "title_match",
    "lexicon_known",
    "single_word",
    "demonym",
    "named_pages_only",
    "named_pages_both",
    "own_page_stored",
    "asked_in_lead",
    "asked_not_in_lead",
    "asked_next_to",
    "lead_cues",
    "named_beside",
    "same_preposition",
)
# How far from the answer a name the question gives counts as beside it, in words.
BESIDE = 4
# A preposition before the question's asking word that the answer's sentence may put
# before the answer ("written by who?": "a book series by Mélanie Watt").
_PREPOSITIONS = frozenset(split_words("by in of for with from to at on as"))
_ASKING = frozenset(split_words("who whom whose which what where when"))


def _nearness(distance: int) -> float:
    return 1.0 / distance if distance < FAR else 0.0


def _class_signals(check: Check, reading: Reading) -> tuple[bool, ...]:
    expected = check.expected
    asks = bool(expected.classes)
    kind = reading.kind
    fits = reading.classified.fits(expected) if kind == NAME else None
    classes = reading.classified.classes
    strong = {name for name, (source, _) in classes.items() if source in STRONG_SOURCES}
    return (
        asks,
        fits is True,
        fits is False and bool(strong),
        fits is False and not strong,
        asks and kind == NAME and fits is None,
        asks and kind == YEAR and not year_asked(check, reading),
        asks and kind == NUMBER and not reading.numbered,
        kind == NUMBER and reading.numbered,
    )


def _named_pages(check: Check) -> tuple[int, int]:
    """How many pages have a sentence stating the answer, and how many of them the
    question names."""
    pages = {item.title: item.title_text for item in check.stating_items()}
    named = sum(1 for title_text in pages.values() if contains(check.q.text, title_text))
    return len(pages), named


def _named_pages_only(stating: int, named: int) -> bool:
    """Every sentence stating the answer is on a page the question names: the page it
    starts from (a bridge), not the answer's own."""
    return stating > 0 and named == stating


def _named_pages_both(named: int) -> bool:
    """Sentences on two or more pages the question names state the answer: what two named
    things have in common ("What city do the Bundestag station and the Reichstag building
    have in common?"; a name: two pages' years or numbers are seldom one shared value)."""
    return named > 1


def _own_page_stored(check: Check) -> bool:
    """A stored page is about the answer: its title (without a parenthesis) is the answer."""
    folded = check.folded.tokens
    return any(item.title_text.tokens == folded for item in check.items)


def _lead_cues(check: Check) -> int:
    """How many of the question's cue stems the lead of the answer's own article states (a
    bridge's lead often says what the question describes it by)."""
    lead = lead_of(check.lexicon, check.answer)
    return len(check.wanted.intersection(token_stems(lead))) if lead else 0


def _named_beside(check: Check, words: tuple[str, ...], span: tuple[int, int]) -> bool:
    """A name the question gives (not the answer's words) ends within `BESIDE` words
    before the answer in its sentence, or starts within them after it: what the question
    ties it to ("Phileas Fogg in "Around the World in 80 Days"")."""
    start, end = span
    own = set(check.folded.tokens)
    for name in named_entities(check.q.words):
        needle = name.tokens
        if not needle or not own.isdisjoint(needle):
            continue
        size = len(needle)
        ending_before = range(max(0, start - BESIDE - size), max(0, start - size + 1))
        starting_after = range(end, min(end + BESIDE, len(words) - size) + 1)
        if any(words[at : at + size] == needle for at in (*ending_before, *starting_after)):
            return True
    return False


def _same_preposition(check: Check, words: tuple[str, ...], span: tuple[int, int]) -> bool:
    """The word before the answer in its sentence is the preposition before the question's
    first asking word ("written by who?": "by Mélanie Watt")."""
    asked = check.q.text.tokens
    for index, word in enumerate(asked):
        if word in _ASKING:
            before = asked[index - 1] if index else ""
            return before in _PREPOSITIONS and span[0] > 0 and words[span[0] - 1] == before
    return False


def signals(check: Check, found: Found, reading: Reading) -> list[float]:
    """The signals of one stated answer of a kind (a year, a number, a name), in
    `SIGNALS` order."""
    kind = reading.kind
    near, rival = reading.relation_distance, reading.rival_distance
    best = reading.best
    cues, near_cues = (len(best.sentence_cues), len(best.near_cues)) if best else (0, 0)
    subject, rival_cues, head = reading.subject_cues, reading.rival_cues, reading.head_adjacent
    slot = reading.slot
    events = kind == YEAR and bool(reading.cues.dates)
    counts = kind == NUMBER and bool(reading.cues.measures)
    nearest = min(reading.placements, key=lambda p: p.relation_distance, default=None)
    asked = asked_in_lead(check.question, check.answer, check.lexicon)
    stating_pages, named_pages = _named_pages(check)
    words = analyse(reading_of(best.item.raw)).tokens if best else ()
    values = (
        kind == YEAR,
        kind == NUMBER,
        kind == NAME,
        *_class_signals(check, reading),
        slot,
        _nearness(near),
        near <= NEAR,
        near <= SLOT_DISTANCE,
        near >= FAR,
        slot and near <= SLOT_DISTANCE,
        _nearness(rival),
        near < rival,
        rival > RIVAL_DISTANCE,
        min(cues, CAP) / CAP,
        min(near_cues, CAP) / CAP,
        cues / max(1, reading.cue_count),
        subject >= 0,
        min(max(subject, 0), CAP) / CAP,
        head is True,
        head is None,
        reading.names_question,
        min(rival_cues, CAP) / CAP,
        (cues - rival_cues) / CAP,
        min(len(reading.placements), 4) / 4,
        bool(best and best.item.position == 0),
        events,
        events and near >= FAR,
        counts,
        counts and near >= FAR,
        kind == NUMBER and not reading.has_unit,
        bool(nearest and nearest.described and slot),
        found.match == MATCH_PARAPHRASE,
        bool(found.title),
        bool(check.lexicon and check.lexicon.describe(" ".join(reading.answer.tokens))),
        len(reading.answer.tokens) == 1,
        all(token in DEMONYMS for token in reading.answer.tokens),
        _named_pages_only(stating_pages, named_pages),
        kind == NAME and _named_pages_both(named_pages),
        _own_page_stored(check),
        asked is True,
        asked is False,
        bool(best and asked_next_to(check.question, words, best.span)),
        min(_lead_cues(check), CAP) / CAP,
        bool(best and _named_beside(check, words, best.span)),
        bool(best and _same_preposition(check, words, best.span)),
    )
    return list(map(float, values))
