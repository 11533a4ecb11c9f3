"""Debian package description translations (DDTP), aligned by ``Description-md5``.

``fetch`` runs ``apt-get update`` with description translations enabled into a private lists folder
(the system's apt state is untouched) and keeps only the ``*_i18n_Translation-<code>*`` files, ``<code>``
being :func:`ddtp_code` of the language (``pt_BR`` for Portuguese, as for the LibreOffice help; ``zh_CN``
for Simplified Chinese; apt writes the underscore as ``%5f`` in the file name). Each description pairs its
short line, then its long-description paragraphs when both sides have equally many, item by item inside a
paragraph when the bullet lists match, sentence by sentence when the sentence counts match. Wrapped lines
are joined with :func:`~lingualite.text.segmentation.join_lines` (no space inside Chinese or Japanese text).

Debian 12 has a Translation file for every default language (``CORE``), of very different sizes (descriptions:
ja 6.6k, pt_BR 6.4k, ko 4.5k, pl 3.7k, ru 3.4k, zh_CN 1.2k, nl 342, tr 34), and for most of issue #43's (da, sk
and uk large; ro, nb, id, el, ca a few dozen descriptions; none for ar, th, sl, hi, bg, he, fa); a language
without one is reported by :func:`lacking` after the fetch. Which files Debian publishes is known only from
``apt-get update`` (a download); a check that must not download asks :func:`lacking_offline`, which answers
from what Debian 12 published (:data:`DEBIAN_12_NO_TRANSLATION`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import apt_update, read_index_file
from lingualite.data.sources.common import ALL_LANGS, align_units, locale_name, output_path, write_pairs
from lingualite.text.segmentation import SENTENCE_RULES, join_lines

__all__ = [
    "DEBIAN_12_NO_TRANSLATION",
    "NAME",
    "ddtp_code",
    "extract",
    "fetch",
    "lacking",
    "lacking_offline",
    "parse_records",
    "split_description",
    "translation_files",
]

NAME = "ddtp"
EXTRACTION = SENTENCE_RULES  # its pairs are aligned sentence by sentence (align_units)
_BULLET = re.compile(r"^(?:[*+•-]|\d{1,2}[.)])\s+")
_DONE = ".fetched"
# The supported languages Debian 12 publishes no Translation file for (apt-get update, 2026-11-27;
# docs/data-and-licences.md): what :func:`lacking_offline` says, since only a download tells otherwise.
# (language -> the file apt-get update did not find: a fact about the archive, not a list of languages)
DEBIAN_12_NO_TRANSLATION: dict[str, str] = {
    "ar": "Translation-ar",
    "bg": "Translation-bg",
    "fa": "Translation-fa",
    "he": "Translation-he",
    "hi": "Translation-hi",
    "sl": "Translation-sl",
    "th": "Translation-th",
}


def ddtp_code(lang: str) -> str:
    """The DDTP (and apt) name of a language: its locale (``pt`` -> ``pt_BR``, ``zh`` -> ``zh_CN``)."""
    return locale_name(lang)


def translation_files(lists_dir: Path, lang: str) -> list[Path]:
    """The ``Translation-<code>`` index files of language ``lang`` in an apt lists folder (any compression;
    apt escapes the ``_`` of ``pt_BR`` as ``%5f`` in file names)."""
    code = re.escape(ddtp_code(lang))
    found = [p for p in lists_dir.glob("*Translation-*") if p.is_file()]
    return sorted(
        p
        for p in found
        if re.fullmatch(rf".*Translation-{code}(\.\w+)?", re.sub("%5f", "_", p.name, flags=re.I))
    )


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """After the fetch (``raw`` given), the languages for which Debian publishes no Translation file."""
    if raw is None:
        return {}
    lists = Path(raw) / "lists" if (Path(raw) / "lists").is_dir() else Path(raw)
    return {
        lang: f"Debian publishes no Translation-{ddtp_code(lang)} file"
        for lang in langs
        if not translation_files(lists, lang)
    }


def lacking_offline(langs: Sequence[str]) -> dict[str, str]:
    """The languages of ``langs`` without a Translation file, known without downloading anything: those
    Debian 12 published none for (:data:`DEBIAN_12_NO_TRANSLATION`)."""
    return {
        lang: f"Debian 12 publishes no {DEBIAN_12_NO_TRANSLATION[lang]} file"
        for lang in langs
        if lang in DEBIAN_12_NO_TRANSLATION
    }


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Fetch the description translations for English and ``langs``; return the lists folder."""
    cache_dir = Path(cache_dir)
    lists = cache_dir / "lists"
    wanted = list(dict.fromkeys(["en", *map(ddtp_code, langs)]))
    done = cache_dir / _DONE
    have = set(done.read_text(encoding="utf-8").split()) if done.is_file() else set()
    if set(wanted) <= have:
        return lists
    languages = sorted(have | set(wanted))  # keep languages fetched before (apt drops unlisted ones)
    apt_update(cache_dir, languages=languages, packages=False)
    if not translation_files(lists, "en"):
        raise LinguaLiteError(f"apt-get update fetched no Translation-en file into {lists}")
    done.write_text(" ".join(languages) + "\n", encoding="utf-8")
    return lists


