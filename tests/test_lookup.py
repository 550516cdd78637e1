"""Lookup on real snapshot pages: each fault of the seed's substring search, fixed."""

from __future__ import annotations

import random
import re

import pytest

from tools.wikipedia.base import Page, Section
from tools.wikipedia.lookup import (
    BROAD_MIN_SENTENCES,
    broad_keyword_hint,
    find_matches,
    fold,
    format_lookup_result,
    is_stop_word,
)
from tools.wikipedia.sentences import split_sentences
from tools.wikipedia.snapshot import SnapshotSource, shared_snapshot


def seed_matches(sentences: tuple[str, ...] | list[str], keyword: str) -> list[int]:
    """The seed's Lookup: case-insensitive substring matching."""
    return [i for i, s in enumerate(sentences) if keyword.casefold() in s.casefold()]


def seed_split(text: str) -> list[str]:
    """The seed's sentence splitter."""
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s]


@pytest.fixture(scope="module")
def snapshot() -> SnapshotSource:
    return shared_snapshot()


def real_page(snapshot: SnapshotSource, title: str) -> Page:
    page = snapshot.page(title)
    assert page is not None, f"{title!r} is missing from the snapshot"
    return page


def test_short_keyword_inside_a_longer_word_no_longer_matches(snapshot: SnapshotSource) -> None:
    """Seed fault: substring matching. `born` matched "Kilborn", `war` "Awards"."""
    kilborn = real_page(snapshot, "Craig Kilborn")
    assert seed_matches(kilborn.sentences, "born") == [0, 2, 3]
    assert find_matches(kilborn, "born") == [0]
    assert "born August 24, 1962" in kilborn.sentences[0]

    affleck = real_page(snapshot, "Ben Affleck")
    assert seed_matches(affleck.sentences, "war") == [1, 4, 5]
    assert find_matches(affleck, "WAR") == [5]
    assert "war drama" in affleck.sentences[5]


def test_lookup_of_skips_off_and_playoffs_and_asks_for_a_better_keyword(
    snapshot: SnapshotSource,
) -> None:
    """Seed fault: `Lookup[of]` matched any sentence with "off" or "playoffs"."""
    page = real_page(snapshot, "1973 Louisiana Tech Bulldogs football team")
    assert seed_matches(page.sentences, "of") == [0, 2, 4]
    matches = find_matches(page, "of")
    assert matches == [0]
    hint = broad_keyword_hint(page, "of", matches)
    assert hint is not None
    assert hint.startswith("Lookup[of] looks up only common words")


def test_abbreviation_no_longer_cuts_the_sentence_a_lookup_returns(
    snapshot: SnapshotSource,
) -> None:
    """Seed fault: "Warner Bros." ended a sentence, so the lookup lost its subject."""
    page = real_page(snapshot, "20/20 (George Benson album)")
    text = " ".join(page.sentences)

    seed_sentences = seed_split(text)
    seed_hit = seed_sentences[seed_matches(seed_sentences, "record label")[0]]
    assert seed_hit == "record label in 1985."

    resplit = Page(title=page.title, sentences=tuple(split_sentences(text)))
    assert resplit.sentences == page.sentences
    hit = resplit.sentences[find_matches(resplit, "record label")[0]]
    assert hit.startswith("20/20 is a studio album by George Benson")
    assert hit.endswith("Warner Bros. record label in 1985.")


def test_us_abbreviation_keeps_its_sentence_whole(snapshot: SnapshotSource) -> None:
    page = real_page(snapshot, "1984 NBA draft")
    text = " ".join(page.sentences)
    assert "amateur U.S." in seed_split(text)[3][-len("amateur U.S.") :]
    resplit = Page(title=page.title, sentences=tuple(split_sentences(text)))
    hit = resplit.sentences[find_matches(resplit, "college basketball")[0]]
    assert hit.startswith("In this draft, 23 NBA teams took turns selecting amateur U.S.")


