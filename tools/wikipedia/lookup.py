"""`Lookup[keyword]` on an open page: matching, hints and the result text.

Matching is case-insensitive (Unicode case folding) and on word boundaries,
so `Lookup[of]` no longer matches "often" and `Lookup[born]` no longer
matches "Kilborn"; a multiword keyword matches as a phrase with any
whitespace between its words. Chinese, Japanese and Korean have no spaces
between words (and Korean attaches particles to nouns), so at an edge of the
keyword that is a CJK character no boundary is required: a CJK keyword is a
plain substring match. Section headings are searchable: a heading that
matches puts its section's first sentence before the sentence matches.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from tools.wikipedia.base import Page

RESULT_TEMPLATE = "(Result {number} / {total}) {sentence}"
STOP_WORD_HINT = (
    "Lookup[{keyword}] looks up only common words, which say nothing about what to find."
    " Look up a more specific keyword: a name, a date, a place or a term from the"
    " question.{sections}"
)
TOO_BROAD_HINT = (
    'Lookup[{keyword}] matches {count} of the {total} sentences of "{title}",'
    " too many to point anywhere. Look up a more specific keyword.{sections}"
)
SECTIONS_SUFFIX = " Sections of this page: {headings}."
SECTIONS_IN_HINT = 12
BROAD_SHARE = 1 / 3
BROAD_MIN_SENTENCES = 6

# English stop words, close to NLTK's list; kept as one string so it is easy to edit.
_STOP_WORDS_TEXT = """
    a about above after again against all am an and any are as at be because been
    before being below between both but by can could did do does doing down during
    each few for from further had has have having he her here hers herself him
    himself his how i if in into is it its itself just me more most my myself no nor
    not now of off on once only or other our ours ourselves out over own same she
    should so some such than that the their theirs them themselves then there these
    they this those through to too under until up very was we were what when where
    which while who whom why will with would you your yours yourself yourselves
"""
STOP_WORDS = frozenset(_STOP_WORDS_TEXT.split())

_CJK_RANGES = (
    "\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3040-\u30ff\u3100-\u312f\u3130-\u318f"
    "\u31a0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f"
)
_CJK_CHAR = re.compile(f"[{_CJK_RANGES}]")
# A word character that is not CJK: the neighbour a word boundary forbids. Compiled
# once; keyword patterns stay small and the boundaries are checked with this.
_NON_CJK_WORD = re.compile(f"[^\\W{_CJK_RANGES}]")


def fold(text: str) -> str:
    """Normalise `text` for case-insensitive matching (NFKC, case folding)."""
    return unicodedata.normalize("NFKC", text).casefold()


def _needs_boundary(char: str) -> bool:
    return (char.isalnum() or char == "_") and not _CJK_CHAR.match(char)


@dataclass(frozen=True)
class KeywordPattern:
    """A keyword as a phrase regex plus the word boundaries its edges need."""

    phrase: re.Pattern[str]
    left_boundary: bool
    right_boundary: bool

    def search(self, text: str) -> bool:
        """Whether the keyword occurs in `text` (folded) with the boundaries it needs."""
        found = self.phrase.search(text)
        while found is not None:
            start, end = found.span()
            left_ok = not (self.left_boundary and start and _NON_CJK_WORD.match(text, start - 1))
            right_ok = not (self.right_boundary and _NON_CJK_WORD.match(text, end))
            if left_ok and right_ok:
                return True
            found = self.phrase.search(text, start + 1)
        return False


def keyword_pattern(keyword: str) -> KeywordPattern | None:
    """How to find `keyword` in folded text, or None for a blank keyword."""
    words = fold(keyword).split()
    if not words:
        return None
    phrase = re.compile(r"\s+".join(re.escape(word) for word in words))
    return KeywordPattern(phrase, _needs_boundary(words[0][0]), _needs_boundary(words[-1][-1]))


@lru_cache(maxsize=64)
def _folded(page: Page) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The page's sentences and section headings, folded (once per page)."""
    return (
        tuple(fold(sentence) for sentence in page.sentences),
        tuple(fold(section.heading) for section in page.sections),
    )


def find_matches(page: Page, keyword: str) -> list[int]:
    """Indexes of the page's sentences that match `keyword`, best first.

    First the first sentence of every section whose heading matches (in page
    order), then every sentence that matches, in page order, without repeats.
    A blank keyword matches nothing.
    """
    pattern = keyword_pattern(keyword)
    if pattern is None:
        return []
    sentences, headings = _folded(page)
    total = len(sentences)
    matches = [
        section.first_sentence
        for section, heading in zip(page.sections, headings, strict=True)
        if section.first_sentence < total and pattern.search(heading)
    ]
    seen = set(matches)
    matches = list(dict.fromkeys(matches))
    matches.extend(
        index
        for index, sentence in enumerate(sentences)
        if index not in seen and pattern.search(sentence)
    )
    return matches


def is_stop_word(keyword: str) -> bool:
    """True when every word of `keyword` is an English stop word."""
    words = re.findall(r"\w+", fold(keyword))
    return bool(words) and all(word in STOP_WORDS for word in words)


def _sections_suffix(page: Page) -> str:
    if not page.sections:
        return ""
    headings = [section.heading for section in page.sections[:SECTIONS_IN_HINT]]
    return SECTIONS_SUFFIX.format(headings=headings)


def broad_keyword_hint(page: Page, keyword: str, matches: Sequence[int]) -> str | None:
    """An observation asking for a more specific keyword, or None if this one is fine.

    The keyword is too broad when it is a stop word, or when it matches more
    than a third of the sentences of a page with at least six. The hint lists
    the page's section headings when it has any, as keywords to try.
    """
    total = len(page.sentences)
    fields = {
        "keyword": keyword.strip(),
        "count": len(matches),
        "total": total,
        "title": page.title,
        "sections": _sections_suffix(page),
    }
    if is_stop_word(keyword):
        return STOP_WORD_HINT.format(**fields)
    if total >= BROAD_MIN_SENTENCES and len(matches) > total * BROAD_SHARE:
        return TOO_BROAD_HINT.format(**fields)
    return None


def format_lookup_result(matches: Sequence[int], cursor: int, sentence: str) -> str:
    """ReAct's result line: `(Result i / N) sentence` for the 0-based `cursor`."""
    if not 0 <= cursor < len(matches):
        raise IndexError(f"cursor {cursor} is outside the {len(matches)} matches")
    return RESULT_TEMPLATE.format(number=cursor + 1, total=len(matches), sentence=sentence)
