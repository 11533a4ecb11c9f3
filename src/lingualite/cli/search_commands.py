"""``lingualite index build|add|delete|info`` and ``lingualite search``: a persistent cross-lingual search index
(:mod:`lingualite.search`). Registered on the app in :mod:`lingualite.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lingualite.cli.common import (
    STDIN_HELP,
    USER_ERRORS,
    DeviceOpt,
    DimensionsOpt,
    JsonOpt,
    emit,
    fail,
    output_console,
    rounded,
    stdin_or_file,
    use_device,
)
from lingualite.core.errors import LinguaLiteError

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


def search_command(
    index: IndexOpt,
    queries: Annotated[
        list[str] | None,
        typer.Argument(help="One or more queries, in any language the model knows.", show_default=False),
    ] = None,
    queries_file: Annotated[
        Path | None,
        typer.Option(
            "--queries",
            help="A UTF-8 file of queries, one a line (blank lines skipped), searched as well as any given "
            "as arguments; --json rows then carry each query's line number. " + STDIN_HELP,
            show_default=False,
        ),
    ] = None,
    k: Annotated[int, typer.Option("-k", "--k", min=1, help="Hits per query.")] = 10,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Search an index: the k most similar documents per query (cosine), with their ids and text.

    \b
    Examples:
      lingualite search --index idx "how do I print a page" -k 5
      lingualite search --index idx "imprimer" "drucken" --json
      lingualite search --index idx --queries questions.txt --json > hits.json
      cut -f1 pairs.tsv | lingualite search --index idx --queries - -k 3
    """
    from lingualite.core.strict_json import dumps
    from lingualite.search import SearchIndex

    try:
        asked = [(None, q) for q in queries or []] + _read_queries(queries_file)
        if not asked:
            raise LinguaLiteError("search: give queries as arguments or --queries FILE")
        texts = [q for _, q in asked]
        with SearchIndex.open(index, device=use_device(device)) as idx:
            idx.require_documents()
            results = idx.search(texts, k=k)
    except USER_ERRORS as exc:
        fail(exc)
    if as_json:
        rows = [
            {
                "query": q,
                **({"line": line} if line is not None else {}),
                "hits": [{"rank": r, **vars(h)} for r, h in enumerate(hits, 1)],
            }
            for (line, q), hits in zip(asked, results, strict=True)
        ]
        typer.echo(dumps(rounded({"index": str(index), "k": k, "results": rows}), ensure_ascii=False))
        return
    _print_hits(texts, results)


def _read_queries(path: Path | None) -> list[tuple[int | None, str]]:
    """(1-based line number, query) of each non-blank line of ``path`` (``-``: standard input)."""
    if path is None:
        return []
    from lingualite.data.lines import read_lines

    with stdin_or_file(path) as source:
        lines = read_lines(source)
    return [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip()]


def _print_hits(queries: list[str], results: list[list[Any]]) -> None:
    from rich.table import Table

    console = output_console()
    for query, hits in zip(queries, results, strict=True):
        table = Table(title=f"{query!r}: {len(hits)} hits", expand=True)
        id_width = min(max([len(h.doc_id) for h in hits] + [2]), 40)
        table.add_column("rank", justify="right", width=4, no_wrap=True)
        table.add_column("score", justify="right", width=6, no_wrap=True)
        table.add_column("id", width=id_width, no_wrap=True, overflow="ellipsis")
        table.add_column("text", ratio=1, no_wrap=True, overflow="ellipsis")
        for rank, hit in enumerate(hits, 1):
            table.add_row(str(rank), f"{hit.score:.4f}", hit.doc_id, " ".join(hit.text.split()))
        console.print(table)
