"""``lingualite reproduce``: run one paper table's grid of cells (a YAML file under
``lingualite/configs/reproduce/``), cached and resumable, and render it beside the paper's numbers.

A thin shell over :func:`lingualite.reproduce.run_sweep` and :func:`lingualite.reproduce.render_table`; the
evaluation (:func:`cell_evaluator`: XSR and zero-shot classification through
:mod:`lingualite.evaluation.suite`, as ``lingualite eval`` runs them) is passed in from here, the one layer
allowed to import :mod:`lingualite.evaluation`. Registered on the app in
:mod:`lingualite.cli.main`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lingualite.cli.common import (
    USER_ERRORS,
    DataDirOpt,
    DeviceOpt,
    JsonOpt,
    echo_logs,
    emit,
    fail,
    use_device,
)

if TYPE_CHECKING:
    from lingualite.reproduce import EvaluationInputs, Evaluator


def cell_evaluator(threads: int | None = None, device: str = "auto") -> Evaluator:
    """What a sweep evaluates each cell with, as ``lingualite eval`` computes it: XSR P@1 (square protocol,
    cosine) on each test pair file (``eval xsr --pairs ... --max-pairs N --seed S``); where the table names
    classification sets, zero-shot classification in each of its directions (``eval classify --set DIR
    --direction en2xx|xx2en``: logistic regression, mean of 5 seeds); STS files (``eval sts``); pooled XSR
    (``eval xsr --queries Q --pool P --distractors ... --direction both --method margin``); query -> passage
    retrieval (``eval ir --data DIR --queries DIR ... --max-queries N``); efficiency (``eval efficiency``,
    in a fresh process, energy off: only RAPL counters measure it)."""

    def evaluate(model: str | Path, inputs: EvaluationInputs) -> dict[str, Any]:
        from lingualite.encoders.loading import load_encoder

        metrics: dict[str, Any] = {}
        if inputs.xsr_files or inputs.classify or inputs.sts_files or inputs.pooled or inputs.ir:
            metrics.update(_quality(load_encoder(str(model), threads=threads, device=device), inputs))
        if inputs.efficiency is not None:
            metrics.update(_efficiency(str(model), inputs, device))
        return metrics

    return evaluate


def _quality(encoder: Any, inputs: EvaluationInputs) -> dict[str, Any]:
    from lingualite.evaluation.suite import (
        classification_direction,
        ir_from_files,
        sts_from_files,
        xsr_from_files,
    )
    from lingualite.reproduce import flat_metrics

    metrics: dict[str, Any] = {}
    if inputs.xsr_files:
        xsr = xsr_from_files(encoder, inputs.xsr_files, "nn", inputs.max_test_pairs, inputs.seed)
        metrics.update(flat_metrics("xsr", xsr))
    for name, folder in inputs.classify.items():
        for direction in inputs.classify_directions:
            result = classification_direction(
                encoder,
                folder,
                direction,
                inputs.classify_languages,
                "logreg",
                5,
                max_docs=inputs.classify_max_docs,
                seed=inputs.seed,
            )
            prefix = f"classify/{name}" if direction == "en2xx" else f"classify/{name}/{direction}"
            metrics.update(flat_metrics(prefix, result))
    if inputs.sts_files:
        metrics.update(flat_metrics("sts", sts_from_files(encoder, inputs.sts_files)))
    if inputs.pooled is not None:
        pooled = inputs.pooled
        result = xsr_from_files(
            encoder,
            pooled.files,
            pooled.method,
            None,
            inputs.seed,
            pooled.queries,
            pooled.pool,
            pooled.distractors,
            pooled.k,
            pooled.directions,
        )
        metrics.update(flat_metrics("xsr_pooled", result))
    if inputs.ir is not None:
        ir = inputs.ir
        result = ir_from_files(encoder, ir.data, ir.queries, ir.max_queries, ir.max_words, inputs.seed)
        metrics.update(flat_metrics("ir", result))
    return metrics


def _efficiency(model: str, inputs: EvaluationInputs, device: str = "auto") -> dict[str, Any]:
    from lingualite.evaluation.efficiency import measure_efficiency

    eff = inputs.efficiency
    assert eff is not None
    result = measure_efficiency(
        model,
        eff.texts,
        batch_size=eff.batch_size,
        single_runs=eff.single_runs,
        energy=False,
        threads=eff.threads,
        device=device,
    )
    return {
        f"efficiency/{key}": value
        for key, value in result.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }


def _list_tables(as_json: bool) -> None:
    from lingualite.cli.reproduce_studies import study_rows
    from lingualite.reproduce import list_tables, load_table
    from lingualite.reproduce.table import TABLES_DIR

    rows = {}
    for name in list_tables():
        table = load_table(name)
        rows[name] = {"cells": len(table.cells), "scales": ",".join(table.scales), "title": table.title}
    rows.update(study_rows())
    if as_json:
        emit({"folder": str(TABLES_DIR), "tables": rows}, "", as_json)
    else:  # the folder in the title: a one-row table of it before the list would read as an empty table
        emit({"tables": rows}, f"Tables `lingualite reproduce` can run (configs in {TABLES_DIR})", as_json)


def _dry_run(
    table: Any,
    scale: str,
    output: Path,
    data_dir: Path | None,
    cells: list[str] | None,
    reuse: list[Path],
    device: str = "auto",
) -> dict:
    from lingualite.reproduce import STATES, plan_sweep

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


ReuseFromOpt = Annotated[
    list[Path] | None,
    typer.Option(
        help="Sweep folders (or folders of them) whose finished cells a new cell with the same training "
        "config copies instead of training again (repeatable) \\[default: the folders beside OUTPUT].",
        show_default=False,
    ),
]
NoReuseOpt = Annotated[
    bool, typer.Option("--no-reuse", help="Train every new cell, even one another sweep trained.")
]
ResumeOpt = Annotated[
    bool,
    typer.Option(
        "--resume", help="Continue cells that stopped with checkpoints (finished cells never rerun)."
    ),
]
ForceOpt = Annotated[
    bool,
    typer.Option("--force", help="Delete and rerun cells whose saved config differs from the table's."),
]
DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Show each cell's state and overrides; run nothing.")
]
ThreadsOpt = Annotated[int | None, typer.Option(min=1, help="PyTorch CPU threads (default: one per core).")]


def reproduce(
    table: Annotated[
        str | None,
        typer.Argument(
            help="A shipped table (see --list), e.g. 000-table6, or a table YAML file.", show_default=False
        ),
    ] = None,
    scale: Annotated[
        str,
        typer.Option(
            help="cpu (the quickstart model; what it runs is stated in the table's header) or paper (the "
            "paper's settings, for a GPU)."
        ),
    ] = "cpu",
    output: Annotated[
        Path | None,
        typer.Option(help="Sweep folder \\[default: runs/reproduce/TABLE-SCALE].", show_default=False),
    ] = None,
    cells: Annotated[
        str | None, typer.Option(help="Comma-separated cells to run (default: all); the table renders all.")
    ] = None,
    resume: ResumeOpt = False,
    force: ForceOpt = False,
    list_: Annotated[
        bool, typer.Option("--list", help="List the shipped tables and their cell counts.")
    ] = False,
    dry_run: DryRunOpt = False,
    reuse_from: ReuseFromOpt = None,
    no_reuse: NoReuseOpt = False,
    threads: ThreadsOpt = None,
    data_dir: DataDirOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Run the grid of one of the papers' tables and render it beside the paper's numbers.

    Each cell trains into OUTPUT/cells/CELL (through the same recipes as `lingualite train`; a cell that
    names an existing model, e.g. a teacher, is only evaluated), is evaluated as its table says (XSR P@1 on
    the held-out test pairs; zero-shot classification in one or both directions on sets from `lingualite
    data eval-sets`; pooled XSR; batch-1 time) and writes OUTPUT/cells/CELL/result.json with the hash of its
    config and evaluation settings: a finished cell is never run again. Then OUTPUT/table.md, table.json and
    table.png are written from the finished cells (missing ones shown as "–"). Tables share cells (the
    default model is Table 3's joint model, Table 7's full objective, Table 9's batch 64, ...): a new cell whose
    training config a finished cell of a sweep beside OUTPUT trained already is copied from it and evaluated
    (not in tables that report training time: those time every cell themselves).

    \b
    Examples:
      lingualite reproduce --list
      lingualite reproduce 000-table6 --dry-run         # what would run, and each cell's state
      lingualite reproduce 000-table6                   # the cpu scale -> runs/reproduce/000-table6-cpu
      lingualite reproduce 000-table6 --resume          # after an interruption: finished cells are kept
      lingualite reproduce 000-table5 --scale paper     # the paper's settings (a GPU)
      lingualite reproduce 001-table3                   # a study: one base run, one iteration per m

    Paper 001's Table 3 and Fig. 3 are studies (rows seed-S, or base and m-M; see docs/reproduction.md):
    --cells, --resume, --force and --dry-run work as for a sweep.
    """
    from lingualite.cli.reproduce_studies import reproduce_study
    from lingualite.reproduce import load_table
    from lingualite.reproduce.study_spec import is_study

    if list_:
        return _list_tables(as_json)
    if table is None:
        fail(ValueError("name a TABLE (see `lingualite reproduce --list`)"))
    chosen = [c.strip() for c in cells.split(",") if c.strip()] if cells else None
    device = use_device(device)
    try:
        if is_study(table):
            flags = dict(
                resume=resume,
                force=force,
                dry_run=dry_run,
                threads=threads,
                reuse_from=reuse_from,
                device=device,
            )
            return reproduce_study(table, scale, output, chosen, flags, data_dir, as_json)
        spec = load_table(table)
        spec.scale(scale)
        output = output or Path("runs/reproduce") / f"{spec.name}-{scale}"
        reuse = [] if no_reuse else (reuse_from or [output.parent])
        if dry_run:
            plan = _dry_run(spec, scale, output, data_dir, chosen, reuse, device)
            emit(plan, f"Plan of {spec.name} ({scale})", as_json)
            return
        states = _sweep(spec, scale, output, data_dir, chosen, resume, force, reuse, threads, device)
    except USER_ERRORS as exc:
        fail(exc)
    summary = {
        "table": spec.name,
        "scale": scale,
        "output": str(output),
        "markdown": str(output / "table.md"),
    }
    emit({**summary, "cells": states}, f"Reproduced {spec.name} ({scale})", as_json)


def _sweep(
    spec: Any,
    scale: str,
    output: Path,
    data_dir: Path | None,
    cells: list[str] | None,
    resume: bool,
    force: bool,
    reuse: list[Path],
    threads: int | None,
    device: str = "auto",
) -> dict[str, dict[str, str]]:
    """Run the sweep (progress lines on stderr), render the table; each cell's state before the run."""
    from lingualite.reproduce import render_table, run_sweep

    echo_logs("lingualite", "lingualite")  # the training loop's step lines
    plans = run_sweep(
        spec,
        scale,
        output,
        cell_evaluator(threads, device),
        data_dir=data_dir,
        cells=cells,
        resume=resume,
        force=force,
        reuse=reuse,
        threads=threads,
        progress=lambda line: typer.echo(line, err=True),
        on_done=lambda: render_table(spec, scale, output),
        device=device,
    )
    return {p.cell.name: {"before": p.state} for p in plans}
