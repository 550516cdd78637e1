"""The Markdown report of a HotpotQA comparison: the per-method tables (mean ± std
across seeds, from `graph.evaluation.metrics`), the definitions, plots and configuration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from graph.evaluation.metrics import METRIC_LABELS

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
