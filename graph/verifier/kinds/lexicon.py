"""What a name is, from the offline snapshot: a type lexicon for `verify_answer`.

`Lexicon().describe(name)` gives the first sentences of the articles titled
`name` (any parenthesis: `Lolita` gives the 1962 film's, the 1997 film's and
the novel's) and the titles' parentheses ("1962 film"); `guess(name)` says
"... is a person" for a name that opens with a word that opens mostly
people's titles in the snapshot (`Andrew`, `Maria`). Descriptions only ever
say what a name is; the verifier never takes them as evidence for an answer.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from graph.verifier.kinds.descriptions import described_class
from graph.verifier.text.cache_sizes import WORDS
from graph.verifier.text.categories import PERSON

PERSON_NAME = "{name} is a person ({first} is a given name)."
# A first word is a given name when it opens at least this many people's titles,
# and at least `GIVEN_NAME_RATIO` times as many as other titles.
GIVEN_NAME_PAGES = 2
GIVEN_NAME_RATIO = 2
GUESSED_NAME_WORDS = 3

_PARENTHESIS = re.compile(r"\s*\(([^()]*)\)\s*$")
_NON_WORD = re.compile(r"[\W_]+")
_LEADING_ARTICLE = re.compile(r"^(?:the|a|an)\s+")


@lru_cache(maxsize=WORDS)
def name_key(name: str) -> str:
    """A name folded for lookup: parenthesis, case, accents, punctuation, a leading article."""
    text = _PARENTHESIS.sub("", name.replace("&amp;", "&"))
    text = text.casefold()
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text)
        text = "".join(char for char in text if not unicodedata.combining(char))
    return _LEADING_ARTICLE.sub("", " ".join(_NON_WORD.sub(" ", text).split()))


class Lexicon:
    """Descriptions of articles by folded name, and the given names people's titles open with."""

    def __init__(self, pages: Iterable[tuple[str, list[str]]]) -> None:
        self._by_name: dict[str, list[str]] = {}
        people: Counter[str] = Counter()
        others: Counter[str] = Counter()
        for title, sentences in pages:
            key = name_key(title)
            descriptions = self._by_name.setdefault(key, [])
            if sentences:
                descriptions.append(sentences[0].strip())
            match = _PARENTHESIS.search(title)
            if match:
                descriptions.append(match.group(1))
            words = key.split()
            if len(words) > 1 and sentences:
                described = described_class(sentences[0])
                is_person = described is not None and described[0] == {PERSON}
                (people if is_person else others)[words[0]] += 1
        self.given_names = frozenset(
            name
            for name, count in people.items()
            if count >= GIVEN_NAME_PAGES
            and count >= GIVEN_NAME_RATIO * others[name]
            and len(name) > 2
            and name.isalpha()
        )

    def describe(self, name: str) -> list[str]:
        """What the articles titled `name` say it is, or []."""
        return self._by_name.get(name_key(name), [])

    def guess(self, name: str) -> str | None:
        """ "... is a person" for a name of two or three words opening with a given name."""
        return guess_person(name, self.given_names)

    def items(self) -> Iterable[tuple[str, list[str]]]:
        """(folded name, descriptions) for every name."""
        return self._by_name.items()

    def __len__(self) -> int:
        return len(self._by_name)


def guess_person(name: str, given_names: frozenset[str]) -> str | None:
    """ "... is a person" for a name of two or three words opening with a given name."""
    words = name_key(name).split()
    if 1 < len(words) <= GUESSED_NAME_WORDS and words[0] in given_names:
        return PERSON_NAME.format(name=name, first=words[0].title())
    return None
