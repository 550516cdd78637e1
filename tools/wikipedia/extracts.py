"""Reading the Action API's page answers: an `explaintext` extract with `== wiki ==`
headings into sentences and sections, and a disambiguation page's links into the
options it offers, in the page's order.
"""

from __future__ import annotations

import re

from tools.wikipedia.base import Section
from tools.wikipedia.sentences import split_sentences

_HEADING = re.compile(r"^(={2,6})\s*(.*?)\s*\1$")


def parse_extract(text: str, lang: str) -> tuple[tuple[str, ...], tuple[Section, ...]]:
    """Sentences and sections of an `explaintext` extract with `== wiki ==` headings.

    A section points at its first sentence; one without any sentence before the
    next heading of its level or above (an emptied "References") is left out.
    """
    sentences: list[str] = []
    headings: list[tuple[int, str, int]] = []
    block: list[str] = []
    for line in text.splitlines():
        heading = _HEADING.match(line.strip())
        if heading is None:
            block.append(line)
            continue
        sentences.extend(split_sentences("\n".join(block), lang))
        block.clear()
        headings.append((len(heading.group(1)), heading.group(2), len(sentences)))
    sentences.extend(split_sentences("\n".join(block), lang))
    sections = []
    for position, (level, name, first) in enumerate(headings):
        end = next(
            (start for lvl, _, start in headings[position + 1 :] if lvl <= level), len(sentences)
        )
        if name and first < end:
            sections.append(Section(heading=name, first_sentence=first))
    return tuple(sentences), tuple(sections)


def disambiguation_options(title: str, links: list[str], extract: str) -> tuple[str, ...]:
    """The titles a disambiguation page offers, in the page's order.

    An option is a linked title that starts a line of the page's text (the
    shape of a disambiguation entry: "Mercury (planet), the ..."); links only
    inside descriptions are left out. Without any such line, every link counts.
    """
    candidates = sorted({link for link in links if link != title}, key=len, reverse=True)
    options: list[str] = []
    for line in extract.splitlines():
        text = line.strip().casefold()
        for link in candidates:
            folded = link.casefold()
            rest = text[len(folded) : len(folded) + 1]
            if text.startswith(folded) and not rest.isalnum():
                if link not in options:
                    options.append(link)
                break
    if options:
        return tuple(options)
    return tuple(dict.fromkeys(link for link in links if link != title))
