"""General-domain word lists from the ``wordfreq`` wheel (opt-in source ``lexicon``): each language's most
frequent words, for distillation with a multilingual teacher (``data.monolingual_files``).

A sentence encoder distilled on software help and package descriptions learns the words of those domains
only; a held-out domain (the Bible, in the leave-one-source-out benchmark) then brings words whose vectors the
student never fitted. A multilingual teacher gives a target for a single word in any of its languages, and
its word vectors are already aligned across languages, so fitting ``S(w) ~ T(w)`` on the frequent words of
every language teaches the student the general vocabulary of each language and how it maps across them,
without any sentence of a held-out domain.

``lingualite data fetch --sources lexicon`` downloads the ``wordfreq`` wheel (``pip download --no-deps``; its
code is not installed or imported) and writes ``DATA_DIR/corpora/lexicon/<lang>.txt``: the
:data:`WORDS_PER_LANGUAGE` most frequent words of ``large_<lang>.msgpack.gz`` (``small_<lang>`` where
wordfreq has no large list: Korean and Turkish, whose small lists hold fewer words), most frequent first,
one per line, letters only (an inner apostrophe or hyphen allowed; no digits, no single letters, except a
single Han, Kana or Hangul character, which is a word in Chinese, Japanese and Korean). wordfreq has
every supported language but Thai and Traditional Chinese (:func:`lacking`); its Chinese list is in Simplified
characters. Licence: wordfreq's data is
CC-BY-SA 4.0 (built from Wikipedia, subtitles, news, books, web text and more; word counts only, no text),
its code MIT.

The wheel's word lists are "cBpack" files: a gzipped msgpack list whose first item is a header
(``{"format": "cB", "version": 1}``) and whose item ``i`` holds the words of frequency ``-i`` centibels,
the most frequent first.
"""

from __future__ import annotations

import gzip
import re
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import msgpack

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.data.sources.common import ALL_LANGS, SourceUnavailableError, download_wheel
from lingualite.text.scripts import CHARACTER_SCRIPTS, script_of

__all__ = [
    "NAME",
    "PACKAGE",
    "WORDS_PER_LANGUAGE",
    "extract",
    "fetch",
    "lacking",
    "outputs",
    "read_cbpack",
    "words",
]

NAME = "lexicon"
PACKAGE = "wordfreq==3.1.1"
WORDS_PER_LANGUAGE = 50_000
_MEMBERS = ("wordfreq/data/large_{lang}.msgpack.gz", "wordfreq/data/small_{lang}.msgpack.gz")
# letters, optionally joined by one apostrophe or hyphen ("aujourd'hui", "e-mail"); no digits or underscores
_WORD_CHARACTERS = frozenset({*CHARACTER_SCRIPTS, "Hangul"})  # scripts whose one character can be a word
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the wordfreq wheel into ``cache_dir`` (once); returns its path."""
    return download_wheel(PACKAGE, Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/lexicon/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in ("en", *langs)}


def read_cbpack(data: bytes, where: str) -> list[list[str]]:
    """The frequency bins of a gzipped cBpack file (most frequent first); ``where`` names it in errors."""
    try:
        unpacked = msgpack.unpackb(gzip.decompress(data), raw=False, strict_map_key=False)
    except (OSError, EOFError, ValueError, msgpack.UnpackException) as exc:
        raise LinguaLiteError(f"{where}: not a gzipped msgpack word list: {exc}") from exc
    header = unpacked[0] if isinstance(unpacked, list) and unpacked else None
    if not isinstance(header, dict) or header.get("format") != "cB":
        raise LinguaLiteError(f"{where}: not a cBpack word list (header {header!r})")
    return [[w for w in b if isinstance(w, str)] for b in unpacked[1:] if isinstance(b, list)]


def words(bins: list[list[str]], limit: int = WORDS_PER_LANGUAGE) -> Iterator[str]:
    """The first ``limit`` distinct words of ``bins`` that are letters only and at least two long, or one
    Han, Kana or Hangul character (a word in Chinese, Japanese or Korean: 书, 人, 것)."""
    seen: set[str] = set()
    for word in (w for b in bins for w in b):
        if len(seen) >= limit:
            return
        long_enough = len(word) >= 2 or script_of(word) in _WORD_CHARACTERS
        if long_enough and word not in seen and _WORD.fullmatch(word):
            seen.add(word)
            yield word


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """After the fetch (``raw``: the wheel), the languages wordfreq has no word list for (Thai; Traditional
    Chinese, ``zht``: wordfreq's one Chinese list is Simplified)."""
    if raw is None:
        return {}
    try:
        with zipfile.ZipFile(Path(raw)) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError):
        return {}  # extract says why the wheel cannot be read
    return {
        lang: "wordfreq has no word list for it"
        for lang in langs
        if not any(m.format(lang=lang) in names for m in _MEMBERS)
    }


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/lexicon/<lang>.txt`` for English and ``langs``; return words per language."""
    wheel = Path(raw)
    counts: dict[str, int] = {}
    try:
        with zipfile.ZipFile(wheel) as zf:
            for lang, path in outputs(out_dir, langs).items():
                names = set(zf.namelist())
                member = next((m.format(lang=lang) for m in _MEMBERS if m.format(lang=lang) in names), None)
                if member is None:
                    raise LinguaLiteError(
                        f"{wheel}: no word list for {lang!r} ({_MEMBERS[0].format(lang=lang)})"
                    )
                bins = read_cbpack(zf.read(member), f"{wheel.name}:{member}")
                n = 0
                with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
                    for word in words(bins):
                        fh.write(word + "\n")
                        n += 1
                if n == 0:
                    raise LinguaLiteError(f"{wheel.name}:{member}: no words")
                counts[lang] = n
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceUnavailableError(f"{wheel}: cannot read the wheel: {exc}") from exc
    return counts
