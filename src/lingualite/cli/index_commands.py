"""``lingualite index build|add|delete|info``: a persistent cross-lingual search index (:mod:`lingualite.search`),
each command a shell over one :class:`~lingualite.search.SearchIndex` call. Registered on the app in
:mod:`lingualite.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lingualite.cli.common import (
    USER_ERRORS,
    DeviceOpt,
    DimensionsOpt,
    JsonOpt,
    fail,
    use_device,
)
from lingualite.cli.output import emit

index_app = typer.Typer(
    help="Build and maintain a search index: documents in SQLite, vectors in FAISS.", no_args_is_help=True
)

IndexOpt = Annotated[
    Path, typer.Option("--index", help="The index folder (written by `lingualite index build`).")
]
SkipBadOpt = Annotated[
    bool, typer.Option("--skip-bad", help="Skip and count bad input lines instead of stopping at the first.")
]
INPUT_HELP = (
    "Documents: .txt (one per line, id = line number), .tsv (id<TAB>text[<TAB>more]; a first line "
    '\'id<TAB>text...\' is a header naming the extra columns) or .jsonl ({"id", "text", other keys = '
    "metadata})."
)


def _skipped(stats: Any) -> dict[str, Any]:
    return {"skipped": stats.skipped, **({"first_skipped": stats.first_skipped} if stats.skipped else {})}


@index_app.command("build")
def index_build(
    model: Annotated[
        str,
        typer.Option(
            help="A model folder, a baseline name (use-m, ...) or static:/onnx:/onnx-int8:/bf16:FOLDER."
        ),
    ],
    input: Annotated[Path, typer.Option("--input", help=INPUT_HELP)],
    output: Annotated[Path, typer.Option(help="New folder for the index.")],
    quantization: Annotated[
        str,
        typer.Option(
            help="none (float32), int8 (scalar quantizer) or binary (sign bits); quantized "
            "candidates are rescored exactly from float vectors on disk."
        ),
    ] = "none",
    kind: Annotated[
        str,
        typer.Option(
            help="flat (exact), hnsw (graph), ivf (inverted lists) or auto (flat below 100,000 "
            "documents, else hnsw)."
        ),
    ] = "auto",
    rescore: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Candidates per hit rescored exactly (quantized indexes; default 4 int8; binary max(10, 5120 / bits)).",
        ),
    ] = None,
    skip_bad: SkipBadOpt = False,
    overwrite: Annotated[
        bool,
        typer.Option("--overwrite", help="Replace OUTPUT if it is an existing index (never another folder)."),
    ] = False,
    dimensions: DimensionsOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Encode documents with a model into a new search index folder (written atomically).

    Vectors are stored L2-normalised (unit length; search scores are cosines), as `lingualite encode` and
    `lingualite serve` give them by default.

    --dimensions N indexes the first N components of each vector (recorded; queries are truncated the same
    way by `lingualite search` and `lingualite serve`).

    \b
    Examples:
      lingualite index build --model use-m --input docs.jsonl --output idx
      lingualite index build --model runs/distill --input docs.tsv --output idx-bin --quantization binary
      lingualite search --index idx "comment imprimer une page" -k 5
    """

    from lingualite.search import SearchIndex

    try:
        with SearchIndex.build(
            model,
            input,
            output,
            quantization,
            kind,
            progress=True,  # plain lines on stderr, a terminal or a log
            rescore=rescore,
            skip_bad=skip_bad,
            overwrite=overwrite,
            dimensions=dimensions,
            device=use_device(device),
        ) as idx:
            info, warnings = idx.describe(), idx.warnings
    except USER_ERRORS as exc:
        fail(exc)
    for warning in warnings:
        typer.secho(f"warning: {warning}", fg=typer.colors.YELLOW, err=True)
    shown = {k: info[k] for k in ("path", "model_spec", "documents", "dimension", "quantization", "kind")}
    shown.update(skipped=info.get("skipped_at_build", 0), faiss_mb=round(info["faiss_bytes"] / 1e6, 3))
    emit(shown, "Index built", as_json)


@index_app.command("add")
def index_add(
    index: IndexOpt,
    input: Annotated[Path, typer.Option("--input", help=INPUT_HELP)],
    skip_bad: SkipBadOpt = False,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Encode more documents into an index (ids must be new), with the model the index was built with.

    \b
    Example:
      lingualite index add --index idx --input more.jsonl
    """

    from lingualite.search import SearchIndex

    try:
        with SearchIndex.open(index, device=use_device(device)) as idx:
            idx.require_documents()
            added = idx.add(input, skip_bad=skip_bad, progress=True)
            result = {
                "index": str(index),
                "added": added,
                **_skipped(idx.last_add_stats),
                "documents": len(idx),
            }
    except USER_ERRORS as exc:
        fail(exc)
    emit(result, "Documents added", as_json)


@index_app.command("delete")
def index_delete(
    index: IndexOpt,
    ids: Annotated[list[str], typer.Option("--id", help="A document id to delete (repeat for more).")],
    as_json: JsonOpt = False,
) -> None:
    """Delete documents by id (ids not in the index are reported, not an error).

    \b
    Example:
      lingualite index delete --index idx --id doc-17 --id doc-18
    """
    from lingualite.search import SearchIndex

    try:
        with SearchIndex.open(index) as idx:
            deleted = idx.delete(ids)
            result = {"index": str(index), "deleted": deleted, "not_found": len(set(ids)) - deleted}
            result.update(documents=len(idx), tombstones=idx.info["tombstones"])
    except USER_ERRORS as exc:
        fail(exc)
    emit(result, "Documents deleted", as_json)


@index_app.command("info")
def index_info(index: IndexOpt, as_json: JsonOpt = False) -> None:
    """Print an index's model, settings, counts and sizes on disk."""
    from lingualite.search import SearchIndex

    try:
        with SearchIndex.open(index) as idx:
            info = idx.describe()
    except USER_ERRORS as exc:
        fail(exc)
    emit(info, "Search index", as_json)
