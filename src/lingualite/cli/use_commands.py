"""``lingualite encode`` and ``lingualite export``: using a trained model (vectors for a text file; the model
as ONNX graphs for onnxruntime). Registered on the app in :mod:`lingualite.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import (
    STDIN_HELP,
    USER_ERRORS,
    DeviceOpt,
    DimensionsOpt,
    JsonOpt,
    fail,
    stdin_or_file,
    use_device,
)
from lingualite.cli.output import emit
from lingualite.vectors.normalization import NORMALIZE, NORMALIZE_HELP

BatchSizeOpt = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Sentences per forward pass \\[default: 128 on a CPU, 512 on a GPU: lingualite.core.device].",
        show_default=False,
    ),
]
ThreadsOpt = Annotated[
    int | None, typer.Option(min=1, help="CPU threads (default: all available; --workers: 1 each).")
]
PrecisionOpt = Annotated[
    str,
    typer.Option(
        help="float32, int8, uint8 (per-component buckets), binary or ubinary (sign bits, packed); "
        "quantized output gets OUTPUT.calibration.json beside it."
    ),
]
CalibrationOpt = Annotated[
    Path | None,
    typer.Option(
        help="int8/uint8: the ranges of this calibration file (e.g. the documents' "
        "OUTPUT.calibration.json, for their queries) instead of those of the vectors written."
    ),
]


EncodeModelOpt = Annotated[
    str,
    typer.Option(
        help="A model folder, a baseline name (tfidf, minilm, use-m, e5-small), or onnx:FOLDER / "
        "onnx-int8:FOLDER (graphs written by `lingualite export`) / static:FOLDER / bf16:FOLDER (torch in "
        "bfloat16)."
    ),
]

EncodeInputOpt = Annotated[
    Path,
    typer.Option(
        "--input",
        help="UTF-8 text file, one sentence per line (--engine ray: or Parquet, a file or folder); "
        + STDIN_HELP,
    ),
]

EncodeOutputOpt = Annotated[
    Path,
    typer.Option(
        help="Where to write the (N, d) .npy array (a file named *.npy; float32 unless --precision). --engine "
        "ray: also a new Parquet folder (columns line, embedding), named *.parquet or without a suffix; any "
        "other suffix is refused."
    ),
]

EncodeWorkersOpt = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Processes (local) or Ray actors, each with its own copy of the model and one thread "
        "(local default 1: this process, --threads threads; ray default: one per CPU).",
    ),
]

EncodeEngineOpt = Annotated[
    str,
    typer.Option(help="local: this machine (--workers processes); ray: Ray Data, local or a cluster."),
]

EncodeTextColumnOpt = Annotated[
    str, typer.Option(help="--engine ray with Parquet input: the column holding the text.")
]

EncodeOverwriteOpt = Annotated[
    bool,
    typer.Option("--overwrite", help="--engine ray: replace OUTPUT if it is an earlier Parquet folder."),
]
EncodeSkipBadOpt = Annotated[
    bool,
    typer.Option(
        "--skip-bad",
        help="Skip (and count) lines with no token the model knows (only emoji or symbols, a script it never "
        "saw) instead of stopping at the first: they get no row, and OUTPUT.skipped.txt lists their line "
        "numbers.",
    ),
]


def encode(
    model: EncodeModelOpt,
    input: EncodeInputOpt,
    output: EncodeOutputOpt,
    batch_size: BatchSizeOpt = None,
    threads: ThreadsOpt = None,
    normalize: Annotated[bool, typer.Option(help=NORMALIZE_HELP)] = NORMALIZE,
    workers: EncodeWorkersOpt = None,
    engine: EncodeEngineOpt = "local",
    text_column: EncodeTextColumnOpt = "text",
    dimensions: DimensionsOpt = None,
    precision: PrecisionOpt = "float32",
    calibration: CalibrationOpt = None,
    overwrite: EncodeOverwriteOpt = False,
    skip_bad: EncodeSkipBadOpt = False,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Write one vector per input line (float32, or --precision; first --dimensions components).

    The input is streamed in chunks into a .npy (any file size in bounded memory), written to a temporary
    file beside OUTPUT and renamed when complete; an existing directory or the input itself is never
    replaced. Warns when much of the input is unknown to the model's vocabulary (a script it was not
    trained on becomes [UNK]); a line with no token the model knows is refused, naming FILE:LINE, or
    skipped with --skip-bad (listed in OUTPUT.skipped.txt).

    \b
    One process, all cores (torch threads):
      lingualite encode --model runs/distill --input s.txt --output v.npy
    Several processes, one model and one core each (the same .npy, rows in input order):
      lingualite encode --model static:runs/static --input s.txt --output v.npy --workers 4
    64 dimensions in int8 (v.npy + v.calibration.json); queries with those ranges (--calibration):
      lingualite encode --model runs/distill --input s.txt --output v.npy --dimensions 64 --precision int8
    Ray Data (starts Ray on this machine; with RAY_ADDRESS set, runs on that cluster):
      lingualite encode --model runs/distill --input s.txt --output vectors/ --engine ray --workers 4
      lingualite encode --model runs/distill --input docs.parquet --text-column body --output v.npy --engine ray
    """
    from lingualite.encoding.api import encode_file
    from lingualite.vectors.precision import calibration_path

    def warn(message: str) -> None:
        typer.secho(f"warning: {message}", fg=typer.colors.YELLOW, err=True)

    try:
        with stdin_or_file(input) as input:
            result = encode_file(
                model,
                input,
                output,
                normalize=normalize,
                dimensions=dimensions,
                precision=precision,
                calibration=calibration,
                batch_size=batch_size,
                threads=threads,
                workers=workers,
                engine=engine,
                text_column=text_column,
                overwrite=overwrite,
                device=use_device(device),
                report=warn,
                skip_bad=skip_bad,
            )
    except USER_ERRORS as exc:
        fail(exc)
    shown = {"output": str(output), "sentences": result.sentences, "dimension": result.dimension}
    if result.calibration is not None:
        shown.update(precision=precision, calibration=str(calibration_path(output)))
    if skip_bad:
        from lingualite.encoding.api import skipped_path

        shown.update(skipped=len(result.skipped), skipped_lines=str(skipped_path(output)))
    emit(shown, "Encoded", as_json)


