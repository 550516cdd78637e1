"""`react-agent bench qa`: a fair comparison of standard, CoT, Act-only and ReAct on HotpotQA.

Every method gets the same model, questions, temperature, token budget, step
limit and Wikipedia source, and is repeated over several seeds. Episodes are
appended to `episodes.jsonl` as they finish; a run restarted with the same
`--out` skips the episodes already there, so an interrupted run resumes and
no episode is counted twice. Questions used in any prompt's examples are
never evaluated.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Literal

from langchain_core.language_models.chat_models import BaseChatModel

from graph.agent import ENVIRONMENTS
from graph.context import DEFAULT_MODEL
from graph.errors import AgentError
from graph.evaluation.hotpot import QUESTIONS_FILE, exact_match, f1_score, load_questions
from graph.evaluation.methods import (
    METHODS,
    MethodRunner,
    ModelFactory,
    RunSettings,
    components,
    error_outcome,
)
from graph.evaluation.rate_limits import RateLimited, backoff_delay
from graph.evaluation.report import markdown_report, summarize

EPISODES_FILE = "episodes.jsonl"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.md"
CONFIG_FILE = "config.json"
EXAMPLE_IDS_FILE = "qa_example_ids.txt"
DEFAULT_OUT = Path("runs/qa")
SCRIPTED_BANNER = (
    "Scripted model ({kind}): these figures come from scripted replies, not from a "
    "language model; they show the report's format, not any model's accuracy."
)
FIXED_KEYS = (
    "model",
    "data",
    "sample_seed",
    "temperature",
    "max_steps",
    "max_tokens",
    "source",
    "prompts_sha256",
)
MISMATCH = (
    "{out} holds a run with different settings ({changes}); episodes from different "
    "settings must not be mixed: use another --out, or the same settings to resume it"
)
BAD_LINE = "{path}:{line}: not an episode record ({error}); fix or remove this line"
_QUESTION_LINE = re.compile(r"^Question:\s*(?P<q>.+?)\s*$", re.MULTILINE)


class BenchError(AgentError):
    """The comparison cannot run as asked (bad options, conflicting earlier run)."""


@dataclass
class BenchConfig:
    """One comparison: the fixed conditions, the methods, and where results go."""

    out: Path = DEFAULT_OUT
    model: str = field(default_factory=lambda: os.environ.get("REACT_AGENT_MODEL", DEFAULT_MODEL))
    methods: tuple[str, ...] = METHODS
    data: Path | None = None
    n: int | None = 50
    sample_seed: int = 0
    seeds: int = 3
    temperature: float = 0.0
    max_steps: int = 8
    max_tokens: int = 512
    source: Literal["snapshot", "live"] = "snapshot"
    concurrency: int = 4
    retries: int = 6
    backoff_s: float = 2.0
    max_backoff_s: float = 60.0
    note: str = ""

    def settings(self) -> RunSettings:
        """The conditions every method shares."""
        if self.source not in ("snapshot", "live"):
            raise BenchError(f"--source must be 'snapshot' or 'live', not {self.source!r}")
        return RunSettings(
            model=self.model,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
            max_steps=self.max_steps,
            source=self.source,
        )

    def check(self) -> None:
        """Refuse options that cannot give a meaningful run."""
        for method in self.methods:
            if method not in METHODS:
                raise BenchError(f"unknown method {method!r}: choose from {', '.join(METHODS)}")
        if not self.methods:
            raise BenchError("--methods names no method")
        for name in ("seeds", "max_steps", "max_tokens", "concurrency", "retries"):
            if getattr(self, name) < 1:
                raise BenchError(f"--{name.replace('_', '-')} must be at least 1")
        if self.n is not None and self.n < 1:
            raise BenchError("--n must be at least 1")


def prompt_files() -> list[str]:
    """Every prompt file the methods may use: all but other environments' own."""
    others = tuple(f"{name}_" for name in ENVIRONMENTS if name != "wikipedia")
    folder = resources.files("graph.prompts")
    return sorted(
        item.name
        for item in folder.iterdir()
        if item.name.endswith(".txt") and not item.name.startswith(others)
    )


def _prompt_text(name: str) -> str:
    return resources.files("graph.prompts").joinpath(name).read_text(encoding="utf-8")


def prompts_fingerprint() -> str:
    """A hash of all prompt files, so a run records the exact prompts it used."""
    digest = hashlib.sha256()
    for name in prompt_files():
        digest.update(name.encode() + b"\0" + _prompt_text(name).encode() + b"\0")
    return digest.hexdigest()[:16]


def _fold(question: str) -> str:
    return " ".join(question.split()).casefold()


