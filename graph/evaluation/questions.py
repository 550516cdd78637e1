"""Which HotpotQA questions a comparison evaluates, and the prompts they must not be in.

A question used as a few-shot example in any prompt is never evaluated: it is
left out by id (`qa_example_ids.txt`) and by its folded text (every
`Question:` line of the prompt files), so a copy under another id is caught too.
"""

from __future__ import annotations

import hashlib
import random
import re
from importlib import resources
from pathlib import Path
from typing import Any

from graph.agent import ENVIRONMENTS
from graph.evaluation.config import BenchError
from graph.evaluation.hotpot import load_questions

EXAMPLE_IDS_FILE = "qa_example_ids.txt"
_QUESTION_LINE = re.compile(r"^Question:\s*(?P<q>.+?)\s*$", re.MULTILINE)


def prompt_files() -> list[str]:
    """Every prompt file the methods may use: all but other environments' own."""
    others = tuple(f"{name}_" for name in ENVIRONMENTS if name != "wikipedia")
    folder = resources.files("graph.prompts")
    return sorted(
        item.name
        for item in folder.iterdir()
        if item.name.endswith(".txt") and not item.name.startswith(others)
    )


def _prompt_text(name: str) -> str:
    return resources.files("graph.prompts").joinpath(name).read_text(encoding="utf-8")


def prompts_fingerprint() -> str:
    """A hash of all prompt files, so a run records the exact prompts it used."""
    digest = hashlib.sha256()
    for name in prompt_files():
        digest.update(name.encode() + b"\0" + _prompt_text(name).encode() + b"\0")
    return digest.hexdigest()[:16]


def _fold(question: str) -> str:
    return " ".join(question.split()).casefold()


def prompt_questions() -> tuple[set[str], set[str]]:
    """The (ids, folded texts) of every question that appears in a prompt's examples."""
    ids = {line.strip() for line in _prompt_text(EXAMPLE_IDS_FILE).splitlines() if line.strip()}
    texts = {
        _fold(match.group("q"))
        for name in prompt_files()
        for match in _QUESTION_LINE.finditer(_prompt_text(name))
        if "$" not in match.group("q")
    }
    return ids, texts


def select_questions(
    path: Path | None, n: int | None, sample_seed: int
) -> tuple[list[dict[str, Any]], int]:
    """The evaluated questions and how many were left out for being prompt examples.

    The pool is shuffled with `sample_seed` and its first `n` taken, so a
    larger `n` extends a smaller one.
    """
    try:
        pool = load_questions(path)
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot read the questions: {error}") from None
    ids, texts = prompt_questions()
    eligible = [q for q in pool if q["_id"] not in ids and _fold(q["question"]) not in texts]
    random.Random(sample_seed).shuffle(eligible)
    return (eligible if n is None else eligible[:n]), len(pool) - len(eligible)
