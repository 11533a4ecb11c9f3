"""``lingualite data fetch --for distill``: fetch and prepare all the shipped distill configs read."""

from __future__ import annotations

from pathlib import Path

import typer

from lingualite.cli.common import fail
from lingualite.cli.output import emit
from lingualite.core.errors import LinguaLiteError


def fetch_for(
    recipe: str,
    langs: tuple[str, ...],
    data_dir: Path | None,
    out: Path | None,
    cache: Path | None,
    as_json: bool,
) -> None:
    """``data fetch --for distill``: :func:`lingualite.reproduce.distill_data.prepare_distill_data`."""
    from lingualite.config.parsing import default_data_dir
    from lingualite.core.progress import LinePrinter
    from lingualite.reproduce.distill_data import prepare_distill_data
    from lingualite.text.languages import check_languages

    if recipe != "distill":
        fail(LinguaLiteError(f"--for {recipe!r}: expected distill"))
    if out is not None or cache is not None:
        fail(
            LinguaLiteError(
                "--for distill keeps corpora and packages under --data-dir; drop --output/--cache"
            )
        )
    root = data_dir if data_dir is not None else default_data_dir()
    try:
        folders = prepare_distill_data(root, tuple(check_languages(langs)), LinePrinter(typer.echo))
    except (LinguaLiteError, OSError) as exc:
        fail(exc)
    emit(
        {"data_dir": str(root), **{kind: len(found) for kind, found in folders.items()}},
        "Prepared pair folders per kind",
        as_json,
    )
