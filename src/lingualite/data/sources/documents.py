"""Shared writing for the sources of untranslated (monolingual) text and of multi-way aligned phrases: the
registers beyond software help (:mod:`~lingualite.data.sources.handbook`, ``emacs_tutorial``, ``klavaro``,
``korean_law``, ``cldr``, ``tuxpaint``).

:func:`kept_sentences` applies the cleaning of the ``monolingual`` source to paragraphs of any language:
prose sentences only (:func:`~lingualite.data.sources.plain_text.prose_sentences`), no scripture (the Bible is
a held-out evaluation source), no untranslated English in another language's text, a non-Latin language in its
own script, each sentence once. Untranslated English is a sentence with English function words
(:func:`~lingualite.data.sources.monolingual.english`) or with the word "the", which no other supported
language has. :func:`write_lines` writes one language's file, :func:`write_multiway` a
multi-way aligned TSV (``id<TAB>en<TAB>fr...``, a header line naming the languages), the held-out evaluation
form of a truly parallel source. :func:`text_paragraphs` splits plain text at blank lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.data.sources.common import clean_text
from lingualite.data.sources.monolingual import english, own_script, scriptural
from lingualite.data.sources.plain_text import prose_sentences
from lingualite.text.segmentation import join_lines

__all__ = [
    "MULTIWAY",
    "kept_sentences",
    "text_paragraphs",
    "write_languages",
    "write_lines",
    "write_multiway",
]

MULTIWAY = "multiway.tsv"  # the name of a parallel source's aligned file, beside its <lang>.txt files
# "the": no other supported language has this word, and a translated book or tutorial that left a paragraph
# in English (a newer English text than the one translated, so not identical to it) nearly always has one.
_THE = re.compile(r"\bthe\b", re.I)


def kept_sentences(
    paragraphs: Iterable[str], lang: str, exclude: frozenset[str] = frozenset()
) -> Iterator[str]:
    """The distinct prose sentences of ``paragraphs`` in language ``lang``; paragraphs in ``exclude`` (an
    English original's, where a translation left them untranslated) are skipped."""
    seen: set[str] = set()
    kept = (p for p in paragraphs if p not in exclude)
    for sentence in prose_sentences(kept, lang):
        foreign = lang != "en" and (english(sentence, lang) or _THE.search(sentence) is not None)
        if sentence in seen or scriptural(sentence) or foreign:
            continue
        if not own_script(sentence, lang):
            continue
        seen.add(sentence)
        yield sentence


def text_paragraphs(text: str) -> list[str]:
    """Blank-line separated paragraphs of plain text, wrapped lines joined
    (:func:`~lingualite.text.segmentation.join_lines`), whitespace collapsed."""
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip():
            blocks[-1].append(line.strip())
        elif blocks[-1]:
            blocks.append([])
    return [clean_text(join_lines(b)) for b in blocks if b]


def write_lines(path: Path, lines: Iterable[str], where: str) -> int:
    """Write ``lines`` one per line (atomically); return how many. No line at all is an error naming
    ``where`` (the unpacked package, the file that should have held them)."""
    n = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for line in lines:
            fh.write(line + "\n")
            n += 1
        if n == 0:  # raised before the swap: an earlier output at ``path`` stays as it was
            raise LinguaLiteError(f"{where}: no text found for {path.stem}; fetch its package first")
    return n


def write_languages(
    paths: Mapping[str, Path], pages: Callable[[str], Iterable[str]], where: Callable[[str], Path]
) -> dict[str, int]:
    """Each language's kept sentences (:func:`kept_sentences`) of ``pages(lang)`` into ``paths[lang]``; in the
    other languages, a paragraph also in the English pages (left untranslated) is left out. Returns sentences
    per language; ``where(lang)``: the folder a missing language's error names."""
    english = frozenset(pages("en"))
    return {
        lang: write_lines(
            path,
            kept_sentences(pages(lang), lang, english if lang != "en" else frozenset()),
            str(where(lang)),
        )
        for lang, path in paths.items()
    }


def write_multiway(path: Path, rows: Iterable[tuple[str, Mapping[str, str]]], langs: Sequence[str]) -> int:
    """Write the rows that have a (non-empty, tab-free) text in every language of ``langs`` as a TSV:
    a header ``id<TAB>lang...``, then ``id<TAB>text...``; return the number of rows written."""
    n = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write("\t".join(["id", *langs]) + "\n")
        for key, texts in rows:
            cells = [clean_text(texts.get(lang, "")) for lang in langs]
            if all(cells):
                fh.write("\t".join([clean_text(key), *cells]) + "\n")
                n += 1
    return n
