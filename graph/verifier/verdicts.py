"""The groundings a verdict reports, and how verdicts and citations are built."""

from __future__ import annotations

from collections.abc import Iterable

from tools.base import Verdict

# How far the check went (the verdict's `grounding`).
GROUNDING_COMPUTED = "computed"  # a comparison computed from the stored evidence
GROUNDING_STATED = "stated"  # stated by a stored sentence tied to what the question asks
GROUNDING_JUDGED = "judge-confirmed"  # stated and tied, and a judge model agreed
GROUNDING_NONE = "none"

# How a stored sentence states the answer (said in the reason, not the grounding).
MATCH_VERBATIM = "verbatim"
MATCH_PARAPHRASE = "paraphrase"


def unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def verdict(
    supported: bool, ids: Iterable[str], reason: str, missing: list[str], grounding: str
) -> Verdict:
    return Verdict(
        supported=supported,
        evidence_ids=unique(ids),
        reason=reason,
        missing=missing,
        grounding=grounding,
    )


def reject(reason: str, missing: list[str]) -> Verdict:
    return verdict(False, [], reason, missing, GROUNDING_NONE)


def citation(ids: Iterable[str]) -> str:
    """`sentence e1` or `sentences e1, e2`."""
    distinct = unique(ids)
    return f"sentence{'s' if len(distinct) > 1 else ''} {', '.join(distinct)}"
