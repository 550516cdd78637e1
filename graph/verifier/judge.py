"""An optional judge model, asked only after the rules accept: do the cited sentences
state that the answer answers the question?

The reply must be exactly `VERDICT: SUPPORTED` or `VERDICT: NOT SUPPORTED`; anything
else, an error or no reply within the time allowed counts as not verified. Calls are
counted (tokens), so the caller can charge them to its budgets.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from langchain_core.messages import HumanMessage

from graph.prompts import render
from graph.verifier.verdicts import GROUNDING_JUDGED, reject, verdict
from tools.base import Evidence, Verdict
from tools.interrupts import CallTimedOut, call_with_timeout

if TYPE_CHECKING:
    from langchain_core.language_models.chat_models import BaseChatModel

JUDGE_TIMEOUT_S = 30.0
JUDGE_MAX_TOKENS = 16
_REPLY = re.compile(r"\s*VERDICT:\s*(SUPPORTED|NOT SUPPORTED)\s*", re.IGNORECASE)

REASON_CONFIRMED = "{reason} A judge model confirmed that the cited sentences state it."
REASON_DENIED = (
    "The rules accepted {answer!r} ({reason}), but a judge model found that the cited"
    " sentences do not state that it answers the question."
)
REASON_UNREADABLE = (
    "The rules accepted {answer!r}, but the judge model's reply could not be read"
    " ({reply!r}), so it is not verified."
)
REASON_NO_REPLY = "The rules accepted {answer!r}, but the judge model gave no reply: {error}."
REASON_UNAFFORDABLE = "The rules accepted {answer!r}, but the judge could not be asked: {why}."


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the judge said, and what it cost."""

    verdict: Verdict
    input_tokens: int = 0
    output_tokens: int = 0
    called: bool = True


def judge_unaffordable(answer: str, why: str) -> Verdict:
    """Not verified: the budgets leave no call for the judge."""
    return reject(REASON_UNAFFORDABLE.format(answer=answer, why=why), [])


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
    accepted: Verdict,
    evidence: Sequence[Evidence],
    timeout_s: float = JUDGE_TIMEOUT_S,
) -> Judgement:
    """Ask the judge about a verdict the rules accepted; a rejected verdict is returned as
    it is, with no call."""
    if not accepted["supported"]:
        return Judgement(accepted, called=False)
    cited_ids = set(accepted["evidence_ids"])
    cited = [item for item in evidence if item["id"] in cited_ids]
    prompt = judge_prompt(question, answer, cited)
    missing: list[str] = []  # the reason says what the judge did not confirm
    try:  # in a daemon thread: a call that hangs holds neither Ctrl-C nor the exit
        reply = call_with_timeout(lambda: model.invoke([HumanMessage(prompt)]), timeout_s)
    except CallTimedOut:
        error = f"no reply within {timeout_s:g} s"
        return Judgement(reject(REASON_NO_REPLY.format(answer=answer, error=error), missing))
    except Exception as error:  # a provider's errors have no common base class
        reason = REASON_NO_REPLY.format(answer=answer, error=f"{type(error).__name__}: {error}")
        return Judgement(reject(reason, missing))
    usage = getattr(reply, "usage_metadata", None) or {}
    tokens = (int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0)))
    text = str(reply.content)
    said = parse_reply(text)
    if said is None:
        reason = REASON_UNREADABLE.format(answer=answer, reply=text.strip()[:80])
        return Judgement(reject(reason, missing), *tokens)
    if not said:
        reason = REASON_DENIED.format(answer=answer, reason=accepted["reason"].rstrip("."))
        return Judgement(reject(reason, missing), *tokens)
    confirmed = verdict(
        True,
        accepted["evidence_ids"],
        REASON_CONFIRMED.format(reason=accepted["reason"]),
        [],
        GROUNDING_JUDGED,
    )
    return Judgement(confirmed, *tokens)
