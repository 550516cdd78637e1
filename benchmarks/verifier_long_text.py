"""Time `verify_answer` on ever longer evidence: does a check grow with the text, or faster?

Run with `python benchmarks/verifier_long_text.py [--sizes 5,10,20,40,80] [--plot FILE]`.
A stored sentence can be long (a page's list with no full stop, or text a hostile page
or tool returns), and the agent's questions may be up to 4,000 characters. For each
shape of text and each size in KB it builds one sentence, checks one answer against it
with every cache emptied, and prints the CPU milliseconds and the time per KB as a
ratio to the smallest size (1.0 grows with the text; 16 at 16 times the smallest size
grows with its square). Shapes: one real sentence repeated (the answer stated once per
copy), a salad of that sentence's words, a list of distinct names, and a list of names
that share their first word, a name among them every fourth. Each is checked with a
short question asking a year, a 4,000-character one asking a part of a name, and a
short one asking that repeated name.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graph.evaluation.config import BenchError, check_output_file  # noqa: E402
from graph.settings.validation import MAX_QUESTION_CHARS  # noqa: E402
from graph.verifier import verify_answer  # noqa: E402
from graph.verifier.caches import verifier_caches  # noqa: E402
from tools.base import Evidence  # noqa: E402

SENTENCE = (
    "Daniel Wroughton Craig (born 2 March 1968 in Chester) is an English actor who played"
    " James Bond in Casino Royale (2006)."
)
# (question, answer): a year asked in a few words, a part of a name asked at length.
SHORT_QUESTION = ("When was Daniel Craig born?", "1968")
NAME_QUESTION = ("Who starred with Daniel Craig in Casino Royale?", "Eva Green")
_LOADED_DATA = ("graph.verifier.kinds.lexicon_store", "graph.verifier.score.combiner")
FILLER = ("the actor who", "starred in", "a film with", "Bond and", "born in Chester")


def _repeated(size: int, rng: random.Random) -> str:
    return " ".join([SENTENCE] * (size // (len(SENTENCE) + 1) + 1))[:size]


def _salad(size: int, rng: random.Random) -> str:
    words = SENTENCE.split()
    return " ".join(rng.choice(words) for _ in range(size // 6))


def _names(size: int, rng: random.Random) -> str:
    letters = "bcdfghklmnprstvz"
    names = (
        f"{rng.choice(letters).upper()}{rng.choice('aeiou')}{rng.choice(letters)}"
        f"{rng.choice('aeiou')} {rng.choice(letters).upper()}{rng.choice('aeiou')}"
        f"{rng.choice(letters)}{rng.choice('aeiou')}{rng.choice(letters)}"
        for _ in range(size // 12)
    )
    return SENTENCE + " Its cast: " + ", ".join(names) + "."


def _shared_first_names(size: int, rng: random.Random) -> str:
    letters = "bcdfghklmnprstvz"
    names = (
        "Eva Green"
        if index % 4 == 0
        else f"Eva {rng.choice(letters).upper()}{rng.choice('aeiou')}{rng.choice(letters)}"
        f"{rng.choice('aeiou')}{rng.choice(letters)}{index}"
        for index in range(size // 12)
    )
    return SENTENCE + " Its cast: " + ", ".join(names) + "."


SHAPES: dict[str, Callable[[int, random.Random], str]] = {
    "repeated sentence": _repeated,
    "word salad": _salad,
    "list of names": _names,
    "names sharing a first word": _shared_first_names,
}


def _long_question(rng: random.Random) -> tuple[str, str]:
    words = " ".join(rng.choice(FILLER) for _ in range(MAX_QUESTION_CHARS // 12))
    return f"What is the middle name of {words}"[: MAX_QUESTION_CHARS - 1] + "?", "Wroughton"


def _clear_caches() -> None:
    """Empty every cache of the verifier but the loaded lexicon and combiner."""
    for name, cache in verifier_caches().items():
        if not name.startswith(_LOADED_DATA):
            cache.cache_clear()


def time_check(question: tuple[str, str], text: str) -> float:
    """CPU milliseconds of one check of (question, answer) against `text`, caches emptied
    first."""
    stored = Evidence(
        id="e1",
        text=text,
        tool="Search",
        source={"title": "Daniel Craig", "sentence_index": 0},
        facts={},
        retrieved_at="2026-12-06T00:00:00Z",
    )
    _clear_caches()
    started = time.thread_time()
    verify_answer(*question, [stored])
    return 1000 * (time.thread_time() - started)


def measure(sizes: list[int]) -> list[dict[str, Any]]:
    """One row per shape, question and size: milliseconds and the per-KB ratio."""
    rng = random.Random(0)
    questions = {
        "year, short question": SHORT_QUESTION,
        "name part, 4,000-character question": _long_question(rng),
        "a name stated many times": NAME_QUESTION,
    }
    rows: list[dict[str, Any]] = []
    for question in questions.values():
        time_check(question, SENTENCE)
    for shape, build in SHAPES.items():
        texts = {size: build(size * 1000, random.Random(size)) for size in sizes}
        for asked, question in questions.items():
            first_per_kb = 0.0
            for size in sizes:
                ms = time_check(question, texts[size])
                per_kb = ms / size
                first_per_kb = first_per_kb or per_kb
                rows.append(
                    {
                        "shape": shape,
                        "question": asked,
                        "kb": size,
                        "ms": round(ms, 1),
                        "per_kb_ratio": round(per_kb / first_per_kb, 2),
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
    return rows


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    """Milliseconds against size, one line per shape and question, on log-log axes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    series = sorted({(str(row["shape"]), str(row["question"])) for row in rows})
    for shape, asked in series:
        mine = [row for row in rows if row["shape"] == shape and row["question"] == asked]
        ax.plot([r["kb"] for r in mine], [r["ms"] for r in mine], "o-", label=f"{shape}, {asked}")
    sizes = sorted({row["kb"] for row in rows})
    lowest = min(row["ms"] for row in rows if row["kb"] == sizes[0])
    linear = [lowest * size / sizes[0] for size in sizes]
    ax.plot(sizes, linear, "k--", alpha=0.5, label="in proportion to the length")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xticks(sizes, [str(size) for size in sizes])
    ax.minorticks_off()
    ax.set_xlabel("stored sentence (KB)")
    ax.set_ylabel("one check, caches empty (CPU ms)")
    ax.set_title("verify_answer on long evidence", fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3, which="both")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Measure, print one JSON line per row, and draw the PNG if `--plot` asks for one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="5,10,20,40,80", help="sentence sizes in KB")
    parser.add_argument("--plot", type=Path, default=None, help="write a PNG of the figures")
    args = parser.parse_args(argv)
    try:
        sizes = sorted({int(size) for size in args.sizes.split(",")})
    except ValueError:
        parser.error(f"--sizes: expected whole numbers separated by commas, got {args.sizes!r}")
    if not sizes or sizes[0] < 1:
        parser.error("--sizes: every size must be 1 KB or more")
    if args.plot:
        try:
            check_output_file(args.plot, "--plot", "the plot")
        except BenchError as error:
            parser.error(str(error))
    rows = measure(sizes)
    if args.plot:
        plot(rows, args.plot)
        print(f"plot written to {args.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
