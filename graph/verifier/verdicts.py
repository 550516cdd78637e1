"""The groundings a verdict reports, and how verdicts and citations are built."""

from __future__ import annotations

from collections.abc import Iterable

from tools.base import Outcome, Verdict

# How far the check went (the verdict's `grounding`).
GROUNDING_COMPUTED = "computed"  # a comparison computed from the stored evidence
GROUNDING_STATED = "stated"  # stated by a stored sentence tied to what the question asks
GROUNDING_JUDGED = "judge-confirmed"  # stated and tied, and a judge model agreed
GROUNDING_UNDECIDED = "undecided"  # a comparison the stored evidence cannot decide
GROUNDING_NONE = "none"

# How a stored sentence states the answer (said in the reason, not the grounding).
MATCH_VERBATIM = "verbatim"
MATCH_PARAPHRASE = "paraphrase"


def unique(ids: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def verdict(
    supported: bool,
    ids: Iterable[str],
    reason: str,
    missing: list[str],
    grounding: str,
    outcome: Outcome | None = None,
) -> Verdict:
    """A verdict; `outcome` defaults to `verified` when supported, else `rejected`."""
    return Verdict(
        supported=supported if outcome is None else outcome == "verified",
        outcome=outcome or ("verified" if supported else "rejected"),
        evidence_ids=unique(ids),
        reason=reason,
        missing=missing,
        grounding=grounding,
    )


def reject(reason: str, missing: list[str]) -> Verdict:
    """A definite failure."""
    return verdict(False, [], reason, missing, GROUNDING_NONE)


def ground(ids: Iterable[str], reason: str, missing: list[str], grounding: str) -> Verdict:
    """Stated by the evidence and contradicted by nothing, but not tied to the question."""
    return verdict(False, ids, reason, missing, grounding, outcome="grounded")


def citation(ids: Iterable[str]) -> str:
    """`sentence e1` or `sentences e1, e2`."""
    distinct = unique(ids)
    return f"sentence{'s' if len(distinct) > 1 else ''} {', '.join(distinct)}"


def demote(rejected: Verdict, ids: Iterable[str]) -> Verdict:
    """A rule's objection to a stated answer, as a grounded verdict citing `ids`."""
    return ground(ids, rejected["reason"], rejected["missing"], GROUNDING_STATED)
