"""The judge model, asked about an answer the evidence states: does a cited sentence
state that the answer answers the question?

Only a `grounded` verdict or one `verified` by statement (grounding `stated`) is
asked; computed and rejected verdicts never are. The reply must be exactly
`VERDICT: SUPPORTED` (the answer becomes `verified`, grounding `judge-confirmed`) or
`VERDICT: NOT SUPPORTED` (it becomes `grounded`, with the judge's reason, never
rejected). Anything else, an error or no reply within the time allowed leaves the
verdict as it was, with a note saying why. Calls are counted (tokens), so the caller
can charge them to its budgets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from langchain_core.messages import HumanMessage

from graph.prompts import render
from graph.verifier.verdicts import GROUNDING_JUDGED, GROUNDING_STATED, ground, verdict
from tools.base import Evidence, Verdict, verdict_outcome
from tools.interrupts import CallTimedOut, call_with_timeout

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

JUDGE_TIMEOUT_S = 30.0
JUDGE_MAX_TOKENS = 16
_REPLY = re.compile(r"\s*VERDICT:\s*(SUPPORTED|NOT SUPPORTED)\s*", re.IGNORECASE)

REASON_CONFIRMED = "{reason} A judge model confirmed that the cited sentences state it."
REASON_DENIED = (
    "The evidence states {answer!r} ({reason}), but a judge model found that the cited"
    " sentences do not state that it answers the question."
)
NOTE_UNREADABLE = "the judge model's reply could not be read ({reply!r}); the verdict stands"
NOTE_NO_REPLY = "the judge model gave no reply ({error}); the verdict stands"
NOTE_UNAFFORDABLE = "the judge could not be asked ({why}); the verdict stands"


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the judge said, what it cost, and (`note`) why it left the verdict as it was."""

    verdict: Verdict
    input_tokens: int = 0
    output_tokens: int = 0
    called: bool = True
    note: str = ""


def asks_judge(checked: Verdict) -> bool:
    """Whether the judge is asked about this verdict: grounded, or verified by statement."""
    outcome = verdict_outcome(checked)
    return outcome == "grounded" or (
        outcome == "verified" and checked.get("grounding") == GROUNDING_STATED
    )


def judge_unaffordable(checked: Verdict, why: str) -> Judgement:
    """The budgets leave no call for the judge: the verdict stands."""
    return Judgement(checked, called=False, note=NOTE_UNAFFORDABLE.format(why=why))


def judge_prompt(question: str, answer: str, cited: Sequence[Evidence]) -> str:
    sentences = "\n".join(
        f"[{item['id']}] ({(item.get('source') or {}).get('title', '')}) {item['text']}"
        for item in cited
    )
    return render("judge.txt", question=question, answer=answer, sentences=sentences)


def parse_reply(text: str) -> bool | None:
    """True (supported), False (not supported) or None (anything else)."""
    match = _REPLY.fullmatch(text.strip())
    return None if match is None else match.group(1).upper() == "SUPPORTED"


def judge(
    model: BaseChatModel,
    question: str,
    answer: str,
    checked: Verdict,
    evidence: Sequence[Evidence],
    timeout_s: float = JUDGE_TIMEOUT_S,
) -> Judgement:
    """Ask the judge about a grounded or stated verdict (`asks_judge`); any other is
    returned as it is, with no call."""
    if not asks_judge(checked):
        return Judgement(checked, called=False)
    cited_ids = set(checked["evidence_ids"])
    cited = [item for item in evidence if item["id"] in cited_ids]
    prompt = judge_prompt(question, answer, cited)
    try:  # in a daemon thread: a call that hangs holds neither Ctrl-C nor the exit
        reply = call_with_timeout(lambda: model.invoke([HumanMessage(prompt)]), timeout_s)
    except CallTimedOut:
        error = f"no reply within {timeout_s:g} s"
        return Judgement(checked, note=NOTE_NO_REPLY.format(error=error))
    except Exception as error:  # a provider's errors have no common base class
        return Judgement(
            checked, note=NOTE_NO_REPLY.format(error=f"{type(error).__name__}: {error}")
        )
    usage = getattr(reply, "usage_metadata", None) or {}
    tokens = (int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
    text = str(reply.content)
    said = parse_reply(text)
    if said is None:
        note = NOTE_UNREADABLE.format(reply=text.strip()[:80])
        return Judgement(checked, *tokens, note=note)
    ids = checked["evidence_ids"]
    if not said:
        reason = REASON_DENIED.format(answer=answer, reason=checked["reason"].rstrip("."))
        return Judgement(ground(ids, reason, [], checked["grounding"]), *tokens)
    confirmed = verdict(
        True, ids, REASON_CONFIRMED.format(reason=checked["reason"]), [], GROUNDING_JUDGED
    )
    return Judgement(confirmed, *tokens)
