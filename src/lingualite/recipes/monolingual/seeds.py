"""Several seeds of the monolingual recipe, one figure per stage (issue #16: paper 001's measures are reported as
a mean over 3 seeds): :func:`aggregate_stages` reads each run's ``stages.jsonl`` rows and gives the mean, the
sample standard deviation, the range and the per-seed values of every figure, plus the change of each figure
from stage 1 (``classification``), taken seed by seed; :func:`seeds_markdown` renders it and
:func:`seeds_plot` draws it in the shape of paper 001's Fig. 3 (each measure over the stages).
``benchmarks/monolingual_seeds.py`` runs the seeds and writes both.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.io_utils import write_figure
from lingualite.recipes.monolingual.paper_measures import KINDS, TABLE_KEYS

BASE_STAGE = "classification"
COLUMNS = (
    "classify_zero_shot",
    "pairs_zero_shot",
    "valid_xsr_p_at_1",
    "mined_true_precision",
    "mined_true_precision_same_count",
)
PLOTTED = {
    "classify_zero_shot": "zero-shot classification (mean of the sets)",
    "pairs_zero_shot": "paraphrase pairs (accuracy)",
    "valid_xsr_p_at_1": "validation XSR P@1",
    "mined_true_precision": "true precision of the mined pairs",
}


def _figures(row: dict[str, Any]) -> dict[str, float]:
    return {
        k: float(v)
        for k, v in row.items()
        if isinstance(v, int | float)
        and not isinstance(v, bool)
        and (k in TABLE_KEYS or (k.count("/") == 1 and k.split("/")[0] in KINDS))
    }


def _spread(values: list[float]) -> dict[str, Any]:
    a = np.asarray(values, dtype=np.float64)
    return {
        "mean": round(float(a.mean()), 4),
        "std": round(float(a.std(ddof=1)), 4) if len(a) > 1 else 0.0,
        "min": round(float(a.min()), 4),
        "max": round(float(a.max()), 4),
        "n": len(a),
        "values": [round(float(v), 4) for v in a],
    }


def aggregate_stages(runs: dict[int, list[dict[str, Any]]]) -> dict[str, Any]:
    """``runs``: seed -> that run's stage rows. Returns ``{"seeds", "stages": {stage: {figure: spread}},
    "change_from_stage_1": {stage: {figure: spread of (stage - classification) per seed}}}``; a figure is
    aggregated over the seeds that have it (``n`` says how many)."""
    order: list[str] = []
    per_stage: dict[str, dict[str, list[float]]] = {}
    change: dict[str, dict[str, list[float]]] = {}
    for rows in runs.values():
        by_stage = {row["stage"]: _figures(row) for row in rows}
        base = by_stage.get(BASE_STAGE, {})
        for stage, figures in by_stage.items():
            if stage not in order:
                order.append(stage)
            for key, value in figures.items():
                per_stage.setdefault(stage, {}).setdefault(key, []).append(value)
                if stage.startswith("iteration-") and key in base:
                    change.setdefault(stage, {}).setdefault(key, []).append(value - base[key])
    return {
        "seeds": sorted(runs),
        "stages": {
            s: {k: _spread(v) for k, v in sorted(per_stage[s].items())} for s in order if s in per_stage
        },
        "change_from_stage_1": {
            s: {k: _spread(v) for k, v in sorted(change[s].items())} for s in order if s in change
        },
    }


def _cell(spread: dict[str, Any] | None) -> str:
    if spread is None:
        return "–"
    return f"{spread['mean']:.3f} ± {spread['std']:.3f}" if spread["n"] > 1 else f"{spread['mean']:.3f}"


def seeds_markdown(result: dict[str, Any], title: str | None = None) -> str:
    """Stage by stage, mean ± sample std over the seeds, then the change from stage 1; under a ``# title``
    heading when one is given."""
    head = "| stage | " + " | ".join(COLUMNS) + " |"
    rule = "|---|" + "---:|" * len(COLUMNS)
    lines = [f"# {title}", ""] if title else []
    lines += [f"Seeds: {', '.join(map(str, result['seeds']))}; mean ± sample std.", ""]
    lines += [head, rule]
    for stage, figures in result["stages"].items():
        lines.append(f"| {stage} | " + " | ".join(_cell(figures.get(c)) for c in COLUMNS) + " |")
    if result["change_from_stage_1"]:
        lines += ["", f"Change from stage 1 ({BASE_STAGE}), seed by seed:", "", head, rule]
        for stage, figures in result["change_from_stage_1"].items():
            lines.append(f"| {stage} | " + " | ".join(_cell(figures.get(c)) for c in COLUMNS) + " |")
    return "\n".join(lines) + "\n"


def seeds_plot(result: dict[str, Any], title: str, path: str | Path) -> None:
    """Paper 001's Fig. 3 shape: one panel per measure of :data:`PLOTTED`, the stages on the x axis, each
    seed's value as a point and the mean ± sample std as a line with error bars; written atomically (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    stages = list(result["stages"])  # "initial" (random weights) shows the measures it has: XSR
    fig, axes = plt.subplots(1, len(PLOTTED), figsize=(3.4 * len(PLOTTED), 3.0), squeeze=False)
    for ax, (key, label) in zip(axes.flat, PLOTTED.items(), strict=True):
        shown = [(i, result["stages"][s][key]) for i, s in enumerate(stages) if key in result["stages"][s]]
        if shown:
            x = [i for i, _ in shown]
            ax.errorbar(x, [f["mean"] for _, f in shown], yerr=[f["std"] for _, f in shown], capsize=3)
            for i, figure in shown:
                ax.scatter([i] * len(figure["values"]), figure["values"], s=10, color="C1", zorder=3)
        ax.set_xticks(range(len(stages)), stages, rotation=20, fontsize=7)
        ax.set_title(label, fontsize=9)
    fig.suptitle(f"{title}: mean ± sample std over seeds {', '.join(map(str, result['seeds']))}", fontsize=10)
    fig.tight_layout()
    write_figure(path, fig)