def parse_records(text: str) -> Iterator[dict[str, str]]:
    """Parse deb822 records; a continued field's lines are joined with newlines (leading space kept)."""
    record: dict[str, str] = {}
    field = ""
    for line in text.splitlines():
        if not line.strip():
            if record:
                yield record
            record, field = {}, ""
        elif line[0] in " \t":
            if field:
                record[field] += "\n" + line
        else:
            field, _, value = line.partition(":")
            field = field.strip()
            record[field] = value.strip()
    if record:
        yield record


def split_description(desc: str) -> tuple[str, list[list[str]]]:
    """Split a description into its short line and its long paragraphs, each a list of items.

    A paragraph's items are its bullet-list entries (with the bullet removed) and the text around them.
    """
    lines = desc.split("\n")
    short = lines[0].strip()
    paragraphs: list[list[str]] = []
    items: list[list[str]] = []
    for raw in lines[1:]:
        line = raw[1:] if raw[:1] in (" ", "\t") else raw
        text = line.strip()
        if text == ".":
            if items:
                paragraphs.append([join_lines(i) for i in items])
            items = []
            continue
        m = _BULLET.match(text)
        if m or not items:
            items.append([text[m.end() :] if m else text])
        else:
            items[-1].append(text)
    if items:
        paragraphs.append([join_lines(i) for i in items])
    return short, paragraphs


def _units(en_desc: str, xx_desc: str, lang: str) -> Iterator[tuple[str, str]]:
    en_short, en_paras = split_description(en_desc)
    xx_short, xx_paras = split_description(xx_desc)
    yield en_short, xx_short
    if len(en_paras) != len(xx_paras):
        return
    for en_items, xx_items in zip(en_paras, xx_paras, strict=True):
        if len(en_items) != len(xx_items):
            en_items, xx_items = [" ".join(en_items)], [" ".join(xx_items)]
        for en, xx in zip(en_items, xx_items, strict=True):
            yield from align_units(en, xx, lang)


def _read_descriptions(files: Sequence[Path], lang: str) -> Iterator[tuple[str, str]]:
    field = f"Description-{ddtp_code(lang)}"
    for path in files:
        for rec in parse_records(read_index_file(path)):
            md5 = rec.get("Description-md5")
            desc = rec.get(field)
            if md5 and desc:
                yield md5, desc


def _pairs(english: dict[str, str], files: Sequence[Path], lang: str) -> Iterator[tuple[str, str, str]]:
    seen: set[tuple[str, str]] = set()
    for md5, desc in _read_descriptions(files, lang):
        en_desc = english.get(md5)
        if en_desc is None or (md5, desc) in seen:
            continue
        seen.add((md5, desc))
        doc_id = f"ddtp:{md5}"
        for en, xx in _units(en_desc, desc, lang):
            yield en, xx, doc_id


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/ddtp/en-<lang>.tsv`` from the Translation files in ``raw``; return pair counts."""
    raw = Path(raw)
    lists = raw / "lists" if (raw / "lists").is_dir() else raw
    en_files = translation_files(lists, "en")
    if not en_files:
        raise LinguaLiteError(f"{lists}: no Translation-en file found; fetch it first")
    english: dict[str, str] = {}
    for md5, desc in _read_descriptions(en_files, "en"):
        english.setdefault(md5, desc)
    counts: dict[str, int] = {}
    for lang in langs:
        files = translation_files(lists, lang)
        counts[lang] = write_pairs(output_path(out_dir, NAME, lang), _pairs(english, files, lang), lang=lang)
    return counts