CHINESE_NOLAN = (
    "克里斯托弗·诺兰是英国和美国电影导演、编剧及监制。"
    "他于1970年7月30日出生于伦敦威斯敏斯特。"
    "他的作品包括《记忆碎片》、《盗梦空间》和《星际穿越》。"
    "他的电影全球票房超过50亿美元！"
)


def test_chinese_text_is_split_so_lookup_returns_one_sentence() -> None:
    """Seed fault: Chinese text was one "sentence", so Lookup returned it all."""
    assert len(seed_split(CHINESE_NOLAN)) == 1
    page = Page(title="克里斯托弗·诺兰", sentences=tuple(split_sentences(CHINESE_NOLAN, "zh")))
    assert len(page.sentences) == 4
    matches = find_matches(page, "伦敦")
    assert [page.sentences[i] for i in matches] == ["他于1970年7月30日出生于伦敦威斯敏斯特。"]


def test_cjk_keyword_matches_inside_a_longer_japanese_word(snapshot: SnapshotSource) -> None:
    """No word boundaries in Japanese: ゴーオン is found inside ゴーオンジャー."""
    page = real_page(snapshot, "Engine Sentai Go-onger")
    assert "炎神戦隊ゴーオンジャー" in page.sentences[0]
    assert find_matches(page, "ゴーオン") == [0, 5]
    assert find_matches(page, "炎神戦隊") == [0]


def test_latin_keyword_next_to_chinese_characters_is_found() -> None:
    page = Page(
        title="iPhone", sentences=("苹果公司于2007年发布了iPhone手机。", "iPhones sold well.")
    )
    assert find_matches(page, "iphone") == [0]


def test_multiword_keyword_matches_as_a_phrase_with_any_whitespace(
    snapshot: SnapshotSource,
) -> None:
    page = real_page(snapshot, "Ben Affleck")
    assert find_matches(page, "golden  GLOBE") == [1, 4]
    assert find_matches(page, "globe golden") == []
    spread = Page(title="t", sentences=("He won the Golden\nGlobe twice.", "Goldengl obe."))
    assert find_matches(spread, "golden globe") == [0]


def test_unicode_letters_are_word_characters() -> None:
    page = Page(
        title="t", sentences=("Il a visité le café.", "Le caf est fermé.", "ÉCOLE normale.")
    )
    assert find_matches(page, "caf") == [1]
    assert find_matches(page, "école") == [2]


def test_blank_keyword_matches_nothing() -> None:
    page = Page(title="t", sentences=("Anything at all.",))
    assert find_matches(page, "  ") == []


NOLAN_WITH_SECTIONS = Page(
    title="Christopher Nolan",
    sentences=(
        "Christopher Edward Nolan is a British and American filmmaker.",
        "His films have grossed more than US$5 billion worldwide.",
        "Nolan was born in Westminster, London, and grew up in Highgate.",
        "He studied English literature at University College London.",
        "Nolan made his feature debut with Following (1998).",
        "He gained early life-long collaborators at UCL's film society.",
    ),
    sections=(
        Section(heading="Early life", first_sentence=2),
        Section(heading="Career", first_sentence=4),
        Section(heading="References", first_sentence=6),
    ),
)


def test_heading_match_puts_the_sections_first_sentence_first() -> None:
    """`Lookup[early life]` lands on the Early life section, then other matches."""
    assert find_matches(NOLAN_WITH_SECTIONS, "early life") == [2, 5]
    assert find_matches(NOLAN_WITH_SECTIONS, "CAREER") == [4]


def test_heading_of_an_empty_trailing_section_is_skipped() -> None:
    assert find_matches(NOLAN_WITH_SECTIONS, "references") == []


def test_heading_and_sentence_match_is_listed_once() -> None:
    page = Page(
        title="t",
        sentences=("Intro.", "Career highlights follow.", "More career."),
        sections=(Section(heading="Career", first_sentence=1),),
    )
    assert find_matches(page, "career") == [1, 2]


