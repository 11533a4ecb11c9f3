"""Turkish dictionary definitions from FreeDict's English-Turkish dictionary (opt-in source ``freedict``):
the Turkish explanations of about 34,000 English headwords ("söz ve davranışlarla cesaret vermek veya yardım
etmek"), short Turkish phrases for distillation with a multilingual teacher (``data.monolingual_files``).
Turkish is the language with least text in the other sources.

``lingualite data fetch --sources freedict --langs tr`` downloads the Debian package
``dict-freedict-eng-tur`` (GPL-2+; the dictd database ``usr/share/dictd/freedict-eng-tur.dict.dz``, gzip) and
writes ``DATA_DIR/corpora/freedict/tr.txt``: each numbered sense of an entry (``1. ...``) without its
parenthesised labels, split at ``.``, ``;``, ``,`` and ``:``, one piece a line when it reads as Turkish: at
least three words, letters only (an inner apostrophe allowed), at least one letter only Turkish has (ç ğ ı ö ş
ü), and no English word in it: neither a headword of the dictionary (three letters or more, no Turkish letter:
the entries embed English sub-entries, "take to wife evlenmek") nor a word with an English suffix (-ly,
-tion, -ness, ...: misspelt sub-entries). About 27,000 phrases; some English remains.

Register: dictionary definitions (phrases, not sentences).
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.documents import write_lines

__all__ = ["DICTIONARIES", "NAME", "REGISTER", "definitions", "extract", "fetch", "lacking", "outputs"]

NAME = "freedict"
REGISTER = "dictionary definitions"
DICTIONARIES = {"tr": "eng-tur"}  # language -> FreeDict dictionary whose definitions are in that language
_DICTD = Path("usr/share/dictd")
_HEADWORD = re.compile(r"^(\S.*?) /.*/\s*$")
_SENSE = re.compile(r"^\d+\.\s+(.*)")
_LABEL = re.compile(r"\([^)]*\)")
_WORD = re.compile(r"^[^\W\d_]+(?:'[^\W\d_]+)?$")
_TURKISH = re.compile("[çğıöşüÇĞİÖŞÜ]")
_ENGLISH_SUFFIXES = ("ly", "tion", "ness", "ment", "able", "ible", "ous", "ive", "ed", "ing")


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """Every language of ``langs`` but Turkish (the only FreeDict dictionary with definitions read)."""
    return {
        lang: "no FreeDict dictionary of definitions in it is read"
        for lang in langs
        if lang not in DICTIONARIES
    }


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the dictionaries of ``langs`` (``cache_dir/{debs,root}``, once); returns the root."""
    wanted = [f"dict-freedict-{DICTIONARIES[lang]}" for lang in langs if lang in DICTIONARIES]
    return download_and_unpack(wanted or [f"dict-freedict-{DICTIONARIES['tr']}"], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/freedict/<lang>.txt`` for the languages of ``langs`` with a dictionary (no English file)."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in langs if lang in DICTIONARIES}


def _english(word: str, headwords: set[str]) -> bool:
    if _TURKISH.search(word):
        return False
    lower = word.lower()
    return (len(word) >= 3 and lower in headwords) or (len(word) >= 5 and lower.endswith(_ENGLISH_SUFFIXES))


def definitions(text: str) -> Iterator[str]:
    """The distinct Turkish definition phrases of a dictd database's text (see the module docstring)."""
    headwords: set[str] = set()
    senses: list[str] = []
    for line in text.splitlines():
        head = _HEADWORD.match(line)
        if head and not line.startswith(" "):
            headwords.add(head.group(1).lower())
        elif sense := _SENSE.match(line.strip()):
            senses.append(sense.group(1))
    seen: set[str] = set()
    for sense in senses:
        for piece in re.split(r"[.;,:]", _LABEL.sub(" ", sense)):
            words = piece.split()
            if len(words) < 3 or not all(_WORD.match(w) for w in words) or not _TURKISH.search(piece):
                continue
            phrase = " ".join(words)
            if phrase not in seen and not any(_english(w, headwords) for w in words):
                seen.add(phrase)
                yield phrase


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/freedict/<lang>.txt`` for the languages of ``langs`` with a dictionary; return counts."""
    root = Path(raw)
    counts: dict[str, int] = {}
    for lang, path in outputs(out_dir, langs).items():
        database = root / _DICTD / f"freedict-{DICTIONARIES[lang]}.dict.dz"
        if not database.is_file():
            raise LinguaLiteError(f"{database}: missing; fetch dict-freedict-{DICTIONARIES[lang]} first")
        try:
            text = gzip.decompress(database.read_bytes()).decode("utf-8", errors="replace")
        except (OSError, EOFError) as exc:
            raise LinguaLiteError(f"{database}: not a gzipped dictd database: {exc}") from exc
        counts[lang] = write_lines(path, definitions(text), str(database))
    return counts
