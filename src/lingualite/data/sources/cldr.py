"""Emoji names and keywords of the Unicode CLDR (opt-in source ``cldr``): short everyday phrases ("face with
tears of joy", "grinning cat", "flag: Japan"), the same ~4,000 in every supported language, multi-way aligned
by the emoji they name.

``lingualite data fetch --sources cldr`` downloads two npm packages (``npm pack``: the tarball only, nothing
installed or run; 11 MB together; Unicode License v3): ``cldr-annotations-full`` (the names and keywords of
single emoji and symbols) and ``cldr-annotations-derived-full`` (sequences: flags, families, professions),
and writes

* ``DATA_DIR/corpora/cldr/<lang>.txt`` for English and each requested language: each distinct name
  (CLDR's ``tts``) and keyword, one per line, names first, for distillation with a multilingual teacher
  (``data.monolingual_files``);
* ``DATA_DIR/corpora/cldr/multiway.tsv``: ``id<TAB>en<TAB>fr...`` (a header line, then one row per emoji
  named in every language written), the names aligned across all the languages: a held-out evaluation
  register of short phrases, translated by CLDR's contributors.

Left out: names and keywords without a letter, the emoji itself, sequences with a skin-tone modifier (the
same name again with "medium skin tone" added, 2,000 near-repeats), and in a language other than English a
name or keyword equal to an English one of the same emoji (untranslated). CLDR's ``pt`` is Brazilian and its
``zh`` Simplified, as everywhere in lingualite.

Register: everyday phrases (short noun phrases and single words, not sentences).
"""

from __future__ import annotations

import json
import tarfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.common import ALL_LANGS, SourceUnavailableError, clean_text, download_npm
from lingualite.data.sources.documents import MULTIWAY, write_lines, write_multiway

__all__ = ["NAME", "PACKAGES", "REGISTER", "annotations", "extract", "fetch", "outputs", "phrases"]

NAME = "cldr"
REGISTER = "everyday phrases"
VERSION = "48.2.0"
# npm package -> the folder of its tarball and the JSON key that hold the annotations
PACKAGES = {
    f"cldr-annotations-full@{VERSION}": ("annotations", "annotations"),
    f"cldr-annotations-derived-full@{VERSION}": ("annotationsDerived", "annotationsDerived"),
}
_SKIN_TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))

Annotations = dict[str, tuple[str, list[str]]]  # emoji -> (name, keywords)


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download both npm tarballs into ``cache_dir`` (once); returns the folder."""
    cache = Path(cache_dir)
    for package in PACKAGES:
        download_npm(package, cache)
    return cache


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/cldr/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def _tarball(folder: Path, package: str) -> Path:
    name, _, version = package.rpartition("@")
    return folder / f"{name}-{version}.tgz"


# lingualite's codes CLDR names otherwise (its folder names are locale ids)
CLDR_LOCALES: dict[str, str] = {"zht": "zh-Hant", "nb": "no"}


def annotations(folder: Path, lang: str) -> Annotations:
    """The names and keywords of ``lang`` from both tarballs in ``folder``; skin-tone variants left out."""
    found: Annotations = {}
    for package, (subdir, key) in PACKAGES.items():
        path = _tarball(folder, package)
        member = f"package/{subdir}/{CLDR_LOCALES.get(lang, lang)}/annotations.json"
        try:
            with tarfile.open(path, "r:gz") as tf:
                handle = tf.extractfile(member)
                if handle is None:
                    raise LinguaLiteError(f"{path.name}: {member} is not a file")
                data = json.load(handle)
        except KeyError as exc:
            raise LinguaLiteError(f"{path.name}: no {member}") from exc
        except (tarfile.TarError, OSError) as exc:
            raise SourceUnavailableError(f"{path}: cannot read the npm tarball: {exc}") from exc
        except ValueError as exc:
            raise LinguaLiteError(f"{path.name}:{member}: not JSON: {exc}") from exc
        try:
            table = data[key]["annotations"]
        except (KeyError, TypeError) as exc:
            raise LinguaLiteError(f"{path.name}:{member}: no {key}.annotations") from exc
        for emoji, entry in table.items():
            if _SKIN_TONES.intersection(emoji) or not isinstance(entry, dict):
                continue
            names = [clean_text(n) for n in entry.get("tts", []) if isinstance(n, str)]
            keywords = [clean_text(k) for k in entry.get("default", []) if isinstance(k, str)]
            found[emoji] = (names[0] if names else "", keywords)
    return found


def _wordy(text: str, emoji: str) -> bool:
    return bool(text) and text != emoji and any(c.isalpha() for c in text)


def phrases(table: Annotations, english: Annotations | None = None) -> Iterator[str]:
    """The distinct names, then the distinct keywords, of ``table``; with ``english`` (another language's
    table), those equal to an English name or keyword of the same emoji are left out."""
    seen: set[str] = set()
    for part in (0, 1):
        for emoji, (name, keywords) in table.items():
            en_name, en_keywords = (english or {}).get(emoji, ("", []))
            untranslated = {t.casefold() for t in (en_name, *en_keywords) if english is not None}
            for text in [name] if part == 0 else keywords:
                if _wordy(text, emoji) and text not in seen and text.casefold() not in untranslated:
                    seen.add(text)
                    yield text


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/cldr/<lang>.txt`` for English and ``langs`` and ``out_dir/cldr/multiway.tsv``; return
    phrases per language."""
    folder = Path(raw)
    paths = outputs(out_dir, langs)
    tables = {lang: annotations(folder, lang) for lang in paths}
    english = tables["en"]
    counts = {
        lang: write_lines(path, phrases(tables[lang], None if lang == "en" else english), f"{folder}: {lang}")
        for lang, path in paths.items()
    }
    rows = ((emoji, {lang: tables[lang].get(emoji, ("", []))[0] for lang in paths}) for emoji in english)
    write_multiway(Path(out_dir) / NAME / MULTIWAY, rows, list(paths))
    return counts
