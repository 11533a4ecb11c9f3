"""``lingualite tokenizer train``: one shared subword vocabulary over every language of the pairs."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import JsonOpt, fail
from lingualite.cli.output import emit
from lingualite.core.errors import LinguaLiteError
from lingualite.tokenization.alphabet import CHARACTER_COVERAGE

tokenizer_app = typer.Typer(help="Train a shared subword vocabulary.", no_args_is_help=True)


@tokenizer_app.command("train")
def tokenizer_train(
    inputs: Annotated[list[Path], typer.Argument(help="Prepared TSVs under folders named like en-fr.")],
    output: Annotated[Path, typer.Option(help="Folder for tokenizer.json and its config.")] = Path(
        "runs/tokenizer"
    ),
    vocab_size: Annotated[int, typer.Option(min=1, help="Vocabulary size (paper 000: 50000).")] = 16000,
    kind: Annotated[str, typer.Option(help="unigram (SentencePiece-style) or wordpiece.")] = "unigram",
    alpha: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Language sampling exponent: p_l ~ n_l^alpha.")
    ] = 0.7,
    sample_size: Annotated[int, typer.Option(min=1, help="Sentences the trainer sees.")] = 300_000,
    character_coverage: Annotated[
        float,
        typer.Option(
            min=0.0,
            max=1.0,
            help="Share of each language's characters the alphabet covers; the rarest are [UNK].",
        ),
    ] = CHARACTER_COVERAGE,
    alphabet_min_count: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Also keep each character a language's text holds at least this many times that the "
            "sample missed (with a sentence holding it); unset: the sample's characters only.",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Train one vocabulary shared by all languages, with exponentially smoothed language sampling.

    Each language is one sampling unit (English read from several en-xx folders counts once); Chinese and
    Japanese are cut into single characters."""
    from lingualite.data.pairs import read_pairs
    from lingualite.tokenization import smoothed_language_shares, train_tokenizer

    try:
        texts = read_pairs(list(inputs)).texts
        tok = train_tokenizer(
            texts,
            vocab_size=vocab_size,
            kind=kind,  # type: ignore[arg-type]
            alpha=alpha,
            sample_size=sample_size,
            character_coverage=character_coverage,
            alphabet_min_count=alphabet_min_count,
        )
        tok.save_pretrained(str(output))
    except (LinguaLiteError, OSError, ValueError) as exc:
        fail(exc)
    shares = smoothed_language_shares({k: len(v) for k, v in texts.items()}, alpha)
    emit(
        {
            "output": str(output),
            "vocab_size": len(tok),
            "language_shares": {lang: {"share": share} for lang, share in shares.items()},
        },
        "Vocabulary",
        as_json,
    )
