"""The typing-practice texts of Klavaro (opt-in source ``klavaro``): prose passages per language (literature
excerpts, essays, short expository texts; not translations of each other), as untranslated sentences for
distillation with a multilingual teacher (``data.monolingual_files``).

``lingualite data fetch --sources klavaro`` downloads the Debian package ``klavaro`` (0.8 MB; GPL-3+, the
whole package per its copyright file) and writes ``DATA_DIR/corpora/klavaro/<lang>.txt`` from
``usr/share/klavaro/<code>.paragraphs`` (English: ``C``; Portuguese: ``pt_BR``), split at blank lines and
cleaned as the ``monolingual`` source cleans its text
(:func:`~lingualite.data.sources.documents.kept_sentences`). Klavaro has no Turkish, Chinese or Japanese
texts. Small (25 to 140 sentences a language) but of a register no other source holds in Korean: narrative
prose (a short story).

Register: narrative.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.documents import kept_sentences, text_paragraphs, write_lines
from lingualite.data.sources.plain_text import PROSE_RULES

__all__ = ["FILES", "NAME", "PACKAGE", "REGISTER", "extract", "fetch", "lacking", "outputs"]

NAME = "klavaro"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "narrative"
PACKAGE = "klavaro"
FILES = {
    lang: f"{code}.paragraphs"
    for lang, code in {
        "en": "C",
        "fr": "fr",
        "de": "de",
        "es": "es",
        "it": "it",
        "nl": "nl",
        "pl": "pl",
        "pt": "pt_BR",
        "ru": "ru",
        "ko": "ko",
    }.items()
}
_DATA = Path("usr/share/klavaro")


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` Klavaro has no texts in (Turkish, Chinese, Japanese)."""
    return {lang: "Klavaro has no typing texts in it" for lang in langs if lang not in FILES}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``klavaro`` (``cache_dir/{debs,root}``, once); returns the root."""
    return download_and_unpack([PACKAGE], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/klavaro/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/klavaro/<lang>.txt`` for English and ``langs``; return sentences per language."""
    folder = Path(raw) / _DATA
    if not (folder / FILES["en"]).is_file():
        raise LinguaLiteError(f"{Path(raw)}: no unpacked {PACKAGE} ({_DATA}/{FILES['en']}); fetch it first")
    counts: dict[str, int] = {}
    for lang, path in outputs(out_dir, langs).items():
        source = folder / FILES[lang]
        text = source.read_text(encoding="utf-8", errors="replace") if source.is_file() else ""
        counts[lang] = write_lines(path, kept_sentences(text_paragraphs(text), lang), str(source))
    return counts
