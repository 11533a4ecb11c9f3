"""``lingualite reproduce TABLE``: run (or plan) one paper table's sweep or one study, and render its table.

:func:`reproduce` is what the command calls: a sweep table (:func:`lingualite.reproduce.run_sweep`, each cell
evaluated by :func:`lingualite.reproduce.protocols.cell_evaluator`) or a study of paper 001
(:func:`lingualite.reproduce.studies.run_study`, with :func:`~lingualite.reproduce.protocols.paper_set_evaluator`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["reproduce"]


def reproduce(
    table: str,
    scale: str = "cpu",
    output: Path | None = None,
    cells: list[str] | None = None,
    *,
    resume: bool = False,
    force: bool = False,
    dry_run: bool = False,
    reuse_from: list[Path] | None = None,
    no_reuse: bool = False,
    threads: int | None = None,
    data_dir: Path | None = None,
    device: str = "auto",
    progress: Callable[[str], None] | None = None,
    skip_bad: bool = False,
) -> tuple[str, dict[str, Any]]:
    """Run table ``table`` at ``scale`` into ``output`` (default ``runs/reproduce/TABLE-SCALE``), or only plan
    it (``dry_run``). Returns a title and what to show: each cell's plan, or its state before the run and the
    rendered table's files. ``reuse_from``: sweep folders whose finished cells a new cell may copy (default:
    the folders beside ``output``; none with ``no_reuse``; a study reuses nothing). ``skip_bad``: a test line
    with no token the model knows, or a malformed one, is skipped and counted instead of stopping the cell
    (:func:`~lingualite.reproduce.protocols.cell_evaluator`); each cell's count is in the result
    (``skipped``) and in ``table.md``. It is not part of a cell's key: without it such a cell stops and has no
    result, so a finished cell is the same either way but for the count it records."""
    from lingualite.reproduce.study_spec import is_study

    progress = progress or (lambda line: print(line, file=sys.stderr, flush=True))
    if is_study(table):
        if reuse_from:
            raise ValueError("--reuse-from: a study's runs are its own (only sweep tables reuse cells)")
        if skip_bad:
            raise ValueError(
                "--skip-bad applies to sweep tables (their test files); a study's measures, classification "
                "and pair classification on the sets `lingualite data eval-sets` writes, have no such option"
            )
        return _study(
            table, scale, output, cells, resume, force, dry_run, threads, data_dir, device, progress
        )
    from lingualite.reproduce import load_table, render_table, run_sweep
    from lingualite.reproduce.plans import sweep_plan
    from lingualite.reproduce.protocols import cell_evaluator

    spec = load_table(table)
    spec.scale(scale)
    output = output or Path("runs/reproduce") / f"{spec.name}-{scale}"
    reuse = [] if no_reuse else (reuse_from or [output.parent])
    if dry_run:
        return f"Plan of {spec.name} ({scale})", sweep_plan(
            spec, scale, output, data_dir, cells, reuse, device
        )
    plans = run_sweep(
        spec,
        scale,
        output,
        cell_evaluator(threads, device, skip_bad),
        data_dir=data_dir,
        cells=cells,
        resume=resume,
        force=force,
        reuse=reuse,
        threads=threads,
        progress=progress,
        on_done=lambda: render_table(spec, scale, output),
        device=device,
    )
    states = {p.cell.name: {"before": p.state, **_skipped(p.folder)} for p in plans}
    return f"Reproduced {spec.name} ({scale})", _summary(spec.name, scale, output, states)


def _skipped(folder: Path) -> dict[str, int]:
    """``{"skipped": N}`` where the cell's result counts test lines skipped as bad input (``--skip-bad``)."""
    from lingualite.reproduce.cells import read_result

    result = read_result(folder) or {}
    skipped = (result.get("metrics") or {}).get("evaluation/skipped")
    return {"skipped": skipped} if isinstance(skipped, int) else {}


def _summary(name: str, scale: str, output: Path, cells: dict[str, Any]) -> dict[str, Any]:
    markdown = str(output / "table.md")
    return {"table": name, "scale": scale, "output": str(output), "markdown": markdown, "cells": cells}


def _study(
    name: str,
    scale: str,
    output: Path | None,
    rows: list[str] | None,
    resume: bool,
    force: bool,
    dry_run: bool,
    threads: int | None,
    data_dir: Path | None,
    device: str,
    progress: Callable[[str], None],
) -> tuple[str, dict[str, Any]]:
    from lingualite.reproduce.protocols import paper_set_evaluator
    from lingualite.reproduce.studies import plan_study, run_study
    from lingualite.reproduce.study_spec import load_study

    spec = load_study(name)
    spec.scale(scale)
    output = output or Path("runs/reproduce") / f"{spec.name}-{scale}"
    before = plan_study(spec, scale, output, data_dir, device)
    if dry_run:
        shown = {k: {**v, "changed": ", ".join(v.get("changed", []))} for k, v in before.items()}
        plan = {"table": spec.name, "scale": scale, "output": str(output), "dry_run": True, "cells": shown}
        return f"Plan of {spec.name} ({scale})", plan
    run_study(
        spec,
        scale,
        output,
        data_dir=data_dir,
        rows=rows,
        resume=resume,
        force=force,
        stage_tasks=paper_set_evaluator(),
        threads=threads,
        progress=progress,
        bars=sys.stderr.isatty(),
        device=device,
    )
    cells = {k: {"before": v["state"]} for k, v in before.items()}
    return f"Reproduced {spec.name} ({scale})", _summary(spec.name, scale, output, cells)
