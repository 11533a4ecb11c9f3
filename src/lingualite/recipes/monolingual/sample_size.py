"""Paper 001's Table 3, the size of samples m: how many sentences per language each mining round samples (the
paper's m x m CSLS blocks, ``mining.method: blocks``) changes the mined pairs and the model after one
coherence-regression iteration.

Every point starts from the SAME classification-stage weights (a base run's): :func:`start_point` copies them
into the point's folder and :func:`point_config` sets ``mining.sample_size = m`` and one iteration, so resuming
the point with :func:`lingualite.recipes.monolingual.train_monolingual.train_monolingual` runs exactly that iteration (nothing
re-implemented). :func:`precision_at_mining_time` measures the mining rule's gold precision with the weights
mining uses; :func:`sample_size_markdown` and :func:`sample_size_plot` render the study
(``lingualite reproduce 001-table3``).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

from lingualite.config import MonolingualConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_dir, write_figure, write_json
from lingualite.core.ownership import write_marker
from lingualite.models.run_folder import RunFolder

__all__ = [
    "point_config",
    "precision_at_mining_time",
    "precisions_at_mining",
    "sample_size_markdown",
    "sample_size_plot",
    "start_point",
]

STAGE_1 = ("initial", "classification")
PRECISION_FILE = "precision_at_mining.json"  # in a point's folder: measured once


def point_config(cfg: MonolingualConfig, m: int, target_pairs: int, steps: int) -> MonolingualConfig:
    """The base config with m sentences per language per mining round and ONE iteration of ``steps``."""
    mining = dataclasses.replace(
        cfg.mining,
        sample_size=m,
        pool_size=max(cfg.mining.pool_size, m),
        target_pairs=target_pairs,
        iterations=1,
    )
    regression = dataclasses.replace(cfg.regression, max_steps=steps)
    return dataclasses.replace(cfg, mining=mining, regression=regression)


def stage_1_rows(base: Path) -> list[dict[str, Any]]:
    """The base run's ``initial`` and ``classification`` rows; an error if its stage 1 has not finished."""
    source = RunFolder(base)
    rows = [r for r in source.read_stages() if r["stage"] in STAGE_1]
    if not source.checkpoints("classification") or len(rows) < len(STAGE_1):
        raise LinguaLiteError(f"{base}: its classification stage has not finished")
    return rows


def start_point(base: Path, folder: Path) -> None:
    """Make ``folder`` a monolingual run whose classification stage is ``base``'s final one (its last
    checkpoint, tokenizer and stage rows), ready to be resumed into one iteration; written through
    :func:`~lingualite.core.io_utils.atomic_dir`, so an interrupted copy leaves nothing half made."""
    source, rows = RunFolder(base), stage_1_rows(base)
    final = source.checkpoints("classification")[-1]
    with atomic_dir(folder) as staging:
        point = RunFolder(staging)
        point.checkpoints_dir("classification").mkdir(parents=True)
        shutil.copytree(final, point.checkpoints_dir("classification") / final.name)
        shutil.copytree(source.tokenizer_dir, point.tokenizer_dir)
        write_marker(staging, "monolingual")
        for row in rows:
            point.append_stage(row)


def precisions_at_mining(base: Path, cfg: MonolingualConfig, points: dict[int, Path]) -> dict[int, float]:
    """:func:`precision_at_mining_time` for each point folder (m -> folder), measured once: read from the
    point's ``precision_at_mining.json``, the missing ones measured in one pass and saved there."""
    known: dict[int, float] = {}
    for m, folder in points.items():
        if (folder / PRECISION_FILE).is_file():
            known[m] = float(json.loads((folder / PRECISION_FILE).read_text(encoding="utf-8"))["precision"])
    missing = [m for m in points if m not in known]
    for m, value in (precision_at_mining_time(base, cfg, missing) if missing else {}).items():
        write_json(points[m] / PRECISION_FILE, {"m": m, "precision": value})
        known[m] = value
    return known


