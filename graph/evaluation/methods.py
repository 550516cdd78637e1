"""The compared methods, and how each answers one question.

- `standard` and `cot`: one model call, no tools, with their few-shot prompts
  (`prompts/qa_standard.txt`, `prompts/qa_cot.txt`); the answer is the text
  after the last `Answer:`.
- `act`, `react`, `react+verify`: the agent graph (Act-only prompt or ReAct;
  the verifier only records its verdict, or enforces it).
- `react->cot`: `react`, and `cot` only when ReAct did not finish (the ReAct
  paper's back-off).

Every method sees the same model, temperature, token budget, step limit and
Wikipedia source. A rate-limit error raises `RateLimited` so the caller can
back off and run the episode again.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.memory import InMemorySaver

from graph.agent import ENVIRONMENTS, build_graph
from graph.core.nodes import MODEL_BACKOFF_S, AgentDeps
from graph.core.trajectory import one_line
from graph.episodes.runner import Agent
from graph.episodes.starting import run_episode
from graph.evaluation.rate_limits import RateLimited, is_rate_limit, is_rate_limit_text, retry_after
from graph.prompts import render
from graph.settings.context import WikipediaContext

METHODS = ("standard", "cot", "act", "react", "react+verify", "react->cot")
GRAPH_STYLES: dict[str, tuple[Literal["react", "act"], Literal["enforce", "record"]]] = {
    "act": ("act", "record"),
    "react": ("react", "record"),
    "react+verify": ("react", "enforce"),
}
DIRECT_PROMPTS = {"standard": "qa_standard.txt", "cot": "qa_cot.txt"}
FALLBACKS = {"react->cot": ("react", "cot")}
QUESTION_TEMPLATE = "qa_question.txt"
DIRECT_STOP = ["\nQuestion:"]
FINISHED_STOPS = frozenset(
    {
        "verified",
        "grounded",
        "finished_grounded",
        "finished_unverified",
        "verifier_rejected",
        "verifier_error",
    }
)
MAX_SECONDS = 600.0

_ANSWER = re.compile(
    r"^[\s*_`#>-]*answer\**\s*[:：]\**(?P<answer>.*)$", re.IGNORECASE | re.MULTILINE
)

ModelFactory = Callable[[str, int], BaseChatModel]
"""`(component, seed) -> chat model`; a component is a method run by itself."""


def parse_answer(text: str) -> str | None:
    """The text after the last `Answer:` line, or None when there is none."""
    found = _ANSWER.findall(text)
    if not found:
        return None
    answer = found[-1].strip().strip("*").strip()
    return answer or None


@dataclass(frozen=True)
class RunSettings:
    """What every method shares: the fixed conditions of a fair comparison."""

    model: str
    temperature: float = 0.0
    max_tokens: int = 512
    max_steps: int = 8
    source: Literal["snapshot", "live"] = "snapshot"

    def context(self, component: str) -> WikipediaContext:
        """The agent's run settings for a graph component."""
        style, mode = GRAPH_STYLES[component]
        return WikipediaContext(
            model=self.model,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            max_model_turns=self.max_steps,
            max_tool_calls=2 * self.max_steps,
            max_seconds=MAX_SECONDS,
            prompt_style=style,
            verify_mode=mode,
            source=self.source,
        )

    def contexts(self) -> dict[str, dict[str, Any]]:
        """Every graph component's full settings, for the record."""
        return {name: asdict(self.context(name)) for name in GRAPH_STYLES}


