"""Per-method figures across seeds (EM, F1, rates, precisions, costs) from episode records.

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