def prompt_questions() -> tuple[set[str], set[str]]:
    """The (ids, folded texts) of every question that appears in a prompt's examples."""
    ids = {line.strip() for line in _prompt_text(EXAMPLE_IDS_FILE).splitlines() if line.strip()}
    texts = {
        _fold(match.group("q"))
        for name in prompt_files()
        for match in _QUESTION_LINE.finditer(_prompt_text(name))
        if "$" not in match.group("q")
    }
    return ids, texts


def select_questions(
    path: Path | None, n: int | None, sample_seed: int
) -> tuple[list[dict[str, Any]], int]:
    """The evaluated questions and how many were left out for being prompt examples.

    The pool is shuffled with `sample_seed` and its first `n` taken, so a
    larger `n` extends a smaller one.
    """
    try:
        pool = load_questions(path)
    except (OSError, ValueError) as error:
        raise BenchError(f"cannot read the questions: {error}") from None
    ids, texts = prompt_questions()
    eligible = [q for q in pool if q["_id"] not in ids and _fold(q["question"]) not in texts]
    random.Random(sample_seed).shuffle(eligible)
    return (eligible if n is None else eligible[:n]), len(pool) - len(eligible)


def episode_key(question_id: str, method: str, seed: int) -> str:
    """The identity of an episode in `episodes.jsonl`."""
    return f"{question_id}|{method}|{seed}"


