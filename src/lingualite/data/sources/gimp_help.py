"""The GIMP user manual (opt-in source ``gimp-help``): a large manual (dialogs, tools, filters, tutorials),
translated into 11 of the supported languages (no Polish, no Turkish), as untranslated sentences for
distillation with a multilingual teacher (``data.monolingual_files``).

``lingualite data fetch --sources gimp-help`` downloads ``gimp-help-en`` and ``gimp-help-<lang>`` for each
requested language (Debian packages, about 50 MB each, mostly screenshots; GFDL-1.2+ without invariant
sections, per ``gimp-help-common``'s copyright) and writes ``DATA_DIR/corpora/gimp-help/<lang>.txt`` for English and each requested language: the
text of each ``<p>`` of ``usr/share/gimp/2.0/help/<locale>/**/*.html`` (Portuguese ``pt_BR``, Chinese
``zh_CN``), cleaned as the ``monolingual`` source cleans its text
(:func:`~lingualite.data.sources.documents.kept_sentences`); a paragraph identical to one of the English manual
is untranslated and is dropped (the Korean manual is mostly untranslated: about 1,700 sentences).

Register: software help (an image editor's manual), beside LibreOffice's and GNOME's.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS, locale_name
from lingualite.data.sources.documents import write_languages
from lingualite.data.sources.plain_text import PROSE_RULES, html_paragraphs

__all__ = ["NAME", "PACKAGES", "REGISTER", "extract", "fetch", "lacking", "outputs"]

NAME = "gimp-help"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "software help"
PACKAGES = {
    lang: f"gimp-help-{suffix}"
    for lang, suffix in {
        "en": "en",
        "fr": "fr",
        "de": "de",
        "es": "es",
        "it": "it",
        "nl": "nl",
        "pt": "pt-br",
        "ru": "ru",
        "zh": "zh-cn",
        "ja": "ja",
        "ko": "ko",
    }.items()
}
_HELP = Path("usr/share/gimp/2.0/help")


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` the GIMP manual is not packaged in (Polish, Turkish)."""
    return {lang: "Debian has no GIMP manual in it" for lang in langs if lang not in PACKAGES}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the English manual and those of ``langs`` (``cache_dir/{debs,root}``, once per
    package); returns the root."""
    wanted = [PACKAGES[lang] for lang in ("en", *langs) if lang in PACKAGES]
    return download_and_unpack(list(dict.fromkeys(wanted)), Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/gimp-help/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def _pages(root: Path, lang: str) -> Iterator[str]:
    for page in sorted((root / _HELP / locale_name(lang)).rglob("*.html")):
        if page.is_file() and not page.is_symlink():
            yield from html_paragraphs(page)


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/gimp-help/<lang>.txt`` for English and ``langs``; return sentences per language."""
    root = Path(raw)
    if not (root / _HELP / "en").is_dir():
        raise LinguaLiteError(f"{root}: no unpacked gimp-help-en ({_HELP}/en); fetch it first")
    return write_languages(
        outputs(out_dir, langs),
        lambda lang: _pages(root, lang),
        lambda lang: root / _HELP / locale_name(lang),
    )
