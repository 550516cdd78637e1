"""The grounding kinds a verdict reports, and how verdicts and citations are built."""

from __future__ import annotations

from collections.abc import Iterable

from tools.base import Verdict

GROUNDING_CONTAINED = "contained"
GROUNDING_PARAPHRASE = "paraphrase"
GROUNDING_COMPARISON = "comparison-grounded"
GROUNDING_COMPUTED = "computed"
GROUNDING_NONE = "none"


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
