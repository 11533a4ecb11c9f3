"""What every cell of a sweep is evaluated on: the table's evaluation settings resolved to files and checked
before any cell runs, the evaluator's signature, and the flat metric names a table's columns refer to.

The evaluation itself is passed in (an :data:`Evaluator`): :mod:`lingualite.evaluation` is a leaf that only the
CLI, the quickstart and the report import; :func:`lingualite.cli.reproduce_commands.cell_evaluator` is the
one ``lingualite reproduce`` uses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lingualite.config.loading import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.errors import LinguaLiteError
from lingualite.reproduce.table import TableSpec

__all__ = ["EvaluationInputs", "Evaluator", "evaluation_inputs", "evaluation_settings", "flat_metrics"]


@dataclass
class EvaluationInputs:
    """The files every cell is evaluated on, resolved and checked before any cell runs.

    :param classify: set name -> (``train.en.tsv``, the ``test.<lang>.tsv`` files)."""

    xsr_files: list[Path]
    max_test_pairs: int | None
    seed: int
    classify: dict[str, tuple[Path, list[Path]]] = field(default_factory=dict)
    classify_max_docs: int | None = None
    sts_files: list[Path] = field(default_factory=list)


Evaluator = Callable[[Path, EvaluationInputs], dict[str, Any]]
"""``evaluate(model_folder, inputs)``: the cell's evaluation metrics as one flat mapping
(``xsr/<test>/<metric>``, ``classify/<set>/<lang>/<metric>``, ``sts/<test>/<metric>``; :func:`flat_metrics`
builds it)."""


def flat_metrics(prefix: str, result: dict[str, Any]) -> dict[str, float]:
    """``{prefix}/{metric}`` for the means and ``{prefix}/{test}/{metric}`` for each entry of ``per_test``
    (the shape of :mod:`lingualite.evaluation.suite`'s results); numbers only."""
    flat = {f"{prefix}/{k}": v for k, v in result.items() if isinstance(v, int | float)}
    for name, row in (result.get("per_test") or {}).items():
        flat.update({f"{prefix}/{name}/{k}": v for k, v in row.items() if isinstance(v, int | float)})
    return flat


def evaluation_settings(table: TableSpec, scale: str, data_dir: str | Path | None) -> dict[str, Any]:
    """What the evaluation of every cell depends on (part of each cell's key)."""
    root = str(Path(data_dir) if data_dir is not None else default_data_dir())
    spec = table.evaluation
    settings: dict[str, Any] = {
        "xsr": "square protocol, nn (cosine)",
        "test_files": [p.replace(DATA_DIR_PLACEHOLDER, root) for p in spec.test_files],
        "max_test_pairs": table.scale(scale).max_test_pairs,
        "seed": spec.seed,
    }
    if spec.classify:  # only when used, so that tables without it keep their keys
        settings["classify"] = [p.replace(DATA_DIR_PLACEHOLDER, root) for p in spec.classify]
        settings["classify_protocol"] = "logreg, train.en.tsv, mean of 5 seeds"
        settings["classify_max_docs"] = spec.classify_max_docs
    if spec.sts:
        settings["sts"] = [p.replace(DATA_DIR_PLACEHOLDER, root) for p in spec.sts]
    return settings


def evaluation_inputs(settings: dict[str, Any]) -> EvaluationInputs:
    """The files of :func:`evaluation_settings`, checked: a missing one is an error naming it (before any
    cell trains, so a sweep never trains a model it cannot evaluate)."""
    from lingualite.data.pairs import expand_files

    classify = {}
    for folder in map(Path, settings.get("classify", [])):
        train, tests = folder / "train.en.tsv", sorted(folder.glob("test.*.tsv"))
        if not train.is_file() or not tests:
            raise LinguaLiteError(
                f"{folder}: no classification set here (train.en.tsv and test.<lang>.tsv); "
                "`lingualite data eval-sets` writes them"
            )
        classify[folder.name] = (train, tests)
    return EvaluationInputs(
        expand_files(settings["test_files"], "test"),
        settings["max_test_pairs"],
        settings["seed"],
        classify,
        settings.get("classify_max_docs"),
        expand_files(settings["sts"], "STS") if settings.get("sts") else [],
    )