def components(method: str) -> tuple[str, ...]:
    """The methods that `method` runs (itself, or a ReAct run and its back-off)."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r}: expected one of {', '.join(METHODS)}")
    return FALLBACKS.get(method, (method,))


def _empty_outcome() -> dict[str, Any]:
    return {
        "answer": "",
        "status": "",
        "stop_reason": "",
        "finished": False,
        "issued_finish": False,
        "verified": None,
        "grounded": None,
        "unsupported_finish": None,
        "invalid_actions": None,
        "repeats": None,
        "verifier_rejections": None,
        "steps": 0,
        "model_calls": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "wikipedia_requests": 0,
        "wikipedia_cache_hits": 0,
        "fell_back": None,
        "trajectory": [],
    }


def error_outcome(reason: str, model_calls: int = 0) -> dict[str, Any]:
    """The record of an episode that ended in an error before any answer."""
    return _empty_outcome() | {"status": "error", "stop_reason": reason, "model_calls": model_calls}


def graph_outcome(result: Mapping[str, Any]) -> dict[str, Any]:
    """What the harness records of an agent episode (`run_episode`'s result)."""
    trajectory = list(result["trajectory"])
    finishes = [step for step in trajectory if step.get("action") == "Finish"]
    finished = result["status"] == "verified" or result["stop_reason"] in FINISHED_STOPS
    answer = str(finishes[-1].get("argument", "")) if finished and finishes else ""
    return _empty_outcome() | {
        "answer": answer,
        "status": result["status"],
        "stop_reason": result["stop_reason"],
        "finished": finished,
        "issued_finish": bool(finishes),
        "verified": result["status"] == "verified",
        "grounded": result["status"] == "grounded",
        "unsupported_finish": result["verifier_rejections"] > 0,
        "invalid_actions": result["invalid_actions"],
        "repeats": result["repeats"],
        "verifier_rejections": result["verifier_rejections"],
        "steps": result["steps"],
        "model_calls": result["model_calls"],
        "prompt_tokens": result["tokens"]["input"],
        "completion_tokens": result["tokens"]["output"],
        "wikipedia_requests": result["wikipedia"]["requests"],
        "wikipedia_cache_hits": result["wikipedia"]["cache_hits"],
        "trajectory": trajectory,
    }


def direct_messages(method: str, question: str) -> list[SystemMessage | HumanMessage]:
    """The prompt of a tool-less method: few-shot examples, then the question."""
    return [
        SystemMessage(render(DIRECT_PROMPTS[method])),
        HumanMessage(render(QUESTION_TEMPLATE, question=one_line(question))),
    ]


class MethodRunner:
    """Answers questions by any method; models and agents are built once per (component, seed).

    Each graph component has its own agent on an in-memory checkpointer; an
    episode's thread is deleted once its result is read, so memory stays flat.
    `model_backoff_s` is the agent's own pause between its retries of a
    failed model call.
    """

    def __init__(
        self,
        settings: RunSettings,
        model_for: ModelFactory,
        model_backoff_s: float = MODEL_BACKOFF_S,
    ) -> None:
        self.settings = settings
        self.model_for = model_for
        self.model_backoff_s = model_backoff_s
        self._lock = threading.Lock()
        self._models: dict[tuple[str, int], BaseChatModel] = {}
        self._agents: dict[tuple[str, int], tuple[Agent, BaseCheckpointSaver[Any]]] = {}

    def model(self, component: str, seed: int) -> BaseChatModel:
        """The chat model of one component and seed."""
        with self._lock:
            key = (component, seed)
            if key not in self._models:
                self._models[key] = self.model_for(component, seed)
            return self._models[key]

    def checkpointer(self) -> BaseCheckpointSaver[Any]:
        """Where a component's episodes are kept: in memory, one saver per agent."""
        return InMemorySaver()

    def agent(self, component: str, seed: int) -> tuple[Agent, BaseCheckpointSaver[Any]]:
        """The agent of one component and seed, on `checkpointer()`."""
        model = self.model(component, seed)
        with self._lock:
            key = (component, seed)
            if key not in self._agents:
                _, factory, keys = ENVIRONMENTS["wikipedia"]
                deps = AgentDeps(
                    environment_factory=factory,
                    environment_keys=keys,
                    model=model,
                    model_backoff_s=self.model_backoff_s,
                )
                saver = self.checkpointer()
                agent = build_graph("wikipedia", deps).compile(
                    checkpointer=saver, name="wikipedia-agent"
                )
                self._agents[key] = (agent, saver)
            return self._agents[key]

    def run_graph(self, component: str, question: str, seed: int) -> dict[str, Any]:
        """One agent episode; raises `RateLimited` if the model was rate-limited."""
        agent, saver = self.agent(component, seed)
        thread_id = str(uuid.uuid4())
        try:
            result = run_episode(agent, question, self.settings.context(component), thread_id)
        finally:
            saver.delete_thread(thread_id)
        if result["status"] == "error" and is_rate_limit_text(result["stop_reason"]):
            raise RateLimited(result["stop_reason"])
        return graph_outcome(result)

    def run_direct(self, component: str, question: str, seed: int) -> dict[str, Any]:
        """One call of a tool-less method; raises `RateLimited` on a rate-limit error."""
        model = self.model(component, seed)
        try:
            reply = model.invoke(direct_messages(component, question), stop=DIRECT_STOP)
        except Exception as error:  # a provider's errors have no common base class
            if is_rate_limit(error):
                message = f"{type(error).__name__}: {error}"
                raise RateLimited(message, retry_after(error)) from error
            return error_outcome(f"model_error: {type(error).__name__}: {error}", model_calls=1)
        text = str(reply.content)
        answer = parse_answer(text)
        usage = getattr(reply, "usage_metadata", None) or {}
        return _empty_outcome() | {
            "answer": answer or "",
            "status": "answered" if answer is not None else "no_answer",
            "stop_reason": "answered" if answer is not None else "no_answer_line",
            "finished": answer is not None,
            "model_calls": 1,
            "prompt_tokens": usage.get("input_tokens", 0),
            "completion_tokens": usage.get("output_tokens", 0),
            "trajectory": [{"kind": component, "reply": text}],
        }

    def run_component(self, component: str, question: str, seed: int) -> dict[str, Any]:
        """One method that is not a back-off combination."""
        if component in GRAPH_STYLES:
            return self.run_graph(component, question, seed)
        return self.run_direct(component, question, seed)

    def run(self, method: str, question: str, seed: int) -> dict[str, Any]:
        """Answer `question` by `method`: the recorded outcome, without scores."""
        parts = components(method)
        first = self.run_component(parts[0], question, seed)
        if len(parts) == 1:
            return first
        if first["finished"] or first["status"] == "error":
            return first | {"fell_back": False}
        second = self.run_component(parts[1], question, seed)
        summed = {
            key: first[key] + second[key]
            for key in ("model_calls", "prompt_tokens", "completion_tokens")
        }
        return (
            first
            | summed
            | {
                "answer": second["answer"],
                "status": second["status"],
                "stop_reason": f"{first['stop_reason']} -> {second['stop_reason']}",
                "finished": second["finished"],
                "verified": False,
                "grounded": False,
                "fell_back": True,
                "trajectory": first["trajectory"] + second["trajectory"],
            }
        )
