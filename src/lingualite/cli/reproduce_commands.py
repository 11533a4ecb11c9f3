"""``lingualite reproduce``: parse, call :func:`lingualite.reproduce.reproduction.reproduce` (a sweep table or a
study, run or planned), print. Registered on the app in :mod:`lingualite.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DataDirOpt, DeviceOpt, JsonOpt, fail, use_device
from lingualite.cli.eval_options import SkipBadPairsOpt
from lingualite.cli.output import echo_logs, emit

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
    skip_bad: SkipBadPairsOpt = False,
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
    from lingualite.reproduce.plans import shipped_tables
    from lingualite.reproduce.reproduction import reproduce as run

    if list_:
        listing = shipped_tables()
        if as_json:
            return emit(listing, "", as_json)
        # the folder in the title: a one-row table of it before the list would read as an empty table
        title = f"Tables `lingualite reproduce` can run (configs in {listing['folder']})"
        return emit({"tables": listing["tables"]}, title, as_json)
    if table is None:
        fail(ValueError("name a TABLE (see `lingualite reproduce --list`)"))
    chosen = [c.strip() for c in cells.split(",") if c.strip()] if cells else None
    device = use_device(device)
    if not dry_run:
        echo_logs("lingualite", "lingualite")  # the training loop's step lines
    try:
        title, shown = run(
            table,
            scale,
            output,
            chosen,
            resume=resume,
            force=force,
            dry_run=dry_run,
            reuse_from=reuse_from,
            no_reuse=no_reuse,
            threads=threads,
            data_dir=data_dir,
            device=device,
            progress=lambda line: typer.echo(line, err=True),
            skip_bad=skip_bad,
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit(shown, title, as_json)
