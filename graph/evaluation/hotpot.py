"""HotpotQA questions and answer scoring, as the official evaluation script does it.

`normalize_answer`, `exact_match` and `f1_score` follow `hotpot_evaluate_v1.py`
(lower case, punctuation and the articles a/an/the removed, whitespace folded;
a yes/no/noanswer prediction or gold scores F1 0 unless both are equal).
"""

from __future__ import annotations

import gzip
import json
import re
import string
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

from tools.wikipedia.snapshot import DATA_DIR

QUESTIONS_FILE = DATA_DIR / "hotpotqa_train.jsonl.gz"
MAX_LINE_CHARS = 4 * 2**20
REQUIRED_KEYS = ("_id", "question", "answer", "type", "supporting_facts")

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = str.maketrans("", "", string.punctuation)
_SPECIAL = frozenset({"yes", "no", "noanswer"})


def normalize_answer(text: str) -> str:
    """Lower-case, strip punctuation and articles, fold whitespace."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_PUNCTUATION)).split())


def exact_match(prediction: str, gold: str) -> float:
    """1.0 when the normalised strings are equal, else 0.0."""
    return float(normalize_answer(prediction) == normalize_answer(gold))


def f1_precision_recall(prediction: str, gold: str) -> tuple[float, float, float]:
    """Token-level (F1, precision, recall) of `prediction` against `gold`."""
    pred = normalize_answer(prediction)
    truth = normalize_answer(gold)
    if (pred in _SPECIAL or truth in _SPECIAL) and pred != truth:
        return 0.0, 0.0, 0.0
    pred_tokens = pred.split()
    truth_tokens = truth.split()
    same = sum((Counter(pred_tokens) & Counter(truth_tokens)).values())
    if same == 0:
        return 0.0, 0.0, 0.0
    precision = same / len(pred_tokens)
    recall = same / len(truth_tokens)
    return 2 * precision * recall / (precision + recall), precision, recall


def f1_score(prediction: str, gold: str) -> float:
    """Token-level F1 of `prediction` against `gold`."""
    return f1_precision_recall(prediction, gold)[0]


def load_questions(path: Path | str | None = None) -> list[dict[str, Any]]:
    """Read HotpotQA questions from a JSONL file (gzipped if it ends in `.gz`).

    Each line is one question with at least `_id`, `question`, `answer`,
    `type` and `supporting_facts`; `path` defaults to the built-in sample. A
    file that is not UTF-8 JSON lines, a damaged gzip file, a line over
    `MAX_LINE_CHARS` (read no further, so `/dev/zero` cannot fill the memory),
    a field of the wrong type and an id given twice raise `ValueError` naming
    the file (and the line).
    """
    file = Path(path) if path is not None else QUESTIONS_FILE
    opener = gzip.open if file.suffix == ".gz" else open
    questions: list[dict[str, Any]] = []
    seen: dict[str, int] = {}
    try:
        with opener(file, "rt", encoding="utf-8") as handle:
            lines = iter(lambda: handle.readline(MAX_LINE_CHARS + 1), "")
            for number, line in enumerate(lines, start=1):
                if len(line) > MAX_LINE_CHARS:
                    raise ValueError(
                        f"{file}:{number}: a line longer than {MAX_LINE_CHARS:,} characters"
                        " (is it a HotpotQA JSONL file?)"
                    )
                if line.strip():
                    record = _question(line, f"{file}:{number}")
                    if record["_id"] in seen:
                        raise ValueError(
                            f"{file}:{number}: question id {record['_id']!r} is already"
                            f" on line {seen[record['_id']]}"
                        )
                    seen[record["_id"]] = number
                    questions.append(record)
    except UnicodeDecodeError:
        raise ValueError(f"{file}: not UTF-8 text (is it a HotpotQA JSONL file?)") from None
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise ValueError(f"{file}: a damaged gzip file ({error})") from None
    return questions


def _question(line: str, where: str) -> dict[str, Any]:
    """One JSON line checked as a HotpotQA question; `ValueError` naming `where` if not."""
    try:
        record = json.loads(line)
    except ValueError as error:
        raise ValueError(f"{where}: not JSON ({error})") from None
    if not isinstance(record, dict):
        raise ValueError(f"{where}: a HotpotQA question is a JSON object, not {line.strip()[:40]}")
    missing = [key for key in REQUIRED_KEYS if key not in record]
    if missing:
        raise ValueError(
            f"{where}: a HotpotQA question needs {', '.join(REQUIRED_KEYS)};"
            f" missing {', '.join(missing)}"
        )
    wrong = [key for key in REQUIRED_KEYS[:4] if not isinstance(record[key], str)]
    if not _facts(record["supporting_facts"]):
        wrong.append("supporting_facts")
    if wrong:
        raise ValueError(
            f"{where}: {', '.join(wrong)} of the wrong type (text, and supporting_facts"
            " a list of [title, sentence number] pairs)"
        )
    if not record["question"].strip():
        raise ValueError(f"{where}: the question is empty")
    return record


def _facts(value: object) -> bool:
    """Whether `value` is a list of [title, sentence number] pairs."""
    return isinstance(value, list) and all(
        isinstance(fact, list)
        and len(fact) == 2
        and isinstance(fact[0], str)
        and isinstance(fact[1], int)
        for fact in value
    )
