"""LibreOffice help (MPL-2.0): paragraphs aligned by (page path, paragraph ``id``) across languages.

``fetch`` runs ``apt-get download libreoffice-help-<lang>`` and ``dpkg-deb -x``; the pages end up under
``<cache>/root/usr/share/libreoffice/help/<dir>/text/**.html``, ``<dir>`` being :data:`HELP_DIRS` of the
language (``en-US``, ``fr``, ..., ``pt-BR``, ``zh-CN``, ``zh-TW``). Debian 12 has a help package (2,561 pages
each) for most supported languages; :func:`lacking` asks apt which have none (Debian 12: ar, bg, fa, he, nb,
ro, th, uk, whose LibreOffice translates only its UI: ``libreoffice-ui``), and after the fetch drops a help
folder that is a link to another language's (Debian 12's ``sk`` is a link to ``cs``: Czech pages).
:func:`lacking_offline` is the same question for a check that must not download: apt's answer where apt can
tell, else what Debian 12 lacks (:data:`DEBIAN_12_NO_HELP`).

Variants: Portuguese is the Brazilian help (``libreoffice-help-pt-br``): paper 002 names no variant, and
the Brazilian translation is the more complete one (12.9% of the English paragraphs left untranslated
against 37.3% in ``libreoffice-help-pt``, LibreOffice 7.4). Chinese is Simplified (``zh-CN``), as in
paper 001; ``zht`` is the Traditional one (``zh-TW``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from html.parser import HTMLParser
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack, known_packages
from lingualite.data.sources.common import (
    ALL_LANGS,
    align_units,
    clean_text,
    locale_name,
    output_path,
    write_pairs,
)
from lingualite.text.languages import ENGLISH, SUPPORTED
from lingualite.text.segmentation import SENTENCE_RULES

__all__ = [
    "HELP_DIRS",
    "NAME",
    "PACKAGES",
    "extract",
    "fetch",
    "DEBIAN_12_NO_HELP",
    "find_help_root",
    "lacking",
    "lacking_offline",
    "parse_page",
]

NAME = "libreoffice"
EXTRACTION = SENTENCE_RULES  # its pairs are aligned sentence by sentence (align_units)
# The help folder (and package suffix) of each language: its locale with a hyphen, American English.
HELP_DIRS: dict[str, str] = {
    lang: "en-US" if lang == ENGLISH else locale_name(lang).replace("_", "-") for lang in SUPPORTED
}
PACKAGES: dict[str, str] = {lang: f"libreoffice-help-{folder.lower()}" for lang, folder in HELP_DIRS.items()}
# The supported languages Debian 12 has no help package for (apt-cache, 2026-11-27; docs/data-and-licences.md):
# what :func:`lacking_offline` says where apt cannot tell (no apt-cache, or empty package lists).
# (language -> the package apt-cache did not know: a fact about the archive, not a list of languages)
DEBIAN_12_NO_HELP: dict[str, str] = {
    "ar": "libreoffice-help-ar",
    "bg": "libreoffice-help-bg",
    "fa": "libreoffice-help-fa",
    "he": "libreoffice-help-he",
    "nb": "libreoffice-help-nb",
    "ro": "libreoffice-help-ro",
    "th": "libreoffice-help-th",
    "uk": "libreoffice-help-uk",
}
_HELP_SUBDIR = Path("usr/share/libreoffice/help")

_TEXT_TAGS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6"})
_VOID_TAGS = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
)
_BODY_MARK = 'id="DisplayArea"'  # page chrome before this element has no help text
# Paragraph-level elements with an id. Only these are handed to the HTML parser, which halves its work
# (the pages are generated XHTML: such elements never nest and are always closed).
_PARAGRAPH = re.compile(r"<(p|h[1-6])\s[^>]*\bid=[^>]*>.*?</\1\s*>", re.S)


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """Before the fetch, the languages of ``langs`` whose help package apt does not know (nothing is said
    where apt is missing: the fetch says why it cannot run); after it, those without pages in ``raw``."""
    if raw is not None:
        root = find_help_root(Path(raw))
        return {lang: why for lang in langs if (why := _unusable(root, lang))}
    return _no_package(langs) or {}


def lacking_offline(langs: Sequence[str]) -> dict[str, str]:
    """The languages of ``langs`` without a help package, known without downloading anything: apt's answer
    (:func:`lacking` before the fetch) where apt can tell, else :data:`DEBIAN_12_NO_HELP`."""
    found = _no_package(langs)
    if found is not None:
        return found
    return {
        lang: f"Debian 12 has no {DEBIAN_12_NO_HELP[lang]}" for lang in langs if lang in DEBIAN_12_NO_HELP
    }


def _no_package(langs: Sequence[str]) -> dict[str, str] | None:
    """The languages of ``langs`` whose help package apt does not know; None where apt cannot tell."""
    known = known_packages([PACKAGES[lang] for lang in langs])
    if known is None:
        return None
    return {lang: f"Debian has no {PACKAGES[lang]}" for lang in langs if PACKAGES[lang] not in known}


def _unusable(root: Path, lang: str) -> str | None:
    """Why the unpacked help of ``lang`` is not its own translation, or None when it is."""
    folder = root / HELP_DIRS[lang]
    if folder.is_symlink():  # Debian 12's libreoffice-help-sk is a link to the Czech help (sk -> cs)
        return f"{PACKAGES[lang]} holds no translation of its own ({folder.name} -> {folder.readlink()})"
    return None if folder.is_dir() else "no help pages were unpacked"


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the help packages for English and ``langs``; return the help root folder."""
    wanted = [PACKAGES[lang] for lang in dict.fromkeys(["en", *langs])]
    root = download_and_unpack(wanted, Path(cache_dir))
    return root / _HELP_SUBDIR


