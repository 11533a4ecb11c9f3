"""What the ``lingualite eval`` commands share: their options, the files they are given, the model they load."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lingualite.cli.common import fail, use_device

ThreadsOpt = Annotated[
    int | None, typer.Option(min=1, help="CPU threads of the encoder (default: all cores).")
]
MoreFiles = Annotated[
    list[Path] | None,
    typer.Argument(hidden=True, help="More files of the same kind (so `--test a.tsv b.tsv` works)."),
]


def given_files(first: list[Path] | None, more: list[Path] | None, option: str) -> list[Path]:
    files = [*(first or []), *(more or [])]
    if not files:
        fail(ValueError(f"give at least one file with {option}"))
    return files


def load_model(model: str, threads: int | None = None, device: str = "auto") -> Any:
    from lingualite.encoders.resolve import load_encoder

    return load_encoder(model, threads=threads, device=use_device(device))


SkipBadOpt = Annotated[bool, typer.Option(help="Skip (and count) malformed lines instead of stopping.")]
# The commands that score test pairs (eval xsr, eval all, reproduce): a pair the model knows no token of one
# side of is bad input too (lingualite.encoders.known_tokens), refused naming FILE:LINE without the flag.
SkipBadPairsOpt = Annotated[
    bool,
    typer.Option(
        help="Skip malformed lines, and pairs with a side that has no token the model knows (only emoji or "
        "symbols, a script it never saw; counted per file as skipped), instead of stopping at the first."
    ),
]
