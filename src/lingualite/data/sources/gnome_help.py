"""The GNOME desktop help (opt-in source ``gnome-help``): task pages ("Change your password", "Connect to a
wireless network"), translated into most supported languages, as untranslated sentences for distillation with a
multilingual teacher (``data.monolingual_files``).

``lingualite data fetch --sources gnome-help`` downloads the Debian package ``gnome-user-docs`` (8.5 MB;
CC-BY-SA-3.0) and writes ``DATA_DIR/corpora/gnome-help/<lang>.txt`` for English and each requested language:
the text of each ``<p>`` of the Mallard pages ``usr/share/help/<locale>/*/*.page`` (English: ``C``;
Portuguese ``pt_BR``, Chinese ``zh_CN``), cleaned as the ``monolingual`` source cleans its text
(:func:`~lingualite.data.sources.documents.kept_sentences`); a paragraph identical to one of the English pages
is untranslated and is dropped. The Turkish pages are almost all untranslated (a handful of sentences; no file:
:func:`lacking`), the Italian, Chinese and Japanese ones partly; Korean is complete (about 3,400 sentences).

Register: software help (a desktop's, addressed to its user), beside LibreOffice's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS, locale_name
from lingualite.data.sources.documents import write_languages
from lingualite.data.sources.plain_text import PROSE_RULES, html_paragraphs

__all__ = ["NAME", "PACKAGE", "REGISTER", "UNTRANSLATED", "extract", "fetch", "lacking", "outputs"]

NAME = "gnome-help"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "software help"
PACKAGE = "gnome-user-docs"
_HELP = Path("usr/share/help")
# Languages whose pages are (nearly) all left in English: no file is written for them.
UNTRANSLATED = frozenset({"tr"})


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` whose pages are untranslated (Turkish: 3 sentences in Debian 12)."""
    return {lang: "its GNOME help pages are left in English" for lang in langs if lang in UNTRANSLATED}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``gnome-user-docs`` (``cache_dir/{debs,root}``, once); returns the root."""
    return download_and_unpack([PACKAGE], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/gnome-help/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def _folder(lang: str) -> str:
    return "C" if lang == "en" else locale_name(lang)


def _pages(root: Path, lang: str) -> Iterator[str]:
    for page in sorted((root / _HELP / _folder(lang)).glob("*/*.page")):
        yield from html_paragraphs(page)


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/gnome-help/<lang>.txt`` for English and ``langs``; return sentences per language."""
    root = Path(raw)
    if not (root / _HELP / "C").is_dir():
        raise LinguaLiteError(f"{root}: no unpacked {PACKAGE} ({_HELP}/C); fetch it first")
    return write_languages(
        outputs(out_dir, langs), lambda lang: _pages(root, lang), lambda lang: root / _HELP / _folder(lang)
    )
