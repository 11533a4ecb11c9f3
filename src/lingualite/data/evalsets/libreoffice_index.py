"""LibreOffice help index: monolingual English and cross-lingual (fr/de/es/it -> English) retrieval.

The help's alphabetical index, ``help/<lang>/bookmarks.js``, is a JavaScript array of human-written index
entries, each pointing at a page::

    var bookmarks = [
    {url:"en-US/text/swriter/guide/calculate.html?DbPAR=WRITER#bm_id3149909", app:"WRITER", text:"= -- in Writer tables"},
    ...];

Query = an entry's text (JS string escapes and HTML character references decoded; the main/sub-entry
separator `` -- `` written as ``", "``; whitespace collapsed); relevant document = its page, whose id is the
page path (``text/swriter/guide/calculate.html``), the same in every language. Entries with the same text
(case-insensitively) are one query whose relevant pages are all their pages.

Corpus = every English page with text: title (when it differs from the first heading) + paragraphs
(``libreoffice.parse_page``; the page's ``<meta itemprop="keywords">`` copies of the index entries are not
included), cut to the first :data:`MAX_WORDS` words. Queries whose pages are all absent from the corpus are
dropped. In another language, an entry whose text equals an English entry of the same page is dropped
(untranslated, it would make the cross-lingual task monolingual).

Files (``ir/libreoffice-index/``):

- ``en/corpus.tsv``: ``doc_id<TAB>text``
- ``<lang>/queries.tsv`` (lang in en, fr, de, es, it): ``query_id<TAB>text``, ids ``<lang>:<n>``
- ``<lang>/qrels.tsv``: ``query_id<TAB>doc_id<TAB>1``

Every language's qrels point into the one English corpus (``en/corpus.tsv``): English queries give the
monolingual task, the others the cross-lingual one. Queries reuse page words, so BM25/TF-IDF is a strong
baseline.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.common import cap_words, file_counts, write_tsv
from lingualite.data.sources import libreoffice
from lingualite.data.sources.common import ALL_LANGS, clean_text
from lingualite.data.sources.libreoffice import HELP_DIRS, find_help_root, parse_page

__all__ = ["MAX_WORDS", "NAME", "extract", "fetch", "output_files", "page_id", "parse_bookmarks"]

NAME = "libreoffice_index"
FOLDER = "ir/libreoffice-index"
SOURCE = "libreoffice"
TASK = "retrieval"
DESCRIPTION = (
    "LibreOffice help index entries (queries) -> help pages (English corpus); English queries for "
    "monolingual retrieval, fr/de/es/it queries for cross-lingual retrieval"
)
LICENCE = "MPL-2.0 (LibreOffice help, Debian packages libreoffice-help-*)"
FORMAT = (
    "en/corpus.tsv doc_id<TAB>text; <lang>/queries.tsv query_id<TAB>text; "
    "<lang>/qrels.tsv query_id<TAB>doc_id<TAB>relevance"
)
MAX_WORDS = 256

# One object of the array: {key:"value", key:"value", ...} (keys in any order, values JS strings).
_VALUE = r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'|[^\"'{},]+"  # a JS string, or a bare literal
_OBJECT = re.compile(r"\{\s*(?:\w+\s*:\s*(?:" + _VALUE + r")\s*,?\s*)+\}", re.S)
_FIELD = re.compile(r"(\w+)\s*:\s*(?:\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|([^\"'{},]+))", re.S)
_PAGE = re.compile(r"(?:^|/)(text/.+\.html)$")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_SEPARATOR = re.compile(r"\s*--\s*")
_TITLE = re.compile(r"<title>(.*?)</title>", re.S | re.I)


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the help packages (shared with the corpus extractor); return the help root."""
    return libreoffice.fetch(cache_dir, langs)


def output_files(langs: Sequence[str]) -> list[str]:
    names = ["en/corpus.tsv"]
    for lang in dict.fromkeys(["en", *langs]):
        names += [f"{lang}/queries.tsv", f"{lang}/qrels.tsv"]
    return names


def _unescape_js(value: str) -> str:
    def repl(m: re.Match[str]) -> str:
        esc = m.group(1)
        if len(esc) > 1:  # \uXXXX or \xXX
            return chr(int(esc[1:], 16))
        return _SIMPLE_ESCAPES.get(esc, esc)  # \\ \" \' and unknown escapes stand for the character

    return _ESCAPE.sub(repl, value)


def _field_value(m: re.Match[str]) -> str:
    if m.group(2) is not None:
        return _unescape_js(m.group(2))
    if m.group(3) is not None:
        return _unescape_js(m.group(3))
    return m.group(4).strip()


