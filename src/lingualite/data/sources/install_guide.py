"""The Debian installation guide (opt-in source ``install-guide``): a manual translated into 11 of the supported
languages (no Polish, no Turkish), as untranslated sentences for distillation with a multilingual teacher
(``data.monolingual_files``).

``lingualite data fetch --sources install-guide`` downloads the Debian package ``installation-guide-amd64``
(18 MB; GPL-2) and writes ``DATA_DIR/corpora/install-guide/<lang>.txt`` for English and each requested
language: the text of each ``<p>`` of ``usr/share/doc/installation-guide-amd64/<code>/*.html`` (Chinese
``zh_CN``; its Portuguese, ``pt``, is European, the only one the package has), cleaned as the ``monolingual`` source
cleans its text (:func:`~lingualite.data.sources.documents.kept_sentences`); a paragraph identical to one of
the English manual is untranslated and is dropped.

Register: instructional (step-by-step installation, hardware, partitioning), about 2,300 sentences a language.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.documents import write_languages
from lingualite.data.sources.plain_text import PROSE_RULES, html_paragraphs

__all__ = ["FOLDERS", "NAME", "PACKAGE", "REGISTER", "extract", "fetch", "lacking", "outputs"]

NAME = "install-guide"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "instructional"
PACKAGE = "installation-guide-amd64"
FOLDERS = {
    "en": "en",
    "fr": "fr",
    "de": "de",
    "es": "es",
    "it": "it",
    "nl": "nl",
    "pt": "pt",
    "ru": "ru",
    "zh": "zh_CN",
    "ja": "ja",
    "ko": "ko",
}
_DOC = Path("usr/share/doc/installation-guide-amd64")


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` the guide is not translated into (Polish, Turkish)."""
    return {lang: "the installation guide is not translated into it" for lang in langs if lang not in FOLDERS}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``installation-guide-amd64`` (``cache_dir/{debs,root}``, once); returns the root."""
    return download_and_unpack([PACKAGE], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/install-guide/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def _pages(root: Path, lang: str) -> Iterator[str]:
    for page in sorted((root / _DOC / FOLDERS[lang]).glob("*.html")):
        yield from html_paragraphs(page)


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/install-guide/<lang>.txt`` for English and ``langs``; return sentences per language."""
    root = Path(raw)
    if not (root / _DOC / "en").is_dir():
        raise LinguaLiteError(f"{root}: no unpacked {PACKAGE} ({_DOC}/en); fetch it first")
    return write_languages(
        outputs(out_dir, langs), lambda lang: _pages(root, lang), lambda lang: root / _DOC / FOLDERS[lang]
    )
