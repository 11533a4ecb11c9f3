"""``lingualite search``: the k most similar documents of an index per query
(:meth:`lingualite.search.SearchIndex.search`), as tables or one JSON object. Registered on the app in
:mod:`lingualite.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lingualite.cli.common import STDIN_HELP, USER_ERRORS, DeviceOpt, JsonOpt, fail, stdin_or_file, use_device
from lingualite.cli.index_commands import IndexOpt
from lingualite.cli.output import output_console, rounded
from lingualite.core.errors import LinguaLiteError


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
    skip_bad: Annotated[
        bool,
        typer.Option(
            "--skip-bad",
            help="Skip (and count) lines of --queries with no token the model knows (only emoji or symbols, a "
            "script it never saw) instead of stopping at the first; --json rows keep the others' line numbers.",
        ),
    ] = False,
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
        with SearchIndex.open(index, device=use_device(device)) as idx:
            idx.require_documents()
            asked = _known_queries(idx.encoder, asked, queries_file, skip_bad)
            texts = [q for _, q in asked]
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


def _known_queries(
    encoder: Any, asked: list[tuple[int | None, str]], path: Path | None, skip_bad: bool
) -> list[tuple[int | None, str]]:
    """The queries that hold a token the model knows (:mod:`lingualite.encoders.known_tokens`): another is
    refused (``queries[i]`` for an argument, ``FILE:LINE`` for a line of ``path``), or, a line of ``path``
    with ``skip_bad``, skipped and counted on stderr."""
    from lingualite.encoders.known_tokens import known_lines

    given = [q for line, q in asked if line is None]
    listed = [(line, q) for line, q in asked if line is not None]
    keep = [
        *known_lines(encoder, None, list(range(len(given))), given, False, "queries"),
        *known_lines(encoder, path, [n for n, _ in listed], [q for _, q in listed], skip_bad),
    ]
    skipped = [line for (line, _), ok in zip(asked, keep, strict=True) if not ok]
    if skipped:
        shown = ", ".join(map(str, skipped[:5])) + (", ..." if len(skipped) > 5 else "")
        typer.echo(
            f"search: skipped {len(skipped)} queries of {path} with no token the model knows (lines {shown})",
            err=True,
        )
    kept = [query for query, ok in zip(asked, keep, strict=True) if ok]
    if not kept:
        raise LinguaLiteError(f"{path}: every query was skipped (--skip-bad); nothing to search")
    return kept


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
