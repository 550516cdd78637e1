"""`react-agent bench verifier --simulate`: does the verifier help answers, end to end?

Scripted policies run through the real graph (`graph.agent.build_agent`, the
offline snapshot, the agent's own verifier). A policy searches the gold pages,
then finishes with the gold answer with probability `p` and otherwise with a
hard negative drawn from the benchmark's case kinds that need no made-up
evidence (span swaps, swapped yes/no and either/or, partial and extended names,
bridge entities and bridge-page spans, absent answers), or from some of them only
(`kinds`: a wrong-span policy draws span swaps alone). Whenever the graph
sends its answer back (a rejection, or a grounded answer pushed back once) it
keeps the answer with probability `keep`; otherwise it switches to the gold
answer with probability `p_switch` and to another hard negative (the gold answer
when none is left) otherwise. Draws are common random numbers: one per
question, seed and Finish, shared by every `p` and by both modes.

Each `p` runs with the verifier on (`verify_mode` "enforce") and off ("record":
the first Finish ends the episode, its verdict only recorded). The figures:
exact match of the last Finish answer, the share of each final status (any
status string the graph ends with), and the precision (exact match) of the
episodes ending in each status, `verified` and `grounded` named on their own;
and per kind of first answer (`gold` or a hard negative's kind) the exact match
and the share of each final status.
"""

from __future__ import annotations

import random
import re
import sys
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from langgraph.checkpoint.memory import InMemorySaver

from graph.agent import build_agent
from graph.core.trajectory import one_line
from graph.episodes.starting import run_episode
from graph.evaluation.hotpot import exact_match, load_questions
from graph.evaluation.verifier_cases import build_cases, load_pages
from graph.settings.context import WikipediaContext
from graph.testing import PolicyReActModel

POLICY_KINDS = (
    "span_swap",
    "yes_no_swap",
    "choice_swap",
    "partial_name",
    "extended_name",
    "bridge_entity",
    "bridge_page_span",
    "absent",
)
VerifyMode = Literal["enforce", "record"]
MODES: dict[str, VerifyMode] = {"on": "enforce", "off": "record"}
_QUESTION = re.compile(r"^Question: (.*)$", re.MULTILINE)
_ACTION = re.compile(r"^Action \d+: (\w+)\[(.*)\]\s*$", re.MULTILINE)


@dataclass(frozen=True)
class SimulationSettings:
    """The simulation's parameters (see the module's docstring)."""

    ps: tuple[float, ...] = (0.2, 0.5, 0.8)
    keep: float = 0.5
    p_switch: float = 0.5
    n: int = 100
    seed: int = 0
    kinds: tuple[str, ...] = POLICY_KINDS


@dataclass(frozen=True)
class Plan:
    """What a policy knows of one question: the pages to search, the gold answer and
    the hard negatives it may give instead."""

    qid: str
    titles: tuple[str, ...]
    gold: str
    negatives: tuple[str, ...]
    kinds: tuple[str, ...] = ()

    def kind_of(self, answer: str) -> str:
        """The case kind of an answer the policy gives: `gold` or a hard negative's kind."""
        if answer == self.gold:
            return "gold"
        return self.kinds[self.negatives.index(answer)] if answer in self.negatives else "other"


def plans(
    questions: Sequence[dict[str, Any]], kinds: Sequence[str] = POLICY_KINDS
) -> dict[str, Plan]:
    """Each question's plan, keyed by its text as the prompt shows it; its hard negatives
    are of the case `kinds` only."""
    titles = {title for q in questions for title, _ in q["supporting_facts"]}
    negatives: dict[str, dict[str, str]] = {q["_id"]: {} for q in questions}
    for case in build_cases(list(questions), load_pages(titles)):
        if case["case"] in kinds:
            negatives[case["id"]].setdefault(case["answer"], case["case"])
    return {
        one_line(q["question"]): Plan(
            qid=q["_id"],
            titles=tuple(dict.fromkeys(title for title, _ in q["supporting_facts"])),
            gold=q["answer"],
            negatives=tuple(negatives[q["_id"]]),
            kinds=tuple(negatives[q["_id"]].values()),
        )
        for q in questions
    }


def choose(plan: Plan, previous: list[str], p: float, cfg: SimulationSettings) -> str:
    """The answer of the next Finish, given the answers the graph already sent back."""
    draw = random.Random(f"{cfg.seed}:{plan.qid}:{len(previous)}")
    first, second, pick = draw.random(), draw.random(), draw.random()
    if not previous:
        if first < p or not plan.negatives:
            return plan.gold
        return plan.negatives[int(pick * len(plan.negatives))]
    if first < cfg.keep:
        return previous[-1]
    others = [answer for answer in plan.negatives if answer not in previous]
    if second < cfg.p_switch or not others:
        return plan.gold
    return others[int(pick * len(others))]


