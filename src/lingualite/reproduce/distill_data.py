"""The data the shipped distillation recipes read (``configs/distill.yaml``, ``configs/distill-static.yaml``):
``lingualite data fetch --for distill`` and step 1 of ``lingualite models build``.

A 1-layer student learns the text it is distilled on (docs/research/out-of-domain.md), so the shipped recipes
read every register the packages give in each of their languages, not only the default pairs of the quickstart:

- the default pairs (LibreOffice help, Bible, DDTP) in ``prepared/en-xx``, exactly as the quickstart prepares
  them (:func:`lingualite.reproduce.quickstart.prepare_default_data`);
- more pair sources, each prepared in its own folder so that their held-out documents stay a register of
  their own (:data:`REGISTER_PAIR_FOLDERS`): LibreOffice UI strings, game text and, in the languages beyond the
  13 only, Firefox's and Thunderbird's UI strings;
- untranslated text whose target is the teacher's own vector (:data:`TEXT_SOURCES`): fortunes, man pages and
  the Debian Reference, each language's most frequent words, and CLDR's everyday phrases (emoji names and
  keywords) in the languages beyond the 13 only.

A source read in named languages only (:data:`SOURCE_LANGS`) stays, for the 13 and for English, a register no
shipped model saw.
"""

from __future__ import annotations

import contextlib
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lingualite.config.distill import EVERY_LANGUAGE_PAIR_SOURCES, REGISTER_PAIR_FOLDERS, SOURCE_LANGS
from lingualite.data.cleaning import CleaningConfig
from lingualite.data.sources import fetch_corpora
from lingualite.data.split import SplitConfig
from lingualite.text.languages import ENGLISH

if TYPE_CHECKING:
    from lingualite.config.distill import DistillConfig

__all__ = [
    "REGISTER_PAIR_FOLDERS",
    "REGISTER_SPLIT",
    "SOURCE_LANGS",
    "TEXT_SOURCES",
    "prepare_distill_data",
    "read_langs",
    "read_only",
]

# text sources read as data.monolingual_files (<data dir>/corpora/<source>/<lang>.txt)
TEXT_SOURCES: tuple[str, ...] = ("monolingual", "lexicon", "cldr")


def read_langs(source: str, langs: tuple[str, ...]) -> tuple[str, ...]:
    """The languages of ``langs`` the recipe reads ``source`` in (:data:`SOURCE_LANGS`)."""
    return tuple(lang for lang in langs if lang in SOURCE_LANGS.get(source, langs))


def _text_files(data_dir: Path, langs: tuple[str, ...]) -> list[Path]:
    """Every text file the recipe reads for ``langs``: each source's in English (unless the source is read in
    named languages only) and in the languages of ``langs`` it is read in."""
    return [
        data_dir / "corpora" / source / f"{lang}.txt"
        for source in TEXT_SOURCES
        for lang in sorted(set(read_langs(source, (ENGLISH, *langs))))
    ]


# UI strings and game files are few documents (a catalogue, a campaign): a larger held-out share than the
# default pairs' 3% / 5% keeps enough test pairs per language for the register table.
REGISTER_SPLIT = SplitConfig(valid_fraction=0.05, test_fraction=0.1, seed=0)


class _Printer(Protocol):
    def print(self, text: object) -> None: ...


def _prepare_register(inputs: Path, lang: str, out: Path, lang_id: bool) -> str:
    from lingualite.data.prepare import prepare_corpus

    result = prepare_corpus([inputs], "en", lang, out, CleaningConfig(lang_id=lang_id), split=REGISTER_SPLIT)
    return f"{out.parent.name}/en-{lang}: kept {result.stats['kept']}"


