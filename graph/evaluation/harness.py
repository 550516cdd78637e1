"""`QABench`: one comparison's episodes run (or resumed), then its summary, report and plots.

Every method gets the same model, questions, temperature, token budget, step
limit and Wikipedia source, and is repeated over several seeds; episodes are
interleaved by seed and question so that the methods share the conditions.

`graph.evaluation.plots` is imported only when plots are drawn: matplotlib is an
optional extra, and at the top it would add about 0.4 s to every `react-agent bench`
command's start-up (python -X importtime).
"""

from __future__ import annotations

import importlib.util
import json
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models.chat_models import BaseChatModel

from graph.core.models import load_chat_model
from graph.evaluation.config import (
    CONFIG_FILE,
    EPISODES_FILE,
    REPORT_FILE,
    SUMMARY_FILE,
    BenchConfig,
    BenchError,
    save_record,
    versions,
)
from graph.evaluation.episode_log import EpisodeLog, episode_key
from graph.evaluation.hotpot import QUESTIONS_FILE, exact_match, f1_score
from graph.evaluation.methods import MethodRunner, ModelFactory, RunSettings, components
from graph.evaluation.metrics import steps_by_method, summarize
from graph.evaluation.questions import prompts_fingerprint, select_questions
from graph.evaluation.report import markdown_report
from graph.evaluation.scheduler import Retry, with_retries
from graph.evaluation.stored import StoredMethodRunner
from graph.store.locations import without_password

NO_PLOTS = (
    "bench qa: matplotlib is not installed, so no plots were drawn; "
    "pip install 'react-evidence-agent[bench]' adds them"
)
SCRIPTED_BANNER = (
    "Scripted model ({kind}): these figures come from scripted replies, not from a "
    "language model; they show the report's format, not any model's accuracy."
)


def seeded(model: BaseChatModel, seed: int) -> tuple[BaseChatModel, bool]:
    """A copy of `model` that samples with `seed`, if the model takes a seed."""
    fields = type(model).model_fields
    if "seed" in fields:
        return model.model_copy(update={"seed": seed}), True
    if type(model).__name__ == "ChatGroq" and "model_kwargs" in fields:
        extra = dict(getattr(model, "model_kwargs", None) or {}) | {"seed": seed}
        return model.model_copy(update={"model_kwargs": extra}), True
    return model, False


def plots_available() -> bool:
    """Whether matplotlib (the `[bench]` extra) is installed."""
    return importlib.util.find_spec("matplotlib") is not None


def _plots(
    methods: Mapping[str, Any], steps: Mapping[str, list[int]], out: Path, subtitle: str
) -> list[str]:
    """Draw the plots, or say in one line why not (matplotlib is an extra)."""
    if not plots_available():
        print(NO_PLOTS, file=sys.stderr)
        return []
    from graph.evaluation.plots import write_plots

    return write_plots(methods, steps, out, subtitle)


class _DefaultModels:
    """The `--model` chat model, loaded once, one seeded copy per seed."""

    def __init__(self, settings: RunSettings) -> None:
        self.base = load_chat_model(settings.model, settings.temperature, settings.max_tokens)
        self.seed_reaches_model = seeded(self.base, 0)[1]

    def __call__(self, component: str, seed: int) -> BaseChatModel:
        return seeded(self.base, seed)[0]


@dataclass
class EpisodeTask:
    """One episode of the comparison: a question, a method, a seed."""

    question: dict[str, Any]
    method: str
    seed: int

    @property
    def key(self) -> str:
        return episode_key(self.question["_id"], self.method, self.seed)