def export_command(
    model: Annotated[
        Path, typer.Option(help="A sentence-transformers folder (a lingualite model or any other).")
    ],
    output: Annotated[Path, typer.Option(help="New folder: the model's files plus onnx/encoder*.onnx.")],
    quantize: Annotated[
        str | None,
        typer.Option(
            help="int8: also write a dynamically quantized graph (VNNI on CPUs that have it); int8-table4: the "
            "same with the embedding tables in 4 bits (~0.56 bytes a value: ~1.8x the vocabulary in the same "
            "bytes; onnxruntime >= 1.22 writes it, >= 1.20 runs it)."
        ),
    ] = None,
    overwrite: Annotated[
        bool,
        typer.Option(
            "--overwrite",
            help="Replace OUTPUT if it is an earlier `lingualite export` (never another folder).",
        ),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Export a model to ONNX: the whole encoder (transformer, pooling, Dense, normalisation) in one graph.

    The graph takes input_ids and attention_mask (any batch size and length) and returns sentence vectors, so
    plain onnxruntime encodes without torch. OUTPUT keeps the safetensors files (sentence-transformers still
    loads it) and gets onnx/encoder.onnx (+ onnx/encoder_int8.onnx). Export fails unless onnxruntime's
    vectors match the model's (min cosine 0.999 fp32, 0.99 int8, on a fixed set of sentences). OUTPUT must be
    a new (or empty) folder, or an earlier export with --overwrite; it may not contain the model or lie in it.

    \b
    Use the graphs anywhere lingualite takes a model, with a runtime prefix:
      lingualite export --model runs/distill --output runs/distill-onnx --quantize int8
      lingualite encode --model onnx-int8:runs/distill-onnx --input s.txt --output v.npy
      lingualite eval xsr --model onnx:runs/distill-onnx --pairs data/prepared/en-fr/test.tsv
    """
    from lingualite.encoders.onnx_export import export_onnx

    try:
        result = export_onnx(model, output, quantize, overwrite)
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {
            "output": str(result.output),
            "fp32_mb": round(result.fp32_bytes / 1e6, 2),
            "fp32_min_cosine": result.fp32_cosine_min,
            **(
                {"int8_mb": round(result.int8_bytes / 1e6, 2), "int8_min_cosine": result.int8_cosine_min}
                if result.int8_bytes is not None
                else {}
            ),
        },
        "ONNX export",
        as_json,
    )
