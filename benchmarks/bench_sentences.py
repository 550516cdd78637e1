"""Measure sentence splitters on the hard-case corpus and on a long article.

Run with `python benchmarks/bench_sentences.py`. For every candidate it prints
the share of corpus cases split exactly right (overall and per category), the
share of snapshot pages whose HotpotQA sentence split it reproduces, and the
milliseconds it needs for one ~100 KB English article, with the ratio to the
seed's regex. Candidates whose package is not installed are reported as such.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.wikipedia.sentences import split_sentences  # noqa: E402
from tools.wikipedia.snapshot import iter_snapshot  # noqa: E402

CORPUS_FILE = ROOT / "tests" / "data" / "sentence_cases.json"
ARTICLE_BYTES = 100_000
SNAPSHOT_PAGES = 400
# Snapshot pages whose text holds a likely abbreviation, initial or decimal.
_HARD_TEXT = re.compile(r"\b(?:[A-Z][a-z]{0,3}|[A-Z](?:\.[A-Z])+)\. [A-Za-z0-9]|\d\.\d")

Splitter = Callable[[str, str], list[str]]


def _clean(pieces: Iterable[object]) -> list[str]:
    return [text for text in (str(piece).strip() for piece in pieces) if text]


def seed_regex(text: str, lang: str) -> list[str]:
    """The seed's splitter: whitespace normalised, split after . ! ?"""
    return _clean(re.split(r"(?<=[.!?])\s+", " ".join(text.split())))


def make_pysbd() -> Splitter:
    import pysbd

    segmenters: dict[str, pysbd.Segmenter] = {}

    def split(text: str, lang: str) -> list[str]:
        code = lang if lang in ("zh", "ja") else "en"
        if code not in segmenters:
            segmenters[code] = pysbd.Segmenter(language=code, clean=False)
        return _clean(segmenters[code].segment(text))

    return split


def make_blingfire() -> Splitter:
    import blingfire

    return lambda text, lang: _clean(blingfire.text_to_sentences(text).split("\n"))


def make_syntok() -> Splitter:
    from syntok import segmenter

    def split(text: str, lang: str) -> list[str]:
        return _clean(
            "".join(token.spacing + token.value for token in sentence)
            for paragraph in segmenter.process(text)
            for sentence in paragraph
        )

    return split


def make_segtok() -> Splitter:
    from segtok.segmenter import split_multi

    return lambda text, lang: _clean(split_multi(text))


def make_sentencex() -> Splitter:
    from sentencex import segment

    return lambda text, lang: _clean(segment(lang if lang in ("zh", "ja") else "en", text))


def make_moses() -> Splitter:
    from sentence_splitter import split_text_into_sentences

    return lambda text, lang: _clean(split_text_into_sentences(text, language="en"))


CANDIDATES: dict[str, tuple[str | None, Callable[[], Splitter]]] = {
    "regex (seed)": (None, lambda: seed_regex),
    "pysbd": ("pysbd", make_pysbd),
    "blingfire": ("blingfire", make_blingfire),
    "syntok": ("syntok", make_syntok),
    "segtok": ("segtok", make_segtok),
    "sentencex": ("sentencex", make_sentencex),
    "sentence-splitter": ("sentence_splitter", make_moses),
    "shipped split_sentences": (None, lambda: split_sentences),
}


def load_corpus() -> list[dict[str, object]]:
    """The hard cases, each with `category`, `lang`, `text` and `sentences`."""
    cases: list[dict[str, object]] = json.loads(CORPUS_FILE.read_text(encoding="utf-8"))
    return cases


def snapshot_sample(limit: int = SNAPSHOT_PAGES) -> list[list[str]]:
    """The first `limit` snapshot pages with hard text, as HotpotQA split them."""
    pages = (
        [s.strip() for s in sentences if s.strip()]
        for _, sentences in iter_snapshot()
        if len(sentences) > 1 and _HARD_TEXT.search("".join(sentences))
    )
    return list(islice(pages, limit))


def long_article(target: int = ARTICLE_BYTES) -> str:
    """About `target` bytes of English prose made of consecutive snapshot pages."""
    parts: list[str] = []
    size = 0
    for _, sentences in iter_snapshot():
        paragraph = " ".join(s.strip() for s in sentences if s.strip())
        parts.append(paragraph)
        size += len(paragraph.encode("utf-8")) + 1
        if size >= target:
            break
    return "\n".join(parts)


def time_ms(split: Splitter, text: str, repeat: int) -> float:
    """Best-of-`repeat` wall time of one split of `text`, in milliseconds."""
    split(text, "en")
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        split(text, "en")
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="timing runs per candidate")
    parser.add_argument("--failures", action="store_true", help="list the cases each one fails")
    args = parser.parse_args()

    cases = load_corpus()
    categories = sorted({str(case["category"]) for case in cases})
    pages = snapshot_sample()
    article = long_article()
    print(
        f"corpus: {len(cases)} cases; snapshot sample: {len(pages)} pages;"
        f" article: {len(article.encode('utf-8')):,} bytes\n"
    )

    rows: list[tuple[str, float, dict[str, float], float, float]] = []
    failures: dict[str, list[str]] = {}
    for name, (module, factory) in CANDIDATES.items():
        if module and importlib.util.find_spec(module) is None:
            print(f"{name}: not installed, skipped")
            continue
        split = factory()
        per_category: dict[str, list[bool]] = defaultdict(list)
        failures[name] = []
        for case in cases:
            ok = split(str(case["text"]), str(case["lang"])) == case["sentences"]
            per_category[str(case["category"])].append(ok)
            if not ok:
                failures[name].append(str(case["id"]))
        total = sum(sum(oks) for oks in per_category.values()) / len(cases)
        shares = {cat: sum(oks) / len(oks) for cat, oks in per_category.items()}
        agree = sum(split(" ".join(page), "en") == page for page in pages) / len(pages)
        rows.append((name, total, shares, agree, time_ms(split, article, args.repeat)))

    baseline_ms = rows[0][4]
    short = {cat: cat[:7] for cat in categories}
    header = (
        f"{'splitter':<24}{'corpus':>7}"
        + "".join(f"{short[c]:>8}" for c in categories)
        + f"{'snapshot':>9}{'ms/art':>9}{'x regex':>9}"
    )
    print(header)
    print("-" * len(header))
    for name, total, shares, agree, ms in rows:
        print(
            f"{name:<24}{total:>7.0%}"
            + "".join(f"{shares[c]:>8.0%}" for c in categories)
            + f"{agree:>9.0%}{ms:>9.1f}{ms / baseline_ms:>9.1f}"
        )
    if args.failures:
        print()
        for name, ids in failures.items():
            print(f"{name} fails: {', '.join(ids) or 'none'}")


if __name__ == "__main__":
    main()
