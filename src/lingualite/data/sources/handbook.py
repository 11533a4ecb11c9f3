"""The Debian Administrator's Handbook (opt-in source ``handbook``): a book, translated into every supported
language, as untranslated sentences for distillation with a multilingual teacher (``data.monolingual_files``).

``lingualite data fetch --sources handbook`` downloads the Debian package ``debian-handbook`` (35 MB, all
languages in one package; GPL-2+ or CC-BY-SA-3.0) and writes ``DATA_DIR/corpora/handbook/<lang>.txt`` for
English and each requested language: the text of each ``<div class="para">`` of the book's HTML
(``usr/share/doc/debian-handbook/html/<locale>/*.html``, tags dropped, entities decoded), cleaned as the
``monolingual`` source cleans its text (:func:`~lingualite.data.sources.documents.kept_sentences`). A
paragraph of a translation identical to one of the English book is untranslated and is dropped there (the
Turkish and Korean translations are partial: about 900 and 160 sentences).

Register: long-form instructional and expository prose (system administration, history of Debian, policy),
the nearest the packages hold to a formal book in every language.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS, clean_text
from lingualite.data.sources.documents import write_languages
from lingualite.data.sources.plain_text import PROSE_RULES

__all__ = ["LOCALES", "NAME", "PACKAGE", "REGISTER", "extract", "fetch", "lacking", "outputs", "paragraphs"]

NAME = "handbook"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "instructional"
PACKAGE = "debian-handbook"
LOCALES = {
    "en": "en-US",
    "fr": "fr-FR",
    "de": "de-DE",
    "es": "es-ES",
    "it": "it-IT",
    "nl": "nl-NL",
    "pl": "pl-PL",
    "pt": "pt-BR",
    "ru": "ru-RU",
    "tr": "tr-TR",
    "zh": "zh-CN",
    "ja": "ja-JP",
    "ko": "ko-KR",
}
_HTML = Path("usr/share/doc/debian-handbook/html")
_PARA = re.compile(r'<div class="para">(.*?)</div>', re.S)
_TAG = re.compile(r"<[^>]+>")
_SPACE_BEFORE_STOP = re.compile(r" ([.,;:])(?=\s|$)")


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``debian-handbook`` (``cache_dir/{debs,root}``, once); returns the root."""
    return download_and_unpack([PACKAGE], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/handbook/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` the Handbook is not translated into."""
    return {lang: f"{PACKAGE} has no translation into it" for lang in langs if lang not in LOCALES}


def paragraphs(path: Path) -> list[str]:
    """The text of each ``<div class="para">`` of one HTML page (tags dropped, entities decoded)."""
    source = path.read_text(encoding="utf-8", errors="replace")
    texts = (clean_text(html.unescape(_TAG.sub(" ", p))) for p in _PARA.findall(source))
    return [_SPACE_BEFORE_STOP.sub(r"\1", t) for t in texts if t]


def _book(root: Path, lang: str) -> Iterator[str]:
    for page in sorted((root / _HTML / LOCALES[lang]).glob("*.html")):
        yield from paragraphs(page)


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/handbook/<lang>.txt`` for English and ``langs``; return sentences per language."""
    root = Path(raw)
    if not (root / _HTML / LOCALES["en"]).is_dir():
        raise LinguaLiteError(f"{root}: no unpacked {PACKAGE} ({_HTML}/en-US); fetch it first")
    return write_languages(
        outputs(out_dir, langs), lambda lang: _book(root, lang), lambda lang: root / _HTML / LOCALES[lang]
    )
