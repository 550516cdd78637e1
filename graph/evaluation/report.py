"""Per-method figures across seeds, and the Markdown report.

Each figure is computed per seed over the questions, then reported as the
mean and the sample standard deviation of those per-seed values (`std` is
None with one seed). Rates whose denominator is empty in a seed (no Finish,
no verified answer, a method without tools) are None for that seed and left
out of the mean. An agent episode ends `verified`, `grounded` or otherwise
(unverified, a budget, an error): each has its rate and its precision (EM).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Episode = Mapping[str, Any]

METRIC_LABELS = {
    "em": "EM",
    "f1": "F1",
    "finish_rate": "finish rate",
    "invalid_action_rate": "invalid-action rate",
    "unsupported_finish_rate": "unsupported-Finish rate",
    "verified_rate": "verified rate",
    "verified_precision": "precision of verified answers",
    "grounded_rate": "grounded rate",
    "grounded_precision": "precision of grounded answers",
    "unverified_rate": "unverified rate",
    "unverified_precision": "precision of unverified answers",
    "fallback_rate": "fallback rate",
    "steps": "steps",
    "model_calls": "model calls",
    "prompt_tokens": "prompt tokens",
    "completion_tokens": "completion tokens",
    "tokens": "tokens",
    "latency_s": "latency (s)",
    "wikipedia_requests": "Wikipedia requests",
    "wikipedia_cache_hits": "Wikipedia cache hits",
}
DEFINITIONS = {
    "em": "exact match of the final answer with the gold answer (HotpotQA normalisation)",
    "f1": "token F1 of the final answer (HotpotQA normalisation)",
    "finish_rate": "share of episodes that ended on an answer (Finish, or an Answer: line)",
    "invalid_action_rate": "invalid actions / actions taken",
    "unsupported_finish_rate": "share of episodes with a Finish in which the verifier "
    "rejected at least one Finish",
    "verified_rate": "share of episodes whose final answer the verifier accepted",
    "verified_precision": "EM among the answers the verifier accepted",
    "grounded_rate": "share of episodes that ended grounded (the evidence states the answer, "
    "nothing tied it to the question)",
    "grounded_precision": "EM among the grounded answers",
    "unverified_rate": "share of episodes that ended neither verified nor grounded",
    "unverified_precision": "EM among the episodes that ended neither verified nor grounded",
    "fallback_rate": "share of episodes where ReAct did not finish and CoT answered",
    "steps": "actions per agent episode (Finish, invalid and refused actions included)",
    "tokens": "prompt + completion tokens per question",
    "latency_s": "wall time per question, rate-limit waits excluded",
}
TABLE_COLUMNS = (
    "em",
    "f1",
    "finish_rate",
    "invalid_action_rate",
    "unsupported_finish_rate",
    "verified_precision",
    "grounded_precision",
    "steps",
    "tokens",
    "latency_s",
)
TABLE_HEADERS = (
    "EM",
    "F1",
    "Finish",
    "Invalid act.",
    "Unsupp. Finish",
    "Verified prec.",
    "Grounded prec.",
    "Steps",
    "Tokens/q",
    "Latency s",
)
OUTCOME_COLUMNS = (
    "verified_rate",
    "verified_precision",
    "grounded_rate",
    "grounded_precision",
    "unverified_rate",
    "unverified_precision",
)
OUTCOME_HEADERS = (
    "Verified",
    "Verified prec.",
    "Grounded",
    "Grounded prec.",
    "Unverified",
    "Unverified prec.",
)
_MEANS = (
    "model_calls",
    "prompt_tokens",
    "completion_tokens",
    "tokens",
    "latency_s",
    "wikipedia_requests",
    "wikipedia_cache_hits",
)


def _mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return sum(items) / len(items) if items else None


def _ratio(numerator: float, denominator: float) -> float | None:
    return numerator / denominator if denominator else None


def seed_metrics(episodes: Sequence[Episode]) -> dict[str, float | None]:
    """Every figure of one method and seed, over its episodes."""
    acting = [e for e in episodes if e["invalid_actions"] is not None]
    finishing = [e for e in episodes if e["issued_finish"]]
    judged = [e for e in episodes if e["verified"] is not None]
    verified = [e for e in judged if e["verified"]]
    grounded = [e for e in judged if e.get("grounded")]  # older records have no key
    unverified = [e for e in judged if not e["verified"] and not e.get("grounded")]
    backing_off = [e for e in episodes if e["fell_back"] is not None]
    metrics: dict[str, float | None] = {
        "em": _mean(e["em"] for e in episodes),
        "f1": _mean(e["f1"] for e in episodes),
        "finish_rate": _mean(float(e["finished"]) for e in episodes),
        "invalid_action_rate": _ratio(
            sum(e["invalid_actions"] for e in acting), sum(e["steps"] for e in acting)
        ),
        "unsupported_finish_rate": _mean(float(e["unsupported_finish"]) for e in finishing),
        "verified_rate": _mean(float(bool(e["verified"])) for e in judged),
        "verified_precision": _mean(e["em"] for e in verified),
        "grounded_rate": _mean(float(bool(e.get("grounded"))) for e in judged),
        "grounded_precision": _mean(e["em"] for e in grounded),
        "unverified_rate": _ratio(len(unverified), len(judged)),
        "unverified_precision": _mean(e["em"] for e in unverified),
        "fallback_rate": _mean(float(e["fell_back"]) for e in backing_off),
        "steps": _mean(float(e["steps"]) for e in acting),
    }
    for name in _MEANS:
        metrics[name] = _mean(_value(e, name) for e in episodes)
    return metrics


def _value(episode: Episode, name: str) -> float:
    if name == "tokens":
        return float(episode["prompt_tokens"] + episode["completion_tokens"])
    return float(episode[name])


def spread(values: Sequence[float | None]) -> dict[str, Any]:
    """Mean and sample std of the per-seed values that exist, with the values."""
    present = [v for v in values if v is not None]
    return {
        "mean": _mean(present),
        "std": statistics.stdev(present) if len(present) > 1 else None,
        "per_seed": list(values),
    }


def summarize(
    episodes: Iterable[Episode],
    methods: Sequence[str],
    seeds: Sequence[int],
    question_ids: Sequence[str],
) -> dict[str, Any]:
    """Per-method figures with their spread across seeds.

    Only episodes of the given questions, methods and seeds count, one per
    (question, method, seed).
    """
    by_key = _by_method_and_seed(episodes, question_ids)
    result: dict[str, Any] = {}
    for method in methods:
        runs = [by_key.get((method, seed), []) for seed in seeds]
        per_seed = [seed_metrics(run) for run in runs]
        result[method] = {
            "episodes": sum(len(run) for run in runs),
            "expected_episodes": len(set(question_ids)) * len(seeds),
            "errors": sum(e["status"] == "error" for run in runs for e in run),
            "metrics": {name: spread([m[name] for m in per_seed]) for name in METRIC_LABELS},
        }
    return result


def steps_by_method(
    episodes: Iterable[Episode],
    methods: Sequence[str],
    seeds: Sequence[int],
    question_ids: Sequence[str],
) -> dict[str, list[int]]:
    """Steps of each counted episode (as `summarize` counts them), by method."""
    by_key = _by_method_and_seed(episodes, question_ids)
    return {
        method: [int(e["steps"]) for seed in seeds for e in by_key.get((method, seed), [])]
        for method in methods
    }


def _by_method_and_seed(
    episodes: Iterable[Episode], question_ids: Sequence[str]
) -> dict[tuple[str, int], list[Episode]]:
    wanted = set(question_ids)
    by_key: dict[tuple[str, int], list[Episode]] = {}
    for episode in episodes:
        if episode["question_id"] in wanted:
            by_key.setdefault((episode["method"], episode["seed"]), []).append(episode)
    return by_key


def _cell(figure: Mapping[str, Any], name: str) -> str:
    mean, std = figure["mean"], figure["std"]
    if mean is None:
        return "—"
    digits = 0 if name == "tokens" else 1 if name == "steps" else 2 if name == "latency_s" else 3
    text = f"{mean:.{digits}f}"
    return text + (f" ± {std:.{digits}f}" if std is not None else "")


def markdown_table(
    methods_summary: Mapping[str, Any],
    columns: Sequence[str] = TABLE_COLUMNS,
    headers: Sequence[str] = TABLE_HEADERS,
) -> str:
    """The per-method table of `columns`: mean ± std across seeds."""
    lines = [
        "| Method | " + " | ".join(headers) + " |",
        "|---|" + "---:|" * len(headers),
    ]
    for method, data in methods_summary.items():
        cells = [_cell(data["metrics"][name], name) for name in columns]
        lines.append(f"| {method} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _config_lines(config: Mapping[str, Any]) -> list[str]:
    shown = (
        "model",
        "methods",
        "data",
        "questions",
        "excluded_prompt_questions",
        "seeds",
        "sample_seed",
        "temperature",
        "max_steps",
        "max_tokens",
        "source",
        "concurrency",
        "seed_reaches_model",
        "prompts_sha256",
    )
    lines = []
    for key in shown:
        value = config.get(key)
        if key == "questions":
            value = f"{len(config[key])} (their ids are in summary.json)"
        elif isinstance(value, list | tuple):
            value = ", ".join(str(v) for v in value)
        lines.append(f"- {key.replace('_', ' ')}: `{value}`")
    return lines


def markdown_report(summary: Mapping[str, Any], plots: Sequence[str], banner: str = "") -> str:
    """The whole report: banner, table, definitions, plots and configuration."""
    config = summary["config"]
    methods_summary = summary["methods"]
    lines = ["# HotpotQA comparison: " + ", ".join(methods_summary), ""]
    if banner:
        lines += [f"> **{banner}**", ""]
    seeds = len(config["seeds"])
    lines += [
        f"{len(config['questions'])} questions x {seeds} seed(s) per method; each cell is the "
        "mean over seeds" + (" ± the standard deviation across seeds." if seeds > 1 else "."),
        "",
        markdown_table(methods_summary),
        "",
        "How agent episodes ended, and the precision (EM) of each outcome:",
        "",
        markdown_table(methods_summary, OUTCOME_COLUMNS, OUTCOME_HEADERS),
        "",
    ]
    incomplete = [
        f"{m} ({d['episodes']}/{d['expected_episodes']})"
        for m, d in methods_summary.items()
        if d["episodes"] < d["expected_episodes"]
    ]
    errors = [f"{m} ({d['errors']})" for m, d in methods_summary.items() if d["errors"]]
    if incomplete:
        lines += [f"Incomplete (episodes done/expected): {', '.join(incomplete)}.", ""]
    if errors:
        lines += [
            f"Episodes that ended in a model error (scored as wrong): {', '.join(errors)}.",
            "",
        ]
    lines += ["Definitions:", ""]
    defined = dict.fromkeys([*TABLE_COLUMNS, *OUTCOME_COLUMNS])
    lines += [f"- {METRIC_LABELS[name]}: {DEFINITIONS[name]}" for name in defined]
    lines += ["- —: not applicable (no tools, no verifier, or no Finish in any seed)", ""]
    lines += [f"![{name}]({name})" for name in plots]
    lines += ["", "Configuration:", "", *_config_lines(config), ""]
    return "\n".join(lines)
