"""``lingualite reproduce`` for the studies of paper 001 (Table 3, Fig. 3): the shell over
:func:`lingualite.reproduce.studies.run_study`, with the paper's per-stage measures
(:func:`lingualite.cli.train_commands.paper_set_evaluator`) passed in from the CLI layer."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer

from lingualite.cli.common import emit


def study_rows() -> dict[str, dict[str, Any]]:
    """The shipped studies for ``--list``."""
    from lingualite.reproduce.study_spec import list_studies, load_study

    rows = {}
    for name in list_studies():
        study = load_study(name)
        runs = len(study.rows(next(iter(study.scales))))
        rows[name] = {"cells": runs, "scales": ",".join(study.scales), "title": study.title}
    return rows


def reproduce_study(
    name: str,
    scale: str,
    output: Path | None,
    rows: list[str] | None,
    flags: dict[str, Any],
    data_dir: Path | None,
    as_json: bool,
) -> None:
    """Run (or, with ``flags["dry_run"]``, plan) study ``name``; ``flags``: resume, force, dry_run, threads,
    device, reuse_from (refused: a study reuses nothing)."""
    from lingualite.cli.train_commands import paper_set_evaluator
    from lingualite.reproduce.studies import plan_study, run_study
    from lingualite.reproduce.study_spec import load_study

    if flags["reuse_from"]:
        raise ValueError("--reuse-from: a study's runs are its own (only sweep tables reuse cells)")
    spec = load_study(name)
    spec.scale(scale)
    output = output or Path("runs/reproduce") / f"{spec.name}-{scale}"
    if flags["dry_run"]:
        plan = plan_study(spec, scale, output, data_dir, flags.get("device", "auto"))
        shown = {k: {**v, "changed": ", ".join(v.get("changed", []))} for k, v in plan.items()}
        emit({"table": spec.name, "scale": scale, "output": str(output), "dry_run": True, "cells": shown},
             f"Plan of {spec.name} ({scale})", as_json)  # fmt: skip
        return
    before = plan_study(spec, scale, output, data_dir, flags.get("device", "auto"))
    run_study(
        spec,
        scale,
        output,
        data_dir=data_dir,
        rows=rows,
        resume=flags["resume"],
        force=flags["force"],
        stage_tasks=paper_set_evaluator(),
        threads=flags["threads"],
        progress=lambda line: typer.echo(line, err=True),
        bars=sys.stderr.isatty(),
        device=flags.get("device", "auto"),
    )
    summary = {
        "table": spec.name,
        "scale": scale,
        "output": str(output),
        "markdown": str(output / "table.md"),
    }
    cells = {k: {"before": v["state"]} for k, v in before.items()}
    emit({**summary, "cells": cells}, f"Reproduced {spec.name} ({scale})", as_json)
