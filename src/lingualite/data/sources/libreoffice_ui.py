"""LibreOffice UI message catalogs (MPL-2.0): English msgid -> translated msgstr, from gettext ``.mo`` files.

``fetch`` runs ``apt-get download libreoffice-l10n-<lang>`` and ``dpkg-deb -x``; the catalogs end up under
``<cache>/root/usr/lib/libreoffice/program/resource/<dir>/LC_MESSAGES/<module>.mo`` (sw, sc, cui, ...),
``<dir>`` being :data:`RESOURCE_DIRS` of the language (``pt_BR``, ``zh_CN``, ``zh_TW`` for Portuguese and Chinese:
the same variants as the help, :mod:`lingualite.data.sources.libreoffice`). No English package is needed:
the msgids are the English strings. Every supported language has a language pack.

Per entry: the header, plural entries and untranslated (empty) ones are skipped; keyboard accelerators are
removed (``~Open``, ``_Open``, ``Collec_t`` -> ``Open``, ``Collect``; ``__`` is a literal underscore; the
bracketed accelerators of Chinese, Japanese and Korean strings, ``关闭(~C)`` -> ``关闭``, are removed whole),
formatting tags (``<b>``, ``<BR>``, ``<font size=1>``) are dropped while visible ``<None>``-style labels
stay, ``%PRODUCTNAME`` becomes ``LibreOffice`` and the other placeholders (``%1``, ``$(ARG1)``,
``$name$``...) are kept as written. A side needs :data:`~lingualite.data.sources.common.MIN_WORDS` words
holding a letter besides placeholders; ``write_pairs`` then applies the shared rules (>= 3 words a side,
copied English dropped, dedup).

Document unit (``doc_id``, what the train/valid/test split keeps together): ``loui:<module>/<group>``.
For dialog strings ``<group>`` is the ``.ui`` file (the msgctxt before its first ``|``, e.g.
``sw/annotationmenu``; tips filed as ``extended_tip|<widget>`` without a file use the widget). For code
strings (msgctxt ``STR_UNDO_DELETE``-style ids) it is the id without its digits, which keeps numbered
families together (``STR_POOLCOLL_BULLET_LEVEL1..5``, the hundreds of ``RID_SUBSETMAP`` entries sharing
one id) and one Calc function's description and arguments together (``sc/SC_OPCODE_ABS``). An English
string seen before (other module, other context, another translation) keeps the document of its first
occurrence, so its variants never straddle two splits.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.cleaning import normalize_light
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import (
    ALL_LANGS,
    MIN_WORDS,
    clean_text,
    locale_name,
    output_path,
    write_pairs,
)
from lingualite.data.sources.mo import MoEntry, read_mo
from lingualite.text.segmentation import length_units

__all__ = [
    "NAME",
    "PACKAGES",
    "RESOURCE_DIRS",
    "clean_ui_text",
    "doc_group",
    "extract",
    "fetch",
    "find_resource_root",
    "real_words",
]

NAME = "libreoffice-ui"
# The catalog folder of each language (the help's variant, with an underscore) and its package.
RESOURCE_DIRS: dict[str, str] = {lang: locale_name(lang) for lang in ALL_LANGS}
PACKAGES: dict[str, str] = {
    lang: f"libreoffice-l10n-{locale_name(lang).replace('_', '-').lower()}" for lang in ALL_LANGS
}
_RESOURCE_SUBDIR = Path("usr/lib/libreoffice/program/resource")
PRODUCT_NAME = "LibreOffice"

_TAG = re.compile(r"</?(?:br|b|i|u|s|font|span|a|big|small|sub|sup)\b[^<>]*/?>", re.I)
_TILDE = re.compile(r"~(?=\S)")
# Chinese, Japanese and Korean catalogs add the accelerator as a bracketed Latin letter: 关闭(~C), 削除(_D)
_BRACKETED_ACCELERATOR = re.compile(r"\s?\([~_][A-Za-z0-9]\)")
_MNEMONIC = re.compile(r"(?<!_)_(?=[^\W_])")  # a single underscore before a letter or digit (GTK)
_PLACEHOLDER = re.compile(
    r"%[A-Z][A-Z0-9_]*%?|%\d+|%[sdnu]\b|\$\([A-Za-z0-9_]+\)|\$[A-Za-z_]+\$|\$\d+\$?|\$[A-Z][A-Z_]*|#\d+|#N\b"
)
_LETTER = re.compile(r"[^\W\d_]")
_ID_DIGITS = re.compile(r"\d+")


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``libreoffice-l10n-<lang>`` for ``langs``; return the ``resource`` folder.

    Same layout as :func:`lingualite.data.sources.libreoffice.fetch` (``debs/``, ``root/`` and one
    ``.unpacked-<package>`` marker per package), any package version.
    """
    root = download_and_unpack([PACKAGES[lang] for lang in langs], Path(cache_dir))
    return root / _RESOURCE_SUBDIR