@pytest.mark.parametrize("keyword", ["the", "Of", "of the", "  AND  "])
def test_stop_words_get_a_hint_whatever_the_page(keyword: str) -> None:
    matches = find_matches(NOLAN_WITH_SECTIONS, keyword)
    hint = broad_keyword_hint(NOLAN_WITH_SECTIONS, keyword, matches)
    assert hint is not None
    assert f"Lookup[{keyword.strip()}] looks up only common words" in hint
    assert "Sections of this page: ['Early life', 'Career', 'References']." in hint


def test_stop_word_check_needs_every_word_common() -> None:
    assert is_stop_word("of the")
    assert not is_stop_word("the war")
    assert not is_stop_word("")


def test_keyword_matching_over_a_third_of_a_long_page_gets_a_hint(
    snapshot: SnapshotSource,
) -> None:
    page = real_page(snapshot, "1973 Louisiana Tech Bulldogs football team")
    assert len(page.sentences) == 7
    matches = find_matches(page, "team")
    assert matches == [0, 2, 3, 4]
    assert broad_keyword_hint(page, "team", matches) == (
        'Lookup[team] matches 4 of the 7 sentences of "1973 Louisiana Tech Bulldogs'
        ' football team", too many to point anywhere. Look up a more specific keyword.'
    )
    specific = find_matches(page, "playoffs")
    assert len(specific) <= len(page.sentences) / 3
    assert broad_keyword_hint(page, "playoffs", specific) is None


def test_short_pages_get_no_too_broad_hint(snapshot: SnapshotSource) -> None:
    page = real_page(snapshot, "Craig Kilborn")
    assert len(page.sentences) < BROAD_MIN_SENTENCES
    matches = find_matches(page, "Kilborn")
    assert len(matches) > len(page.sentences) / 3
    assert broad_keyword_hint(page, "Kilborn", matches) is None


def test_result_line_follows_react() -> None:
    """ReAct's wikienv: f"(Result {lookup_cnt + 1} / {len(lookup_list)}) " + sentence."""
    assert format_lookup_result([2, 5], 0, "Nolan was born.") == "(Result 1 / 2) Nolan was born."
    assert format_lookup_result([2, 5], 1, "He studied.") == "(Result 2 / 2) He studied."


@pytest.mark.parametrize("cursor", [-1, 2])
def test_result_line_rejects_a_cursor_outside_the_matches(cursor: int) -> None:
    with pytest.raises(IndexError):
        format_lookup_result([2, 5], cursor, "x")


CJK_RANGES = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f\u3130-\u318f"
    "\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
)


def lookaround_matches(sentences: tuple[str, ...], keyword: str) -> list[int]:
    """Lookup's matching as one regex with the CJK class in lookarounds (before issue 12)."""
    words = fold(keyword).split()
    non_cjk_word = f"[^\\W{CJK_RANGES}]"
    edge = re.compile(f"[{CJK_RANGES}]")

    def boundary(char: str) -> bool:
        return (char.isalnum() or char == "_") and not edge.match(char)

    left = f"(?<!{non_cjk_word})" if boundary(words[0][0]) else ""
    right = f"(?!{non_cjk_word})" if boundary(words[-1][-1]) else ""
    pattern = re.compile(left + r"\s+".join(re.escape(w) for w in words) + right)
    return [i for i, s in enumerate(sentences) if pattern.search(fold(s))]


def test_matching_agrees_with_the_single_regex_it_replaced() -> None:
    rng = random.Random(12)
    alphabet = ["a", "b", "ab", " ", "  ", "_", "é", "1", "-", "伦", "敦", "ゴ", "\n", "A"]

    def text(most: int) -> str:
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, most)))

    keywords = [keyword for keyword in (text(4) for _ in range(120)) if keyword.split()]
    for keyword in keywords:
        sentences = tuple(text(12) for _ in range(40))
        page = Page(title="Random", sentences=sentences)
        assert find_matches(page, keyword) == lookaround_matches(sentences, keyword), keyword