class EpisodeLog:
    """`episodes.jsonl`: one JSON line per finished episode, appended atomically.

    Each line is written with one `write` on an append-mode descriptor, under a
    lock. A torn last line (a kill mid-write) is cut off when the log is opened.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    def load(self) -> dict[str, dict[str, Any]]:
        """The recorded episodes by key (a later record of a key replaces an earlier one)."""
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        if len(complete) < len(data):
            with self.path.open("r+b") as handle:
                handle.truncate(len(complete))
        records: dict[str, dict[str, Any]] = {}
        for number, line in enumerate(complete.decode("utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
                records[record["key"]] = record
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                message = BAD_LINE.format(path=self.path, line=number, error=error)
                raise BenchError(message) from None
        return records

    def append(self, record: Mapping[str, Any]) -> None:
        """Add one episode as one line."""
        line = (json.dumps(record, ensure_ascii=False, default=str) + "\n").encode("utf-8")
        with self._lock:
            handle = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                os.write(handle, line)
            finally:
                os.close(handle)


def seeded(model: BaseChatModel, seed: int) -> tuple[BaseChatModel, bool]:
    """A copy of `model` that samples with `seed`, if the model takes a seed."""
    fields = type(model).model_fields
    if "seed" in fields:
        return model.model_copy(update={"seed": seed}), True
    if type(model).__name__ == "ChatGroq" and "model_kwargs" in fields:
        extra = dict(getattr(model, "model_kwargs", None) or {}) | {"seed": seed}
        return model.model_copy(update={"model_kwargs": extra}), True
    return model, False


class _DefaultModels:
    """The `--model` chat model, loaded once, one seeded copy per seed."""

    def __init__(self, settings: RunSettings) -> None:
        from graph.models import load_chat_model

        self.base = load_chat_model(settings.model, settings.temperature, settings.max_tokens)
        self.seed_reaches_model = seeded(self.base, 0)[1]

    def __call__(self, component: str, seed: int) -> BaseChatModel:
        return seeded(self.base, seed)[0]


def _scripted_kind(model: BaseChatModel) -> str | None:
    kind = model._llm_type
    return kind if kind.startswith("scripted") else None


@dataclass
class _Task:
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
        self.seed_reaches_model: bool | None = None
        if model_for is None:
            defaults = _DefaultModels(self.settings)
            self.seed_reaches_model = defaults.seed_reaches_model
            model_for = defaults
        self.runner = MethodRunner(self.settings, model_for, config.backoff_s)
        self.questions, self.excluded = select_questions(config.data, config.n, config.sample_seed)
        if not self.questions:
            raise BenchError("no question is left to evaluate")
        self.log = EpisodeLog(config.out / EPISODES_FILE)

    def run_config(self) -> dict[str, Any]:
        """Everything needed to reproduce the run."""
        config = asdict(self.config)
        config["out"] = str(self.config.out)
        config["data"] = (
            str(self.config.data) if self.config.data else f"built-in:{QUESTIONS_FILE.name}"
        )
        versions: dict[str, str | None] = {}
        for package in ("langgraph", "langchain-core", "react-evidence-agent"):
            try:
                versions[package] = metadata.version(package)
            except metadata.PackageNotFoundError:
                versions[package] = None
        return config | {
            "methods": list(self.config.methods),
            "seeds": list(range(self.config.seeds)),
            "questions": [q["_id"] for q in self.questions],
            "excluded_prompt_questions": self.excluded,
            "prompts_sha256": prompts_fingerprint(),
            "seed_reaches_model": self.seed_reaches_model,
            "agent_settings": self.settings.contexts(),
            "versions": versions | {"python": sys.version.split()[0]},
        }

    def _check_earlier_run(self, config: Mapping[str, Any]) -> None:
        path = self.config.out / CONFIG_FILE
        if not path.exists():
            return
        earlier = json.loads(path.read_text(encoding="utf-8"))
        changes = [
            f"{key}: {earlier.get(key)!r} then, {config[key]!r} now"
            for key in FIXED_KEYS
            if earlier.get(key) != config[key]
        ]
        if changes:
            raise BenchError(MISMATCH.format(out=self.config.out, changes="; ".join(changes)))

    def tasks(self) -> list[_Task]:
        """Every episode of the run, interleaved so that methods share the same conditions."""
        return [
            _Task(question, method, seed)
            for seed in range(self.config.seeds)
            for question in self.questions
            for method in self.config.methods
        ]

    def run_task(self, task: _Task) -> dict[str, Any]:
        """One episode, retried with exponential backoff while the model is rate-limited."""
        question = task.question
        retries = 0
        while True:
            started = self.clock()
            try:
                outcome = self.runner.run(task.method, question["question"], task.seed)
                latency = self.clock() - started
                break
            except RateLimited as error:
                if retries + 1 >= self.config.retries:
                    outcome = error_outcome(
                        f"rate_limited: gave up after {retries + 1} attempts: {error}"
                    )
                    latency = 0.0
                    break
                self.sleep(
                    backoff_delay(
                        retries, self.config.backoff_s, self.config.max_backoff_s, error.retry_after
                    )
                )
                retries += 1
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
        } | outcome

    def run_and_log(self, task: _Task) -> None:
        """Run one episode and append it to the log (in the worker, so none is lost)."""
        self.log.append(self.run_task(task))

    def _execute(self, pending: Sequence[_Task], done: int) -> None:
        from tqdm import tqdm

        bar = tqdm(
            total=done + len(pending),
            initial=done,
            desc="bench qa",
            unit="episode",
            file=sys.stderr,
            disable=not self.progress,
            dynamic_ncols=True,
        )
        queue = iter(pending)
        running: set[Future[None]] = set()
        with ThreadPoolExecutor(max_workers=self.config.concurrency) as pool:
            try:
                for task in queue:
                    running.add(pool.submit(self.run_and_log, task))
                    if len(running) >= self.config.concurrency:
                        break
                while running:
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        future.result()
                        bar.update(1)
                        following = next(queue, None)
                        if following is not None:
                            running.add(pool.submit(self.run_and_log, following))
            finally:
                bar.close()

    def prepare(self) -> dict[str, Any]:
        """Create `--out`, refuse to mix settings with an earlier run there, record the config."""
        self.config.out.mkdir(parents=True, exist_ok=True)
        config = self.run_config()
        self._check_earlier_run(config)
        (self.config.out / CONFIG_FILE).write_text(
            json.dumps(config, indent=2) + "\n", encoding="utf-8"
        )
        return config

    def run_pending(self) -> int:
        """Run the episodes not yet recorded (or recorded as errors); returns how many."""
        recorded = self.log.load()
        finished = {key for key, record in recorded.items() if record["status"] != "error"}
        tasks = self.tasks()
        pending = [task for task in tasks if task.key not in finished]
        self._execute(pending, len(tasks) - len(pending))
        return len(pending)

    def run(self) -> dict[str, Any]:
        """Run what is not done yet, then write the summary, report and plots."""
        config = self.prepare()
        self.run_pending()
        return self.write_outputs(config)

    def write_outputs(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """`summary.json`, `report.md` and the plots from the episodes on disk."""
        from graph.evaluation.plots import write_plots

        episodes = list(self.log.load().values())
        methods = self.summary_methods(episodes)
        summary: dict[str, Any] = {"config": dict(config), "methods": methods}
        scripted = self.scripted_kind()
        banner = SCRIPTED_BANNER.format(kind=scripted) if scripted else ""
        banner = " ".join(part for part in (banner, self.config.note) if part)
        subtitle = f"{self.config.model}" + (" — SCRIPTED, not a real model" if scripted else "")
        steps = self.steps_by_method(episodes)
        plots = write_plots(methods, steps, self.config.out, subtitle)
        summary["scripted"] = scripted
        out = self.config.out
        (out / SUMMARY_FILE).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        (out / REPORT_FILE).write_text(markdown_report(summary, plots, banner), encoding="utf-8")
        return summary

    def summary_methods(self, episodes: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
        """Per-method figures of this run's questions, methods and seeds."""
        return summarize(
            episodes,
            self.config.methods,
            list(range(self.config.seeds)),
            [q["_id"] for q in self.questions],
        )

    def steps_by_method(self, episodes: Iterable[Mapping[str, Any]]) -> dict[str, list[int]]:
        """Steps of each episode, by method, for the distribution plot."""
        wanted = {q["_id"] for q in self.questions}
        seeds = range(self.config.seeds)
        steps: dict[str, list[int]] = {method: [] for method in self.config.methods}
        for episode in episodes:
            if (
                episode["question_id"] in wanted
                and episode["method"] in steps
                and episode["seed"] in seeds
            ):
                steps[episode["method"]].append(int(episode["steps"]))
        return steps

    def scripted_kind(self) -> str | None:
        """The scripted model's type when the models are scripted, else None."""
        for method in self.config.methods:
            kind = _scripted_kind(self.runner.model(components(method)[0], 0))
            if kind:
                return kind
        return None