def prepare_distill_data(
    data_dir: Path, langs: tuple[str, ...], console: _Printer, no_lang_id: bool = False
) -> dict[str, list[Path]]:
    """Fetch and prepare everything the shipped distill configs read (each step skipped when done already).

    :return: the prepared pair folders by kind (``prepared`` and each of :data:`REGISTER_PAIR_FOLDERS`).
    """
    from lingualite.reproduce.quickstart import prepare_default_data

    corpora = data_dir / "corpora"
    everywhere = (*EVERY_LANGUAGE_PAIR_SOURCES, *(s for s in TEXT_SOURCES if s not in SOURCE_LANGS))
    fetch_corpora(
        corpora, langs=langs, sources=everywhere, cache_dir=data_dir / "cache", progress=console.print
    )
    for source in SOURCE_LANGS:
        if chosen := read_langs(source, langs):
            fetch_corpora(
                corpora,
                langs=chosen,
                sources=(source,),
                cache_dir=data_dir / "cache",
                progress=console.print,
            )
    # a language the default sources hardly hold gets its held-out pairs in prepared/ from the sources read in
    # every language (UI strings, games), so that prepared/ is the same whichever languages a run reads
    folders = {
        "prepared": prepare_default_data(
            data_dir, langs, console, no_lang_id=no_lang_id, fallback=EVERY_LANGUAGE_PAIR_SOURCES
        )
    }
    held = {out.name: _inputs(out) for out in folders["prepared"]}
    todo = []
    for source, folder in REGISTER_PAIR_FOLDERS.items():
        folders[folder] = []
        for lang in read_langs(source, langs):
            corpus, out = corpora / source / f"en-{lang}.tsv", data_dir / folder / f"en-{lang}"
            if not corpus.is_file():
                continue  # fetch_corpora said why
            # prepared/en-xx holds it (its default sources lack the language): once only, else its pairs are
            # trained twice and its test documents trained on
            if corpus.resolve() in held.get(f"en-{lang}", ()):
                if (out / "stats.json").is_file() and _remove_prepared(out, corpus):
                    console.print(f"{folder}/en-{lang}: removed (prepared/en-{lang} holds {source})")
                continue
            folders[folder].append(out)
            if not (out / "stats.json").is_file():
                todo.append((corpus, lang, out))
    if todo:
        console.print(
            f"preparing {len(todo)} UI, game and Firefox pair files (clean, dedup, split by document)"
        )
        with ProcessPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 1)) as pool:
            jobs = [pool.submit(_prepare_register, c, lang, out, not no_lang_id) for c, lang, out in todo]
            for job in jobs:
                console.print(job.result())
    for source, folder in REGISTER_PAIR_FOLDERS.items():
        few = [out for out in folders[folder] if (out / "train.tsv").stat().st_size == 0]
        for out in few:  # a handful of pairs, all held out (Hindi game text: 5): nothing to train on
            removed = _remove_prepared(out, corpora / source / f"{out.name}.tsv")
            what = "removed" if removed else "left out (not prepared here from that corpus: kept)"
            console.print(f"{folder}/{out.name}: no training pairs after cleaning and the split; {what}")
        folders[folder] = [out for out in folders[folder] if out not in few]
    return folders


_PREPARED_FILES = ("train.tsv", "valid.tsv", "test.tsv", "stats.json")


def _inputs(out: Path) -> list[Path]:
    """The corpora a prepared folder was made from (its ``stats.json``), resolved."""
    stats = out / "stats.json"
    if not stats.is_file():
        return []
    entries = json.loads(stats.read_text(encoding="utf-8")).get("inputs", [])
    return [Path(entry["input"]).resolve() for entry in entries if entry.get("input")]


def _remove_prepared(out: Path, corpus: Path) -> bool:
    """Remove what this step prepared in ``out`` from ``corpus`` (its ``stats.json`` names that input), so that
    the shipped configs' train globs do not meet an empty file; a folder prepared from anything else, or
    holding other files, is not this step's to remove (its empty train file is then refused by name)."""
    if _inputs(out) != [corpus.resolve()]:
        return False
    for name in _PREPARED_FILES:
        (out / name).unlink(missing_ok=True)
    with contextlib.suppress(OSError):  # not empty: files of someone else's stay, and so does the folder
        out.rmdir()
    return True


def read_only(
    cfg: DistillConfig, folders: dict[str, list[Path]], data_dir: Path, langs: tuple[str, ...]
) -> None:
    """Point ``cfg``'s data at exactly ``folders`` (what :func:`prepare_distill_data` returned) and the text
    files of English and ``langs``, instead of the shipped globs, which read whatever a data dir holds (other
    languages prepared there too)."""
    # sorted as the globs would list them, so a data dir of only these languages gives the same run
    pairs = [folder for found in folders.values() for folder in sorted(found)]
    cfg.data.train_files = [str(f / "train.tsv") for f in pairs]
    cfg.data.valid_files = [str(f / "valid.tsv") for f in sorted(folders["prepared"])]
    cfg.data.monolingual_exclude_files = [str(f / "test.tsv") for f in pairs]
    cfg.data.monolingual_files = [str(t) for t in _text_files(data_dir, langs) if t.is_file()]