class QABench:
    """Runs the pending episodes of a comparison and writes its outputs."""

    def __init__(
        self,
        config: BenchConfig,
        model_for: ModelFactory | None = None,
        clock: Callable[[], float] = time.perf_counter,
        sleep: Callable[[float], None] = time.sleep,
        progress: bool = True,
    ) -> None:
        config.check()
        self.config = config
        self.settings = config.settings()
        self.clock = clock
        self.sleep = sleep
        self.progress = progress
        self.retry = Retry(config.retries, config.backoff_s, config.max_backoff_s)
        self.seed_reaches_model: bool | None = None
        if model_for is None:
            defaults = _DefaultModels(self.settings)
            self.seed_reaches_model = defaults.seed_reaches_model
            model_for = defaults
        self.runner = self.method_runner(model_for)
        self.questions, self.excluded = select_questions(config.data, config.n, config.sample_seed)
        if not self.questions:
            raise BenchError("no question is left to evaluate")
        self.question_ids = [q["_id"] for q in self.questions]
        self.seeds = list(range(config.seeds))
        self.log = EpisodeLog(config.out / EPISODES_FILE)

    def method_runner(self, model_for: ModelFactory) -> MethodRunner:
        """In-process episodes, or, with `--workers`, episodes kept in the `--db` store."""
        if not self.config.workers:
            return MethodRunner(self.settings, model_for, self.config.backoff_s)

        return StoredMethodRunner(
            self.settings,
            model_for,
            self.config.backoff_s,
            db=self.config.db,
            run_key=self.config.run_key(),
        )

    def run_config(self) -> dict[str, Any]:
        """Everything needed to reproduce the run (a store's or server's password left out)."""
        config = asdict(self.config)
        config["out"] = str(self.config.out)
        config["db"] = without_password(self.config.db) if self.config.db else None
        config["server"] = without_password(self.config.server)
        config["data"] = (
            str(self.config.data) if self.config.data else f"built-in:{QUESTIONS_FILE.name}"
        )
        return config | {
            "methods": list(self.config.methods),
            "seeds": self.seeds,
            "questions": self.question_ids,
            "excluded_prompt_questions": self.excluded,
            "prompts_sha256": prompts_fingerprint(),
            "seed_reaches_model": self.seed_reaches_model,
            "agent_settings": self.settings.contexts(),
            "versions": versions(),
        }

    def tasks(self) -> list[EpisodeTask]:
        """Every episode of the run, interleaved so that methods share the same conditions."""
        return [
            EpisodeTask(question, method, seed)
            for seed in self.seeds
            for question in self.questions
            for method in self.config.methods
        ]

    def run_task(self, task: EpisodeTask) -> dict[str, Any]:
        """One episode, retried with exponential backoff while the model is rate-limited."""
        outcome, latency, retries = with_retries(
            lambda: self.runner.run(task.method, task.question["question"], task.seed),
            self.retry,
            self.clock,
            self.sleep,
        )
        return self.record(task, outcome, latency, retries)

    def record(
        self, task: EpisodeTask, outcome: Mapping[str, Any], latency: float, retries: int
    ) -> dict[str, Any]:
        """What `episodes.jsonl` keeps of one episode: its outcome and its scores."""
        question = task.question
        return {
            "key": task.key,
            "question_id": question["_id"],
            "method": task.method,
            "seed": task.seed,
            "question": question["question"],
            "gold": question["answer"],
            "type": question.get("type"),
            "level": question.get("level"),
            "em": exact_match(outcome["answer"], question["answer"]),
            "f1": f1_score(outcome["answer"], question["answer"]),
            "latency_s": latency,
            "rate_limit_retries": retries,
        } | dict(outcome)

    def run_and_log(self, task: EpisodeTask) -> None:
        """Run one episode and append it to the log (in the worker, so none is lost)."""
        self.log.append(self.run_task(task))

    def prepare(self) -> dict[str, Any]:
        """Create `--out`, refuse to mix settings with an earlier run there, record the config."""
        try:
            self.config.out.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise BenchError(f"--out: cannot create {self.config.out}: {error.strerror}") from None
        config = self.run_config()
        save_record(self.config.out, config)
        return config

    @contextmanager
    def output_kept_only_if_used(self) -> Iterator[None]:
        """Remove what `prepare` created if the run fails before any episode is logged.

        A directory or `config.json` that existed before is left as it was.
        """
        out = self.config.out
        fresh_dir = not out.exists()
        fresh_record = not (out / CONFIG_FILE).exists()
        try:
            yield
        except BaseException:
            with suppress(OSError):  # `out` may be no directory (the error being raised)
                if not self.log.path.exists():
                    if fresh_record:
                        (out / CONFIG_FILE).unlink(missing_ok=True)
                    if fresh_dir and out.is_dir() and not any(out.iterdir()):
                        out.rmdir()
            raise

    def write_outputs(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """`summary.json`, `report.md` and the plots (when matplotlib is installed)."""
        episodes = list(self.log.load().values())
        methods = self.summary_methods(episodes)
        scripted = self.scripted_kind()
        banner = SCRIPTED_BANNER.format(kind=scripted) if scripted else ""
        banner = " ".join(part for part in (banner, self.config.note) if part)
        subtitle = self.config.model + (" — SCRIPTED, not a real model" if scripted else "")
        steps = steps_by_method(episodes, self.config.methods, self.seeds, self.question_ids)
        plots = _plots(methods, steps, self.config.out, subtitle)
        summary = {"config": dict(config), "methods": methods, "scripted": scripted}
        out = self.config.out
        (out / SUMMARY_FILE).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        (out / REPORT_FILE).write_text(markdown_report(summary, plots, banner), encoding="utf-8")
        return summary

    def summary_methods(self, episodes: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        """Per-method figures of this run's questions, methods and seeds."""
        return summarize(episodes, self.config.methods, self.seeds, self.question_ids)

    def scripted_kind(self) -> str | None:
        """The scripted model's type when the models are scripted, else None."""
        for method in self.config.methods:
            kind = self.runner.model(components(method)[0], 0)._llm_type
            if kind.startswith("scripted"):
                return kind
        return None