def run_qa_bench(
    config: BenchConfig, model_for: ModelFactory | None = None, **options: Any
) -> dict[str, Any]:
    """Run (or resume) a comparison; returns the summary also written to `config.out`."""
    return QABench(config, model_for, **options).run()


def _methods(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in METHODS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}"
        )
    return names


def _command(args: argparse.Namespace) -> int:
    config = BenchConfig(
        out=args.out,
        model=args.model,
        methods=args.methods,
        data=args.data,
        n=args.n or None,
        sample_seed=args.sample_seed,
        seeds=args.seeds,
        temperature=args.temperature,
        max_steps=args.max_steps,
        max_tokens=args.max_tokens,
        source=args.source,
        concurrency=args.concurrency,
        retries=args.retries,
        note=args.note,
    )
    try:
        summary = run_qa_bench(config, progress=not args.no_progress)
    except KeyboardInterrupt:
        print(
            f"interrupted: finished episodes are in {config.out / EPISODES_FILE}; run the same "
            "command again to continue",
            file=sys.stderr,
        )
        return 130
    from graph.evaluation.report import markdown_table

    print(markdown_table(summary["methods"]))
    print(f"\nwritten to {config.out}: {EPISODES_FILE}, {SUMMARY_FILE}, {REPORT_FILE} and plots")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `qa` subcommand; it sets `func(args) -> int` as the handler."""
    parser = subparsers.add_parser(
        "qa",
        help="Compare standard, CoT, Act-only and ReAct (with and without verification) "
        "on HotpotQA under the same conditions.",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "--model",
        default=os.environ.get("REACT_AGENT_MODEL", DEFAULT_MODEL),
        help="chat model for every method: 'provider:model', "
        "'path/file.py:factory', 'package.module:factory' or "
        f"'scripted:FILE' (default: {DEFAULT_MODEL})",
    )
    parser.add_argument(
        "--methods",
        type=_methods,
        default=METHODS,
        help=f"comma-separated, any of {', '.join(METHODS)} (default: all)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="HotpotQA JSONL(.gz) file (default: the built-in questions)",
    )
    parser.add_argument(
        "--n", type=int, default=50, help="how many questions (0: all; default: 50)"
    )
    parser.add_argument(
        "--sample-seed", type=int, default=0, help="seed of the question sample (default: 0)"
    )
    parser.add_argument(
        "--seeds", type=int, default=3, help="repeats of every episode, seeds 0..N-1 (default: 3)"
    )
    parser.add_argument("--temperature", type=float, default=0.0, help="(default: 0.0)")
    parser.add_argument(
        "--max-steps",
        type=int,
        default=8,
        help="most actions (model turns) per agent episode (default: 8)",
    )
    parser.add_argument(
        "--max-tokens", type=int, default=512, help="most tokens per model call (default: 512)"
    )
    parser.add_argument(
        "--source",
        choices=["snapshot", "live"],
        default="snapshot",
        help="Wikipedia for the agent methods (default: the offline snapshot)",
    )
    parser.add_argument(
        "--concurrency", type=int, default=4, help="episodes run at once (default: 4)"
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=6,
        help="attempts per episode while the model is rate-limited (default: 6)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"output directory; rerun with the same one to resume (default: {DEFAULT_OUT})",
    )
    parser.add_argument("--note", default="", help="a line shown at the top of the report")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.set_defaults(func=_command)


def main(argv: list[str] | None = None) -> int:
    """Run the comparison on its own: `python -m graph.evaluation.qa_bench qa ...`."""
    parser = argparse.ArgumentParser(prog="qa-bench")
    register(parser.add_subparsers(dest="bench", required=True))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except AgentError as error:
        print(f"qa-bench: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