def policy(by_question: dict[str, Plan], p: float, cfg: SimulationSettings) -> Callable[[str], str]:
    """The scripted policy as a function of the prompt (stateless, so resumable)."""

    def reply(prompt: str) -> str:
        asked = _QUESTION.search(prompt)
        plan = by_question.get(one_line(asked.group(1))) if asked else None
        if plan is None:
            return "Thought: I do not know this question.\nAction: Finish[unknown]"
        actions = _ACTION.findall(prompt)
        searched = sum(1 for name, _ in actions if name == "Search")
        if searched < len(plan.titles):
            return (
                f"Thought: I need {plan.titles[searched]}.\nAction: Search[{plan.titles[searched]}]"
            )
        finishes = [argument for name, argument in actions if name == "Finish"]
        return f"Thought: That answers it.\nAction: Finish[{choose(plan, finishes, p, cfg)}]"

    return reply


def _finished(result: dict[str, Any]) -> str:
    finishes = [step for step in result["trajectory"] if step.get("action") == "Finish"]
    return str(finishes[-1].get("argument", "")) if finishes else ""


def figures(episodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Exact match, status shares and the precision of each final status."""
    total = len(episodes)
    statuses = Counter(episode["status"] for episode in episodes)
    precision = {
        status: round(sum(e["em"] for e in episodes if e["status"] == status) / count, 4)
        for status, count in sorted(statuses.items())
    }
    return {
        "episodes": total,
        "em": round(sum(e["em"] for e in episodes) / total, 4) if total else 0.0,
        "first_answer_em": round(sum(e["first_em"] for e in episodes) / total, 4) if total else 0.0,
        "status_share": {s: round(c / total, 4) for s, c in sorted(statuses.items())},
        "status_precision": precision,
        "verified_precision": precision.get("verified"),
        "grounded_precision": precision.get("grounded"),
    }


def by_first_kind(episodes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Per kind of first answer (`gold` or a hard negative's kind): episodes, exact match
    and the share of each final status."""
    table: dict[str, Any] = {}
    for kind in sorted({e["first_kind"] for e in episodes}):
        some = [e for e in episodes if e["first_kind"] == kind]
        statuses = Counter(e["status"] for e in some)
        table[kind] = {
            "episodes": len(some),
            "em": round(sum(e["em"] for e in some) / len(some), 4),
            "status_share": {s: round(c / len(some), 4) for s, c in sorted(statuses.items())},
        }
    return table


def run_simulation(
    cfg: SimulationSettings,
    questions: Sequence[dict[str, Any]] | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Run every (p, mode, question) episode; returns the figures per p and mode."""
    chosen = list(questions if questions is not None else load_questions())[: cfg.n or None]
    by_question = plans(chosen, cfg.kinds)
    jobs = [(p, mode, q) for p in cfg.ps for mode in MODES for q in chosen]
    saver = InMemorySaver()
    agents = {
        (p, mode): build_agent(
            "wikipedia", saver, PolicyReActModel(policy=policy(by_question, p, cfg))
        )
        for p in cfg.ps
        for mode in MODES
    }
    episodes: dict[tuple[float, str], list[dict[str, Any]]] = {key: [] for key in agents}
    for p, mode, question in _progress(jobs, progress):
        agent = agents[(p, mode)]
        thread = str(uuid.uuid4())
        ctx = WikipediaContext(verify_mode=MODES[mode])
        try:
            result = run_episode(agent, question["question"], ctx, thread)
        finally:
            saver.delete_thread(thread)
        finishes = [s for s in result["trajectory"] if s.get("action") == "Finish"]
        first = str(finishes[0].get("argument", "")) if finishes else ""
        episodes[(p, mode)].append(
            {
                "status": str(result["status"]),
                "em": exact_match(_finished(result), question["answer"]),
                "first_em": exact_match(first, question["answer"]),
                "first_kind": by_question[one_line(question["question"])].kind_of(first),
            }
        )
    return {
        "settings": asdict(cfg) | {"questions": len(chosen), "policy_kinds": list(cfg.kinds)},
        "without_negative": sum(not plan.negatives for plan in by_question.values()),
        "runs": [
            {"p": p, "verifier": mode, **figures(episodes[(p, mode)])}
            | {"by_first_kind": by_first_kind(episodes[(p, mode)])}
            for p in cfg.ps
            for mode in MODES
        ],
    }


def _progress(jobs: list[Any], enabled: bool) -> Iterable[Any]:
    try:
        from tqdm import tqdm
    except ImportError:
        return jobs
    disable = not enabled or not sys.stderr.isatty()
    return tqdm(jobs, desc="simulation", unit="episode", file=sys.stderr, disable=disable)