def find_resource_root(raw: Path) -> Path:
    """The folder holding ``<lang>/LC_MESSAGES``: ``raw``, or ``raw/[root/]usr/lib/libreoffice/program/resource``."""
    for cand in (raw, raw / _RESOURCE_SUBDIR, raw / "root" / _RESOURCE_SUBDIR):
        if cand.is_dir() and any(cand.glob("*/LC_MESSAGES/*.mo")):
            return cand
    raise LinguaLiteError(
        f"{raw}: no LibreOffice UI catalogs (<lang>/LC_MESSAGES/*.mo) found; fetch them first"
    )


def clean_ui_text(text: str, dialog: bool = True) -> str:
    """Readable text of one UI string: tags and accelerators removed, ``%PRODUCTNAME`` spelled out.

    ``dialog``: a ``.ui`` string, whose accelerator is GTK's ``_`` (code strings use only ``~``).
    """
    text = html.unescape(_TAG.sub(" ", text)) if "<" in text or "&" in text else text
    text = _TILDE.sub("", _BRACKETED_ACCELERATOR.sub("", text))
    if dialog and "_" in text:
        text = _MNEMONIC.sub("", text, count=1).replace("__", "_")
    text = text.replace("%PRODUCTNAME", PRODUCT_NAME)
    return clean_text(text)


def real_words(text: str, lang: str | None = None) -> float:
    """Words holding a letter once placeholders (``%1``, ``$(ARG1)``, ``%NAME``, ...) are removed, in the
    units of :func:`~lingualite.text.segmentation.length_units` (Chinese and Japanese characters scaled to
    words, so an unspaced Chinese string is not one word)."""
    words = [word for word in _PLACEHOLDER.sub(" ", text).split() if _LETTER.search(word)]
    return length_units(" ".join(words), lang)


def doc_group(context: str | None) -> str:
    """The document group of a msgctxt: its ``.ui`` file, or a code id without digits (see the module doc)."""
    if not context:
        return "_"
    if "|" in context:
        parts = [p.strip() for p in context.split("|")]
        return parts[1] if parts[0].replace(" ", "_") == "extended_tip" else parts[0]
    return _ID_DIGITS.sub("", context) or "_"


def _usable(entry: MoEntry) -> bool:
    return entry.plural is None and bool(entry.msgid.strip()) and bool(entry.msgstr.strip())


def _pairs(lang_dir: Path, lang: str | None = None) -> Iterator[tuple[str, str, str]]:
    first_doc: dict[str, str] = {}  # normalized English -> the document it first appeared in
    for mo in sorted(lang_dir.glob("*.mo")):
        for entry in read_mo(mo):
            if not _usable(entry):
                continue
            dialog = entry.context is not None and "|" in entry.context
            en, xx = clean_ui_text(entry.msgid, dialog), clean_ui_text(entry.msgstr, dialog)
            if min(real_words(en, "en"), real_words(xx, lang)) < MIN_WORDS:
                continue
            doc = first_doc.setdefault(normalize_light(en), f"loui:{mo.stem}/{doc_group(entry.context)}")
            yield en, xx, doc


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/libreoffice-ui/en-<lang>.tsv`` for each language; return pair counts."""
    root = find_resource_root(Path(raw))
    folders = {lang: root / RESOURCE_DIRS[lang] / "LC_MESSAGES" for lang in langs}
    missing = [lang for lang, folder in folders.items() if not any(folder.glob("*.mo"))]
    if missing:
        raise LinguaLiteError(f"{root}: no UI catalogs for {', '.join(missing)}; fetch them first")
    return {
        lang: write_pairs(output_path(out_dir, NAME, lang), _pairs(folder, lang), lang=lang)
        for lang, folder in folders.items()
    }
