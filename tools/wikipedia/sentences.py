"""Sentence splitting for Wikipedia text (English and CJK).

Provisional choice, to be confirmed by `benchmarks/bench_sentences.py`:
blingfire, applied per line, with closing CJK quotes glued back on.
"""

from __future__ import annotations

import re

import blingfire

_LINE_BREAKS = re.compile(r"\s*\n\s*")
_LEADING_CLOSERS = re.compile(r"^([”’」』）)\]]+)(.*)$", re.DOTALL)


def split_sentences(text: str, lang: str = "en") -> list[str]:
    """Split `text` into stripped, non-empty sentences in their original order.

    Line breaks always end a sentence (Wikipedia extracts put paragraphs and
    headings on their own lines). `lang` is accepted for sources of other
    Wikipedias; the splitter handles English and CJK punctuation alike.
    """
    sentences: list[str] = []
    for line in _LINE_BREAKS.split(text):
        if not line.strip():
            continue
        line_start = len(sentences)
        for piece in blingfire.text_to_sentences(line).split("\n"):
            piece = piece.strip()
            if not piece:
                continue
            closers = _LEADING_CLOSERS.match(piece)
            if closers and len(sentences) > line_start:
                sentences[-1] += closers.group(1)
                piece = closers.group(2).strip()
                if not piece:
                    continue
            sentences.append(piece)
    return sentences
