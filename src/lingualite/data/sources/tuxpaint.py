"""The stamp descriptions of Tux Paint (opt-in source ``tuxpaint``): one short description per picture ("A
US 25 cent piece called a quarter.", "A butterfly is an insect with large colourful wings."), written for
children and translated into every supported language, multi-way aligned by stamp.

``lingualite data fetch --sources tuxpaint`` downloads the Debian package ``tuxpaint-stamps-default``
(GPL-2; 161 MB of pictures, once, in the cache, for about 950 descriptions) and reads each stamp's ``.txt``
(``usr/share/tuxpaint/stamps/**/*.txt``: the English description on the first line, then
``<locale>.utf8=<translation>`` lines; Portuguese is ``pt_BR``, Chinese ``zh_CN``). It writes

* ``DATA_DIR/corpora/tuxpaint/<lang>.txt`` for English and each requested language: the distinct
  descriptions, one per line, for distillation with a multilingual teacher (``data.monolingual_files``);
* ``DATA_DIR/corpora/tuxpaint/multiway.tsv``: ``id<TAB>en<TAB>fr...`` (a header line, then one row per
  stamp described in every language written; the id is the stamp's path), a held-out evaluation register
  of short descriptive sentences, translated by Tux Paint's translators.

Left out: descriptions without a letter, a translation equal to the English description (untranslated), and
in a language not written in Latin letters one mostly in other scripts
(:func:`~lingualite.data.sources.monolingual.own_script`).

Register: encyclopedic (short descriptions of animals, plants, objects, places, for children).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS, clean_text, locale_name
from lingualite.data.sources.documents import MULTIWAY, write_lines, write_multiway
from lingualite.data.sources.monolingual import own_script

__all__ = ["NAME", "PACKAGE", "REGISTER", "descriptions", "extract", "fetch", "outputs", "read_stamp"]

NAME = "tuxpaint"
REGISTER = "encyclopedic"
PACKAGE = "tuxpaint-stamps-default"
_STAMPS = Path("usr/share/tuxpaint/stamps")


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``tuxpaint-stamps-default`` (``cache_dir/{debs,root}``, once); returns the root."""
    return download_and_unpack([PACKAGE], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/tuxpaint/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def read_stamp(path: Path, langs: Sequence[str]) -> dict[str, str]:
    """The description of one stamp in English and each language of ``langs`` that translates it."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    if not lines:
        return {}
    by_locale: dict[str, str] = {}
    for line in lines[1:]:
        locale, sep, text = line.partition(".utf8=")
        if sep:
            by_locale[locale.strip()] = clean_text(text)
    english = clean_text(lines[0])
    found = {"en": english}
    for lang in langs:
        text = by_locale.get(locale_name(lang), "")
        if lang != "en" and text and text.casefold() != english.casefold() and own_script(text, lang):
            found[lang] = text
    return {lang: text for lang, text in found.items() if any(c.isalpha() for c in text)}


def descriptions(root: Path, langs: Sequence[str]) -> list[tuple[str, dict[str, str]]]:
    """``(stamp id, {lang: description})`` for every stamp under ``root``, sorted by id."""
    folder = root / _STAMPS
    return [
        (path.relative_to(folder).with_suffix("").as_posix(), read_stamp(path, langs))
        for path in sorted(folder.rglob("*.txt"))
        if path.is_file() and not path.is_symlink()
    ]


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/tuxpaint/<lang>.txt`` for English and ``langs`` and ``out_dir/tuxpaint/multiway.tsv``;
    return descriptions per language."""
    root = Path(raw)
    if not (root / _STAMPS).is_dir():
        raise LinguaLiteError(f"{root}: no unpacked {PACKAGE} ({_STAMPS}); fetch it first")
    paths = outputs(out_dir, langs)
    stamps = descriptions(root, list(paths))
    counts = {
        lang: write_lines(path, dict.fromkeys(t[lang] for _, t in stamps if lang in t), str(root / _STAMPS))
        for lang, path in paths.items()
    }
    write_multiway(Path(out_dir) / NAME / MULTIWAY, stamps, list(paths))
    return counts
