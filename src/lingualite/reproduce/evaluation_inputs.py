"""What every cell of a sweep is evaluated on: the table's evaluation settings resolved to files and checked
before any cell runs, the evaluator's signature, and the flat metric names a table's columns refer to.

The evaluation itself is passed in (an :data:`Evaluator`); :func:`lingualite.reproduce.protocols.cell_evaluator`
is the one ``lingualite reproduce`` uses.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.core.errors import BadInputError, LinguaLiteError
from lingualite.data.eval_files import classification_runs, distractor_files, ir_file
from lingualite.reproduce.table import CellSpec, TableSpec, cell_evaluation

__all__ = [
    "EfficiencyInputs",
    "EvaluationInputs",
    "Evaluator",
    "IrInputs",
    "PooledInputs",
    "evaluation_inputs",
    "evaluation_settings",
    "flat_metrics",
]


@dataclass
class PooledInputs:
    """Pooled XSR (paper 000's Table 4) on ``files``; ``distractors`` are path templates (``{pair}``,
    ``{lang}``) whose files exist for every file and direction."""

    files: list[Path]
    queries: int
    pool: int | None
    distractors: list[str]
    directions: list[str]
    method: str
    k: int | None


@dataclass
class EfficiencyInputs:
    """Efficiency measures (paper 002's Table 3) on ``texts``."""

    texts: list[str]
    single_runs: int
    batch_size: int
    threads: int | None


@dataclass
class IrInputs:
    """Query -> passage retrieval (paper 002's Table 2): ``data``'s queries and each of ``queries`` against
    ``data``'s corpus."""

    data: Path
    queries: list[Path]
    max_queries: int | None
    max_words: int | None


@dataclass
class EvaluationInputs:
    """The files every cell is evaluated on, resolved and checked before any cell runs.

    :param classify: set name -> its folder, scored in each of ``classify_directions``."""

    xsr_files: list[Path]
    max_test_pairs: int | None
    seed: int
    classify: dict[str, Path] = field(default_factory=dict)
    classify_max_docs: int | None = None
    sts_files: list[Path] = field(default_factory=list)
    classify_directions: list[str] = field(default_factory=lambda: ["en2xx"])
    classify_languages: list[str] | None = None
    pooled: PooledInputs | None = None
    efficiency: EfficiencyInputs | None = None
    ir: IrInputs | None = None


Evaluator = Callable[[str | Path, EvaluationInputs], dict[str, Any]]
"""``evaluate(model, inputs)`` (a cell's model folder, or the model a cell names): the cell's evaluation
metrics as one flat mapping (``xsr/<test>/<metric>``, ``classify/<set>/<lang>/<metric>``,
``classify/<set>/xx2en/<lang>/<metric>``, ``sts/<test>/<metric>``, ``xsr_pooled/<test>/<metric>``,
``efficiency/<metric>``, ``ir/<query folder>/<metric>``; :func:`flat_metrics` builds it)."""


def flat_metrics(prefix: str, result: dict[str, Any]) -> dict[str, float]:
    """``{prefix}/{metric}`` for the means and ``{prefix}/{test}/{metric}`` for each entry of ``per_test``
    (the shape of :mod:`lingualite.evaluation.suite`'s results); numbers only."""
    flat = {f"{prefix}/{k}": v for k, v in result.items() if isinstance(v, int | float)}
    for name, row in (result.get("per_test") or {}).items():
        flat.update({f"{prefix}/{name}/{k}": v for k, v in row.items() if isinstance(v, int | float)})
    return flat


def evaluation_settings(
    table: TableSpec, scale: str, data_dir: str | Path | None, cell: CellSpec | None = None
) -> dict[str, Any]:
    """What the evaluation of ``cell`` (default: a cell with no changes of its own) depends on: part of its
    key. Keys of options a table does not use are left out, so older tables keep their cells' keys."""
    root = str(Path(data_dir) if data_dir is not None else default_data_dir())
    spec = cell_evaluation(table, cell, scale) if cell is not None else table.evaluation

    def paths(patterns: list[str]) -> list[str]:
        return [p.replace(DATA_DIR_PLACEHOLDER, root) for p in patterns]

    settings: dict[str, Any] = {
        "xsr": "square protocol, nn (cosine)" if spec.test_files else "none",
        "test_files": paths(spec.test_files),
        "max_test_pairs": table.scale(scale).max_test_pairs,
        "seed": spec.seed,
    }
    if spec.classify:  # only when used, so that tables without it keep their keys
        settings["classify"] = paths(spec.classify)
        settings["classify_protocol"] = "logreg, train.en.tsv, mean of 5 seeds"
        settings["classify_max_docs"] = spec.classify_max_docs
        if spec.classify_directions != ["en2xx"] or spec.classify_languages is not None:
            settings["classify_protocol"] = "logreg, train.<lang>.tsv, mean of 5 seeds"
            settings["classify_directions"] = spec.classify_directions
            settings["classify_languages"] = spec.classify_languages
    if spec.sts:
        settings["sts"] = paths(spec.sts)
    if spec.pooled.test_files:
        pooled = dataclasses.asdict(spec.pooled)
        settings["pooled"] = {
            **pooled,
            "test_files": paths(spec.pooled.test_files),
            "distractors": paths(spec.pooled.distractors),
        }
    if spec.ir.data:
        settings["ir"] = {
            **dataclasses.asdict(spec.ir),
            "data": paths([spec.ir.data])[0],
            "queries": paths(spec.ir.queries),
        }
    if spec.efficiency.texts:
        efficiency = dataclasses.asdict(spec.efficiency)
        settings["efficiency"] = {**efficiency, "texts": paths([spec.efficiency.texts])[0]}
    return settings


def _pooled_inputs(settings: dict[str, Any]) -> PooledInputs:
    from lingualite.data.pairs import expand_files

    files = expand_files(settings["test_files"], "pooled XSR test")
    for file in files:
        for direction in settings["directions"]:
            distractor_files(settings["distractors"], file, direction)  # raises, naming a missing one
    keys = ("queries", "pool", "distractors", "directions", "method", "k")
    return PooledInputs(files, **{key: settings[key] for key in keys})


def _efficiency_inputs(settings: dict[str, Any]) -> EfficiencyInputs:
    path = Path(settings["texts"])
    try:
        with open(path, encoding="utf-8") as fh:
            texts = [t for line in fh if (t := line.split("\t", 1)[0].strip())]
    except (OSError, UnicodeDecodeError) as exc:
        raise LinguaLiteError(f"{path}: cannot read the efficiency sentences ({exc})") from exc
    if not texts:
        raise LinguaLiteError(f"{path}: no sentences for the efficiency measures")
    return EfficiencyInputs(
        texts[: settings["max_texts"]], settings["single_runs"], settings["batch_size"], settings["threads"]
    )


def _ir_inputs(settings: dict[str, Any]) -> IrInputs:
    data, queries = Path(settings["data"]), [Path(q) for q in settings["queries"]]
    try:
        ir_file(data, "corpus.tsv")
        for folder in (data, *queries):
            for name in ("queries.tsv", "qrels.tsv"):
                ir_file(folder, name)
    except BadInputError as exc:
        raise LinguaLiteError(
            f"{exc.path}: missing (IR set of the table; `lingualite data eval-sets` writes it)"
        ) from exc
    return IrInputs(data, queries, settings["max_queries"], settings["max_words"])


def evaluation_inputs(settings: dict[str, Any]) -> EvaluationInputs:
    """The files of :func:`evaluation_settings`, checked: a missing one is an error naming it (before any
    cell trains, so a sweep never trains a model it cannot evaluate)."""
    from lingualite.data.pairs import expand_files

    directions = settings.get("classify_directions", ["en2xx"])
    languages = settings.get("classify_languages")
    classify = {}
    for folder in map(Path, settings.get("classify", [])):
        for direction in directions:
            classification_runs(folder, direction, languages)  # raises, naming what is missing
        classify[folder.name] = folder
    return EvaluationInputs(
        expand_files(settings["test_files"], "test") if settings["test_files"] else [],
        settings["max_test_pairs"],
        settings["seed"],
        classify,
        settings.get("classify_max_docs"),
        expand_files(settings["sts"], "STS") if settings.get("sts") else [],
        directions,
        languages,
        _pooled_inputs(settings["pooled"]) if settings.get("pooled") else None,
        _efficiency_inputs(settings["efficiency"]) if settings.get("efficiency") else None,
        _ir_inputs(settings["ir"]) if settings.get("ir") else None,
    )
