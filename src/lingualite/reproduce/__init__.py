"""Reproduce the papers' tables: one YAML file per table (``lingualite/configs/reproduce/``) holds the grid
of cells (config overrides), the scales it runs at and the paper's numbers; :func:`run_sweep` trains and
evaluates every cell with caching and resume, :func:`render_table` writes the table beside the paper's.

``lingualite reproduce TABLE`` (:func:`lingualite.reproduce.reproduction.reproduce`) runs both.
"""

from __future__ import annotations

from lingualite.reproduce.cells import read_result
from lingualite.reproduce.evaluation_inputs import (
    EvaluationInputs,
    Evaluator,
    evaluation_inputs,
    flat_metrics,
)
from lingualite.reproduce.render import render_table, table_markdown, table_rows
from lingualite.reproduce.sweep import STATES, CellPlan, plan_sweep, run_sweep
from lingualite.reproduce.table import TableSpec, cell_config, list_tables, load_table

__all__ = [
    "STATES",
    "CellPlan",
    "EvaluationInputs",
    "Evaluator",
    "TableSpec",
    "cell_config",
    "evaluation_inputs",
    "flat_metrics",
    "list_tables",
    "load_table",
    "plan_sweep",
    "read_result",
    "render_table",
    "run_sweep",
    "table_markdown",
    "table_rows",
]
