"""How `act` hands a tool's outcome to `observe` through the state, storing no text twice.

A `Search` observation quotes the sentences it stores as evidence, and a
`Lookup` observation quotes its one sentence: in the `outcome` channel an
evidence sentence that the observation quotes is kept as its span there.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, cast

from tools.base import EvidenceDraft, ToolOutcome

SPAN = "span"


def stored_outcome(outcome: ToolOutcome) -> dict[str, Any]:
    """The outcome as plain data for the `outcome` channel."""
    stored = {item.name: getattr(outcome, item.name) for item in fields(outcome)}
    evidence = []
    for draft in outcome.evidence:
        text = draft["text"]
        at = outcome.observation.find(text) if text else -1
        if at < 0:
            evidence.append(dict(draft))
            continue
        quoted = {key: value for key, value in draft.items() if key != "text"}
        evidence.append(quoted | {SPAN: [at, at + len(text)]})
    return stored | {"evidence": evidence, "env_update": dict(outcome.env_update)}


def outcome_evidence(stored: dict[str, Any]) -> list[EvidenceDraft]:
    """The evidence drafts of a stored outcome, with their texts."""
    observation = str(stored.get("observation", ""))
    drafts = []
    for item in stored.get("evidence") or []:
        if SPAN not in item:
            drafts.append(cast(EvidenceDraft, dict(item)))
            continue
        start, end = item[SPAN]
        rest = {key: value for key, value in item.items() if key != SPAN}
        drafts.append(cast(EvidenceDraft, rest | {"text": observation[start:end]}))
    return drafts
