"""``lingualite eval efficiency`` and ``lingualite eval all``: the measurements that run in fresh processes
and the report over every task; registered on ``eval_app`` in :mod:`lingualite.cli.eval_commands`, which
also takes the options every ``eval`` command shares (``--model``, ``--seeds``) from here."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import (
    USER_ERRORS,
    DataDirOpt,
    DeviceOpt,
    JsonOpt,
    OldOutOpt,
    fail,
    in_data_dir,
    renamed,
    use_device,
)
from lingualite.cli.eval_options import SkipBadPairsOpt
from lingualite.cli.output import emit

MODEL_HELP = (
    "Model folder (sentence-transformers / lingualite), a baseline (tfidf, minilm, use-m, e5-small), or "
    "onnx:FOLDER / onnx-int8:FOLDER (graphs from `lingualite export`, run by onnxruntime), static:FOLDER, or "
    "bf16:FOLDER (a model folder run by torch in bfloat16)."
)
SeedsOpt = Annotated[
    int, typer.Option(min=1, help="Classifier runs averaged (seeds 0..N-1); mean and std reported.")
]
ModelOpt = Annotated[str, typer.Option(help=MODEL_HELP)]


def eval_efficiency(
    model: ModelOpt,
    texts: Annotated[
        Path | None, typer.Option(help="Sentences to encode, one a line (default: 1,000 test sentences).")
    ] = None,
    prepared: Annotated[
        Path | None,
        typer.Option(
            help="Where the default sentences come from \\[default: DATA_DIR/prepared].", show_default=False
        ),
    ] = None,
    data_dir: DataDirOpt = None,
    batch_size: Annotated[int, typer.Option(min=1, help="Batch size of the throughput run.")] = 64,
    single_runs: Annotated[
        int, typer.Option(min=1, help="Batch-1 encodes timed for the latency percentiles.")
    ] = 200,
    energy: Annotated[bool, typer.Option(help="Estimate energy with codecarbon (offline).")] = True,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Size, parameters, peak memory, throughput, batch-1 latency (p50/p95) and energy per 1,000 sentences.

    Measured in a fresh process so that memory and load time are the model's own. For a training run folder
    also the training time per 10k steps (from its metrics.jsonl).
    """
    from lingualite.evaluation.efficiency import measure_efficiency
    from lingualite.evaluation.report import ReportSettings, efficiency_texts
    from lingualite.evaluation.training_time import training_time_per_10k_steps

    try:
        if texts is not None:
            lines = [t for t in texts.read_text(encoding="utf-8").splitlines() if t.strip()]
            if not lines:
                raise ValueError(f"{texts}: no sentences")
        else:
            lines = efficiency_texts(ReportSettings(prepared_dir=in_data_dir(prepared, data_dir, "prepared")))
        result = measure_efficiency(
            model,
            lines,
            batch_size=batch_size,
            single_runs=single_runs,
            energy=energy,
            device=use_device(device),
        )
        if Path(model).is_dir():
            result["training"] = training_time_per_10k_steps(model)
    except USER_ERRORS as exc:
        fail(exc)
    emit({"model": model, **result}, f"Efficiency of {model}", as_json)


def eval_all(
    model: Annotated[
        list[str] | None, typer.Option(help="Model folder(s) or baseline name(s); repeat for several.")
    ] = None,
    baselines: Annotated[bool, typer.Option(help="Also evaluate tfidf, minilm, use-m and e5-small.")] = False,
    out: Annotated[
        Path, typer.Option("--output", help="Report folder: results.json, results.md, *.png.")
    ] = Path("runs/report"),
    eval_dir: Annotated[
        Path | None,
        typer.Option(
            help="Evaluation sets from `lingualite data eval-sets` \\[default: DATA_DIR/eval].",
            show_default=False,
        ),
    ] = None,
    prepared: Annotated[
        Path | None,
        typer.Option(
            help="Prepared pairs; each en-xx/test.tsv is an XSR set \\[default: DATA_DIR/prepared].",
            show_default=False,
        ),
    ] = None,
    data_dir: DataDirOpt = None,
    tasks: Annotated[
        str, typer.Option(help="Comma-separated subset of xsr,classify,pairs,sts,ir,efficiency.")
    ] = ("xsr,classify,pairs,sts,ir,efficiency"),
    xsr_max_pairs: Annotated[int | None, typer.Option(min=1, help="Seeded pairs per XSR test split.")] = 1000,
    ir_max_queries: Annotated[int | None, typer.Option(min=1, help="Seeded queries per IR language.")] = 400,
    max_words: Annotated[int | None, typer.Option(min=1, help="Words kept per document.")] = 64,
    max_docs: Annotated[
        int | None, typer.Option(min=1, help="Seeded documents per classification file.")
    ] = 400,
    seeds: SeedsOpt = 5,
    threads: Annotated[
        int | None, typer.Option(min=1, help="CPU threads per encoder (default: all cores).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Recompute results already in OUTPUT/parts.")] = False,
    skip_bad: SkipBadPairsOpt = False,
    device: DeviceOpt = "auto",
    out_old: OldOutOpt = None,
) -> None:
    """Every task for every model on the real data, with one report (JSON, Markdown table, PNG plots).

    Resumable: finished (model, task) results and embeddings are kept in OUTPUT and reused.
    Example: `lingualite eval all --model runs/quickstart --baselines --output runs/report`.
    """
    out = renamed(out, out_old)
    from lingualite.evaluation.report import BASELINES, TASKS, ReportSettings, run_report

    models = [*(model or []), *(BASELINES if baselines else ())]
    if not models:
        fail(ValueError("give --model and/or --baselines"))
    chosen = tuple(t.strip() for t in tasks.split(",") if t.strip())
    unknown = [t for t in chosen if t not in TASKS]
    if unknown:
        fail(ValueError(f"unknown task(s) {', '.join(unknown)}; choose from {', '.join(TASKS)}"))
    settings = ReportSettings(
        eval_dir=in_data_dir(eval_dir, data_dir, "eval"),
        prepared_dir=in_data_dir(prepared, data_dir, "prepared"),
        pivot_dir=in_data_dir(None, data_dir, "prepared-pivot"),
        tasks=chosen,
        xsr_max_pairs=xsr_max_pairs,
        ir_max_queries=ir_max_queries,
        max_words=max_words,
        max_docs=max_docs,
        seeds=seeds,
        threads=threads,
        device=use_device(device),
        skip_bad=skip_bad,
    )
    try:
        run_report(list(dict.fromkeys(models)), out, settings, progress=typer.echo, force=force)
    except USER_ERRORS as exc:
        fail(exc)
    typer.echo((out / "results.md").read_text(encoding="utf-8"))