def page_id(url: str) -> str | None:
    """The page id of a bookmark url: ``fr/text/a/b.html?DbPAR=X#bm_1`` -> ``text/a/b.html``."""
    m = _PAGE.search(re.split(r"[?#]", url.strip(), maxsplit=1)[0])
    return m.group(1) if m else None


def query_text(entry: str) -> str:
    """Normalised text of an index entry: ``"AutoCorrect --  word completion"`` -> ``"AutoCorrect, word
    completion"``."""
    text = clean_text(html.unescape(entry))
    return _SEPARATOR.sub(", ", text).strip(" ,")


def parse_bookmarks(js: str) -> list[tuple[str, str]]:
    """``(page_id, query text)`` for each entry of a ``bookmarks.js`` (file order; unusable ones skipped)."""
    out: list[tuple[str, str]] = []
    for m in _OBJECT.finditer(js):
        fields = {f.group(1): _field_value(f) for f in _FIELD.finditer(m.group(0))}
        doc = page_id(fields.get("url", ""))
        text = query_text(fields.get("text", ""))
        if doc and text:
            out.append((doc, text))
    return out


def group_queries(entries: Sequence[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """One query per distinct text (case-insensitive; first spelling kept) with its pages in file order."""
    queries: dict[str, tuple[str, list[str]]] = {}
    for doc, text in entries:
        _, docs = queries.setdefault(text.casefold(), (text, []))
        if doc not in docs:
            docs.append(doc)
    return list(queries.values())


def _read_bookmarks(root: Path, lang: str) -> list[tuple[str, str]]:
    path = root / HELP_DIRS[lang] / "bookmarks.js"
    if not path.is_file():
        raise LinguaLiteError(f"{path}: no help index for {lang}; fetch the help package first")
    entries = parse_bookmarks(path.read_text(encoding="utf-8", errors="replace"))
    if not entries:
        raise LinguaLiteError(f"{path}: no index entries could be parsed")
    return entries


def _page_text(path: Path) -> str:
    paragraphs = list(parse_page(path).values())
    m = _TITLE.search(path.read_text(encoding="utf-8", errors="replace")[:4096])
    title = clean_text(html.unescape(m.group(1))) if m else ""
    if title and (not paragraphs or paragraphs[0].casefold() != title.casefold()):
        paragraphs.insert(0, title)
    return " ".join(paragraphs)


def _corpus(root: Path) -> dict[str, str]:
    en_dir = root / HELP_DIRS["en"] / "text"
    corpus: dict[str, str] = {}
    for path in sorted(en_dir.rglob("*.html")):
        text = cap_words(_page_text(path), MAX_WORDS)
        if text:
            corpus["text/" + path.relative_to(en_dir).as_posix()] = text
    return corpus


def _query_rows(lang: str, queries: list[tuple[str, list[str]]]) -> Iterator[tuple[str, str]]:
    for n, (text, _) in enumerate(queries, 1):
        yield f"{lang}:{n}", text


def _qrel_rows(lang: str, queries: list[tuple[str, list[str]]]) -> Iterator[tuple[str, str, str]]:
    for n, (_, docs) in enumerate(queries, 1):
        for doc in docs:
            yield f"{lang}:{n}", doc, "1"


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write the corpus, queries and qrels into ``set_dir``; return per-file counts."""
    root = find_help_root(Path(raw))
    set_dir = Path(set_dir)
    corpus = _corpus(root)
    write_tsv(set_dir / "en" / "corpus.tsv", sorted(corpus.items()))
    en_entries = _read_bookmarks(root, "en")
    english = {(doc, text.casefold()) for doc, text in en_entries}
    dropped: dict[str, dict[str, int]] = {}
    for lang in dict.fromkeys(["en", *langs]):
        entries = en_entries if lang == "en" else _read_bookmarks(root, lang)
        untranslated = 0
        if lang != "en":
            kept = [(doc, text) for doc, text in entries if (doc, text.casefold()) not in english]
            untranslated = len(entries) - len(kept)
            entries = kept
        grouped = group_queries(entries)
        queries = [(t, [d for d in docs if d in corpus]) for t, docs in grouped]
        queries = [(t, docs) for t, docs in queries if docs]
        write_tsv(set_dir / lang / "queries.tsv", _query_rows(lang, queries))
        write_tsv(set_dir / lang / "qrels.tsv", _qrel_rows(lang, queries))
        dropped[lang] = {
            "entries": len(entries) + untranslated,
            "untranslated_entries_dropped": untranslated,
            "queries_without_corpus_page_dropped": len(grouped) - len(queries),
        }
    return {
        "files": {name: file_counts(set_dir / name) for name in output_files(langs)},
        "corpus": "en/corpus.tsv (shared by every language's queries)",
        "caps": {"max_words": MAX_WORDS},
        "index_entries": dropped,
    }