def find_help_root(raw: Path) -> Path:
    """The folder holding ``en-US/text``: ``raw`` itself, or ``raw/[root/]usr/share/libreoffice/help``."""
    for cand in (raw, raw / _HELP_SUBDIR, raw / "root" / _HELP_SUBDIR):
        if (cand / HELP_DIRS["en"] / "text").is_dir():
            return cand
    raise LinguaLiteError(f"{raw}: no LibreOffice help pages (en-US/text) found; fetch them first")


class _PageParser(HTMLParser):
    """Collects the text of every ``<p>``/``<h1..6>`` with an ``id``.

    Module/platform variants (``<span hidden="true" class="MAC">`` etc.) are skipped; the default
    variant (hidden but without a class) is kept, so every language renders the same way.
    """

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.paragraphs: dict[str, str] = {}
        self._stack: list[str] = []
        self._capture: tuple[int, str] | None = None  # (stack depth, key) of the open paragraph
        self._skip_depth: int | None = None
        self._buf: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID_TAGS:
            if tag == "br" and self._capture is not None:
                self._buf.append(" ")
            return
        self._stack.append(tag)
        if self._capture is not None:
            if self._skip_depth is None:
                a = dict(attrs)
                if "hidden" in a and a.get("class"):
                    self._skip_depth = len(self._stack)
        elif tag in _TEXT_TAGS:
            pid = dict(attrs).get("id")
            if pid and not pid.startswith("bm_"):
                key, n = pid, 1
                while key in self.paragraphs:  # a repeated id: number the repeats
                    n += 1
                    key = f"{pid}#{n}"
                self.paragraphs[key] = ""  # reserve the key in document order
                self._capture = (len(self._stack), key)
                self._buf = []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" and self._capture is not None:
            self._buf.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID_TAGS or tag not in self._stack:
            return
        while self._stack:
            depth = len(self._stack)
            top = self._stack.pop()
            if self._skip_depth == depth:
                self._skip_depth = None
            if self._capture is not None and self._capture[0] == depth:
                self.paragraphs[self._capture[1]] = clean_text("".join(self._buf))
                self._capture = None
            if top == tag:
                break

    def handle_data(self, data: str) -> None:
        if self._capture is not None and self._skip_depth is None:
            self._buf.append(data)


def parse_page(path: Path) -> dict[str, str]:
    """Map paragraph id to normalised text for one help page (ids in document order)."""
    html = path.read_text(encoding="utf-8", errors="replace")
    start = html.find(_BODY_MARK)
    parser = _PageParser()
    for m in _PARAGRAPH.finditer(html, max(start, 0)):
        parser.feed(m.group(0))
    parser.close()
    return {k: v for k, v in parser.paragraphs.items() if v}


def _pages(text_dir: Path) -> list[str]:
    return sorted(p.relative_to(text_dir).as_posix() for p in text_dir.rglob("*.html"))


def _pairs(en_pages: dict[str, dict[str, str]], xx_dir: Path, lang: str) -> Iterator[tuple[str, str, str]]:
    for page, en_pars in en_pages.items():
        xx_path = xx_dir / page
        if not xx_path.is_file():
            continue
        xx_pars = parse_page(xx_path)
        doc_id = f"lo:{page}"
        for key, en_text in en_pars.items():
            xx_text = xx_pars.get(key)
            if xx_text:
                for en, xx in align_units(en_text, xx_text, lang):
                    yield en, xx, doc_id


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/libreoffice/en-<lang>.tsv`` for each language; return pair counts."""
    root = find_help_root(Path(raw))
    en_dir = root / HELP_DIRS["en"] / "text"
    missing = [lang for lang in langs if not (root / HELP_DIRS[lang] / "text").is_dir()]
    if missing:
        raise LinguaLiteError(f"{root}: no help pages for {', '.join(missing)}; fetch them first")
    en_pages = {page: parse_page(en_dir / page) for page in _pages(en_dir)}
    counts: dict[str, int] = {}
    for lang in langs:
        xx_dir = root / HELP_DIRS[lang] / "text"
        counts[lang] = write_pairs(
            output_path(out_dir, NAME, lang), _pairs(en_pages, xx_dir, lang), lang=lang
        )
    return counts