def precision_at_mining_time(base: Path, cfg: MonolingualConfig, sizes: list[int]) -> dict[int, float]:
    """The mining rule's gold precision for each m with the weights mining uses (``base``'s classification
    stage), on the validation pairs: m sentences of each side sampled independently, the top
    min(m * m, ``pairs_per_round``) CSLS pairs kept (m capped at the number of gold pairs)."""
    from safetensors.torch import load_model

    from lingualite.models.context_encoder import ContextEncoder
    from lingualite.recipes.monolingual.stage_evaluator import StageEvaluator
    from lingualite.tokenization import load_tokenizer

    source = RunFolder(base)
    tokenizer = load_tokenizer(source.tokenizer_dir)
    shape = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
    model = ContextEncoder(shape, cfg.model.pooling, sentence_length=cfg.context.sentence_length)
    load_model(model, str(source.checkpoints("classification")[-1] / "model.safetensors"))
    evaluator = StageEvaluator(cfg, tokenizer)
    return {m: float(evaluator(model, sample_size=m)["mined_precision"]) for m in sizes}


_COLUMNS = (  # (key of a point's row, header)
    ("precision_at_mining", "mined-pair precision (gold, at mining)"),
    ("mined_true_precision", "true precision of the mined training pairs"),
    ("valid_xsr_p_at_1", "valid XSR P@1"),
    ("classify_zero_shot", "zero-shot classification"),
    ("pairs_zero_shot", "paraphrase pairs"),
    ("mined_cosine_mean", "mined cosine"),
    ("mining_seconds", "mining s"),
)


def _number(value: Any, key: str) -> str:
    if not isinstance(value, int | float):
        return "–"
    return f"{value:.0f}" if key.endswith("seconds") else f"{value:.3f}"


def sample_size_markdown(result: dict[str, Any], paper: dict[str, dict[str, float]]) -> str:
    """Stage 1, then one row per m (after its one iteration); the paper's rows (its own task and languages)
    below, by m."""
    keep = result["pairs_per_round"]
    lines = [
        "| m | kept per round | " + " | ".join(h for _, h in _COLUMNS) + " |",
        "|---:|---:|" + "---:|" * len(_COLUMNS),
        "| stage 1 (classification only) | – | – | – | "
        + " | ".join(_number(result["start"].get(k), k) for k, _ in _COLUMNS[2:5])
        + " | – | – |",
    ]
    for p in result["points"]:
        cells = " | ".join(_number(p.get(k), k) for k, _ in _COLUMNS)
        lines.append(f"| {p['m']} | {min(p['m'] ** 2, keep)} | {cells} |")
    if paper:
        sizes = sorted({int(m) for row in paper.values() for m in row})
        lines += ["", "The paper's Table 3 (its task: RCV2 classification accuracy, %):", ""]
        lines += ["| | " + " | ".join(map(str, sizes)) + " |", "|---|" + "---:|" * len(sizes)]
        for label, row in paper.items():
            values = (f"{row[str(m)]:.1f}" if str(m) in row else "–" for m in sizes)
            lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"


def sample_size_plot(result: dict[str, Any], title: str, path: str | Path) -> None:
    """Each measure against m (log scale), stage 1's value as a dashed line; written atomically (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [(k, h) for k, h in _COLUMNS[:5]]
    fig, axes = plt.subplots(1, len(shown), figsize=(3.2 * len(shown), 3.0), squeeze=False)
    sizes = [p["m"] for p in result["points"]]
    for ax, (key, label) in zip(axes.flat, shown, strict=True):
        points = [(m, p[key]) for m, p in zip(sizes, result["points"], strict=True) if key in p]
        if points:
            ax.plot([m for m, _ in points], [v for _, v in points], "o-")
        if key in result["start"]:
            ax.axhline(result["start"][key], color="gray", ls="--", label="stage 1")
            ax.legend(fontsize=7)
        ax.set_xscale("log")
        ax.set_xlabel("m (sentences per language per round)", fontsize=8)
        ax.set_title(label, fontsize=9)
        ax.grid(alpha=0.3)
    fig.suptitle(title, fontsize=10)
    fig.tight_layout()
    write_figure(path, fig)
