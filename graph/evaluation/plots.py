"""PNG plots of a comparison and of the verifier simulation (matplotlib, Agg backend)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

EM_F1_PLOT = "em_f1.png"
EM_TOKENS_PLOT = "em_vs_tokens.png"
STEPS_PLOT = "steps.png"
DPI = 110


def _save(fig: Figure, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=DPI)
    plt.close(fig)


def _figure(methods: Mapping[str, Any], name: str) -> tuple[list[float], list[float]]:
    means = [methods[m]["metrics"][name]["mean"] or 0.0 for m in methods]
    stds = [methods[m]["metrics"][name]["std"] or 0.0 for m in methods]
    return means, stds


def plot_em_f1(methods: Mapping[str, Any], path: Path, subtitle: str) -> None:
    """EM and F1 by method, bars with the std across seeds as error bars."""
    names = list(methods)
    em, em_std = _figure(methods, "em")
    f1, f1_std = _figure(methods, "f1")
    positions = range(len(names))
    width = 0.38
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(names) + 2), 4.2))
    ax.bar([p - width / 2 for p in positions], em, width, yerr=em_std, capsize=4, label="EM")
    ax.bar([p + width / 2 for p in positions], f1, width, yerr=f1_std, capsize=4, label="F1")
    ax.set_xticks(list(positions), names)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("score")
    ax.set_title("EM and F1 by method (error bars: std across seeds)\n" + subtitle, fontsize=10)
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


def plot_em_tokens(methods: Mapping[str, Any], path: Path, subtitle: str) -> None:
    """EM against mean tokens per question, one point per method."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for name in methods:
        metrics = methods[name]["metrics"]
        em, tokens = metrics["em"], metrics["tokens"]
        if em["mean"] is None or tokens["mean"] is None:
            continue
        ax.errorbar(
            tokens["mean"],
            em["mean"],
            xerr=tokens["std"] or 0.0,
            yerr=em["std"] or 0.0,
            fmt="o",
            capsize=4,
            label=name,
        )
    ax.set_xlabel("tokens per question (prompt + completion)")
    ax.set_ylabel("EM")
    ax.set_ylim(0, 1.05)
    ax.set_xlim(left=0)
    ax.set_title("EM against tokens per question\n" + subtitle, fontsize=10)
    ax.legend(fontsize=9, loc="best")
    ax.grid(alpha=0.3)
    _save(fig, path)


def plot_steps(steps_by_method: Mapping[str, Sequence[int]], path: Path, subtitle: str) -> None:
    """How many actions episodes took, per method that acts (grouped bars)."""
    acting = {name: list(values) for name, values in steps_by_method.items() if any(values)}
    fig, ax = plt.subplots(figsize=(7.0, 4.2))
    if acting:
        low = min(min(values) for values in acting.values())
        top = max(max(values) for values in acting.values())
        counts = range(low, top + 1)
        width = 0.8 / len(acting)
        for number, (name, values) in enumerate(acting.items()):
            share = [values.count(c) / len(values) for c in counts]
            offset = (number - (len(acting) - 1) / 2) * width
            ax.bar([c + offset for c in counts], share, width, label=name)
        ax.set_xticks(list(counts))
        ax.legend()
    else:
        ax.text(
            0.5, 0.5, "no method that takes actions was run", ha="center", transform=ax.transAxes
        )
    ax.set_xlabel("steps (actions) in the episode")
    ax.set_ylabel("share of episodes")
    ax.set_title("Distribution of steps\n" + subtitle, fontsize=10)
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path)


def plot_simulation(summary: dict[str, Any], path: Path) -> None:
    """Exact match against p, verifier on and off, with the precision of `verified` and
    `grounded` episodes (verifier on)."""
    fig, ax = plt.subplots(figsize=(6.4, 4.4))
    for mode, style in (("on", "o-"), ("off", "s--")):
        runs = [run for run in summary["runs"] if run["verifier"] == mode]
        ax.plot([r["p"] for r in runs], [r["em"] for r in runs], style, label=f"verifier {mode}")
    for status, style in (("verified", "^:"), ("grounded", "v:")):
        key = f"{status}_precision"
        on = [r for r in summary["runs"] if r["verifier"] == "on" and r[key] is not None]
        if on:
            ax.plot(
                [r["p"] for r in on],
                [r[key] for r in on],
                style,
                label=f"precision of {status} (on)",
            )
    ax.plot([0, 1], [0, 1], color="grey", linewidth=0.6, label="first answer (EM = p)")
    settings = summary["settings"]
    ax.set_xlabel("p: chance the first answer is gold")
    ax.set_ylabel("exact match of the final answer")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.05)
    ax.set_title(
        f"Simulated policies through the graph ({settings['questions']} questions)\n"
        f"keep {settings['keep']}, p_switch {settings['p_switch']}",
        fontsize=10,
    )
    ax.legend(fontsize=9, loc="best")
    ax.grid(alpha=0.3)
    path.parent.mkdir(parents=True, exist_ok=True)
    _save(fig, path)


def write_plots(
    methods: Mapping[str, Any],
    steps_by_method: Mapping[str, Sequence[int]],
    out: Path,
    subtitle: str,
) -> list[str]:
    """Write the three plots into `out`; returns their file names."""
    plot_em_f1(methods, out / EM_F1_PLOT, subtitle)
    plot_em_tokens(methods, out / EM_TOKENS_PLOT, subtitle)
    plot_steps(steps_by_method, out / STEPS_PLOT, subtitle)
    return [EM_F1_PLOT, EM_TOKENS_PLOT, STEPS_PLOT]
