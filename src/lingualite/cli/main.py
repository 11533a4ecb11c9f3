"""The ``lingualite`` command line: each command is a thin shell over a public function.

Heavy libraries (torch, transformers, sentence-transformers) are imported inside the commands so that
``lingualite --help`` answers at once.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from lingualite.cli.alignment_commands import align_command
from lingualite.cli.common import (
    hide_flag_types,
)
from lingualite.cli.data_commands import data_app, prepare
from lingualite.cli.eval_commands import eval_app
from lingualite.cli.finite_options import finite_float_options
from lingualite.cli.index_commands import index_app
from lingualite.cli.mining_commands import eval_mine, mine
from lingualite.cli.models_command import models_app
from lingualite.cli.quickstart_command import quickstart
from lingualite.cli.reproduce_commands import reproduce
from lingualite.cli.search_command import search_command
from lingualite.cli.serve_commands import serve_command
from lingualite.cli.tokenizer_command import tokenizer_app
from lingualite.cli.train_commands import distill as distill_command
from lingualite.cli.train_commands import train as train_command
from lingualite.cli.use_commands import encode, export_command

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing is ever fetched from a model hub
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")  # no load reports about the unused BERT pooler
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

hide_flag_types()
finite_float_options()
app = typer.Typer(
    help=(
        "Train, evaluate and use small, fast multilingual sentence encoders.\n\n"
        "Typical flow: `lingualite data fetch` -> `lingualite prepare` -> `lingualite train --config quickstart` "
        "-> `lingualite eval xsr`; `lingualite quickstart` runs all of it on real data from packages.\n\n"
        "Use a model: `encode` (vectors), `mine` (parallel sentences from two corpora), `align` (a document and "
        "its translation), `index build` + `search` (cross-lingual search), `serve` (HTTP service and search page)."
    ),
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        from lingualite.core.version import __version__

        typer.echo(f"lingualite {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    """Train, evaluate and use small, fast multilingual sentence encoders."""


app.add_typer(data_app, name="data")
app.add_typer(tokenizer_app, name="tokenizer")
app.add_typer(models_app, name="models")
app.add_typer(eval_app, name="eval")
app.command("distill")(distill_command)
app.command("encode")(encode)
app.command("export")(export_command)
app.add_typer(index_app, name="index")
app.command("search")(search_command)
app.command("align")(align_command)
app.command("mine")(mine)
eval_app.command("mine")(eval_mine)
app.command("serve")(serve_command)
app.command("reproduce")(reproduce)


app.command()(prepare)
app.command("train")(train_command)


app.command()(quickstart)


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
