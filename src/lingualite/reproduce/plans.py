"""What ``lingualite reproduce`` shows without running anything: the shipped tables and studies
(:func:`shipped_tables`) and a sweep's plan, cell by cell (:func:`sweep_plan`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["shipped_tables", "sweep_plan"]


def shipped_tables() -> dict[str, Any]:
    """The folder of the shipped tables and, per table or study, its cell count, scales and title."""
    from lingualite.reproduce.table import TABLES_DIR, list_tables, load_table

    rows = {}
    for name in list_tables():
        table = load_table(name)
        rows[name] = {"cells": len(table.cells), "scales": ",".join(table.scales), "title": table.title}
    rows.update(_study_rows())
    return {"folder": str(TABLES_DIR), "tables": rows}


def _study_rows() -> dict[str, dict[str, Any]]:
    """The shipped studies for ``--list``."""
    from lingualite.reproduce.study_spec import list_studies, load_study

    rows = {}
    for name in list_studies():
        study = load_study(name)
        runs = len(study.rows(next(iter(study.scales))))
        rows[name] = {"cells": runs, "scales": ",".join(study.scales), "title": study.title}
    return rows


def sweep_plan(
    table: Any,
    scale: str,
    output: Path,
    data_dir: Path | None,
    cells: list[str] | None,
    reuse: list[Path],
    device: str = "auto",
) -> dict:
    from lingualite.reproduce.sweep import STATES, plan_sweep

    plans = plan_sweep(table, scale, output, data_dir, cells, reuse, device)
    rows = {
        p.cell.name: {
            "state": p.state,
            "what": STATES[p.state] + (f" ({p.donor})" if p.donor is not None else ""),
            "key": p.keys["key"],
            **({"changed": ", ".join(p.changed)} if p.changed else {}),
            "overrides": f"model={p.model} (evaluated, not trained)"
            if p.model
            else ", ".join(
                f"{k}={v}"
                for k, v in {
                    **table.scale(scale).overrides,
                    **p.cell.overrides,
                    **p.cell.scales.get(scale, {}),
                }.items()
            ),
        }
        for p in plans
    }
    return {"table": table.name, "scale": scale, "output": str(output), "dry_run": True, "cells": rows}
