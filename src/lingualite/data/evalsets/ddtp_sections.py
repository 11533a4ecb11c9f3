"""Debian package sections: zero-shot cross-lingual classification of package descriptions.

Document = one Debian package description (short line, then the long description, cut to the first
:data:`MAX_WORDS` words); label = the package's archive section. Only topical sections are kept
(:data:`LABELS`); sections named after the form of the package (libs, libdevel, python, perl, doc, utils,
misc, ...) say little about the text's subject and are dropped.

Sources: ``apt-get update`` into a private lists folder (``cache_dir/lists``; the system's apt state is
untouched) with the Packages indices (``Package``, ``Source``, ``Section``, ``Description-md5``) and the
DDTP Translation files for English and the test languages (``Description-<lang>`` keyed by the same
``Description-md5``, the md5 of the English description). A description whose packages disagree on the
section is dropped.

- Split 50/50 by a stable hash of the *source package* (not of the md5): the descriptions of one source's
  binary packages (``foo``, ``foo-data``, ``foo-gtk``) are near-duplicates and must stay on one side.
- In a translation, paragraphs/items identical (case-insensitively) to the English ones are dropped
  (untranslated); documents with fewer than :data:`MIN_WORDS` words are dropped.
- Lines ``label<TAB>text`` in a fixed pseudo-random order (hash of the md5).

Files (``classify/ddtp-sections/``): ``train.en.tsv``, ``test.{en,<lang>}.tsv``. Spanish has only
~2k translated descriptions (~550 in the kept sections), so ``test.es.tsv`` is small; Dutch and Turkish
have a few hundred and a few dozen descriptions in all. Portuguese is Brazilian and Chinese Simplified
(:func:`~lingualite.data.sources.ddtp.ddtp_code`); a language without a Translation file is reported by
:func:`~lingualite.data.sources.ddtp.lacking`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.common import (
    cap_words,
    file_counts,
    in_test,
    stable_hash,
    word_count,
    write_tsv,
)
from lingualite.data.sources.apt import apt_update, read_index_file
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.ddtp import (
    ddtp_code,
    lacking,
    parse_records,
    split_description,
    translation_files,
)
from lingualite.text.scripts import CHARACTER_SCRIPTS, script_of
from lingualite.text.segmentation import SCRIPT_STOPS

__all__ = [
    "LABELS",
    "MAX_WORDS",
    "MIN_WORDS",
    "NAME",
    "extract",
    "fetch",
    "lacking",
    "output_files",
    "read_sections",
]

NAME = "ddtp_sections"
# 2: a Chinese or Japanese short line ends with "。", not ".", and no space follows a full-width stop.
EXTRACTION = 2
FOLDER = "classify/ddtp-sections"
SOURCE = "ddtp-sections"
TASK = "classification"
DESCRIPTION = (
    "Debian package descriptions labelled by archive section (12 topical sections); train on English, "
    "test on DDTP translations of held-out packages"
)
LICENCE = "Free, per package (Debian package descriptions and their DDTP translations)"
FORMAT = "label<TAB>text, one package description a line"

LABELS: tuple[str, ...] = (
    "admin",
    "editors",
    "games",
    "graphics",
    "mail",
    "math",
    "net",
    "science",
    "sound",
    "text",
    "video",
    "web",
)
MAX_WORDS = 256
MIN_WORDS = 5
_FULL_WIDTH_STOPS = ("。", "！", "？")
_FINAL_PUNCTUATION = ".!?:;：；" + "".join(_FULL_WIDTH_STOPS) + "".join(SCRIPT_STOPS)
_SALT = "ddtp-sections"
_DONE = ".fetched"


def packages_files(lists_dir: Path) -> list[Path]:
    """The ``Packages`` index files in an apt lists folder (any compression)."""
    return sorted(p for p in lists_dir.glob("*_Packages*") if p.is_file() and not p.name.endswith(".diff"))


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """``apt-get update`` (Packages + Translation files for English and ``langs``) into
    ``cache_dir/lists``, unless done before for these languages; return the lists folder."""
    cache_dir = Path(cache_dir)
    lists = cache_dir / "lists"
    wanted = list(dict.fromkeys(["en", *map(ddtp_code, langs)]))
    done = cache_dir / _DONE
    have = set(done.read_text(encoding="utf-8").split()) if done.is_file() else set()
    if set(wanted) <= have and packages_files(lists):
        return lists
    languages = sorted(have | set(wanted))  # keep languages fetched before (apt drops unlisted ones)
    apt_update(cache_dir, languages=languages, packages=True)
    if not packages_files(lists) or not translation_files(lists, "en"):
        raise LinguaLiteError(f"apt-get update fetched no Packages or Translation-en file into {lists}")
    done.write_text(" ".join(languages) + "\n", encoding="utf-8")
    return lists


def output_files(langs: Sequence[str]) -> list[str]:
    return ["train.en.tsv", "test.en.tsv", *(f"test.{lang}.tsv" for lang in langs)]


def read_sections(files: Sequence[Path]) -> dict[str, tuple[str, str]]:
    """Description-md5 -> (section, source package); md5s whose packages disagree on the section are
    left out. ``contrib/net`` counts as ``net``; ``Source: foo (1.2)`` as ``foo``."""
    found: dict[str, tuple[str, str]] = {}
    ambiguous: set[str] = set()
    for path in files:
        for rec in parse_records(read_index_file(path)):
            md5, section, package = rec.get("Description-md5"), rec.get("Section"), rec.get("Package")
            if not md5 or not section or not package:
                continue
            section = section.rsplit("/", 1)[-1]
            source = (rec.get("Source") or package).split()[0]
            if found.setdefault(md5, (section, source))[0] != section:
                ambiguous.add(md5)
    return {md5: v for md5, v in found.items() if md5 not in ambiguous}


def _descriptions(files: Sequence[Path], lang: str) -> dict[str, str]:
    field = f"Description-{ddtp_code(lang)}"
    out: dict[str, str] = {}
    for path in files:
        for rec in parse_records(read_index_file(path)):
            md5, desc = rec.get("Description-md5"), rec.get(field)
            if md5 and desc:
                out.setdefault(md5, desc)
    return out


def _units(desc: str) -> list[str]:
    short, paragraphs = split_description(desc)
    return [u for u in [short, *(item for para in paragraphs for item in para)] if u]


def _text(units: Sequence[str]) -> str:
    """The short line, then the long description, one space between units but none after a full-width stop
    (Chinese and Japanese put none there); a full stop ends the short line when it has no final punctuation:
    "。" when its last letter is Han or Kana, else "."."""
    if not units:
        return ""
    text = units[0]
    if text[-1:] not in _FINAL_PUNCTUATION and len(units) > 1:
        last_letter = next((c for c in reversed(text) if c.isalpha()), "")
        text += "。" if last_letter and script_of(last_letter) in CHARACTER_SCRIPTS else "."
    for unit in units[1:]:
        text += ("" if text.endswith(_FULL_WIDTH_STOPS) else " ") + unit
    return text


def _rows(docs: list[tuple[str, str, str]]) -> Iterator[tuple[str, str]]:
    for _, label, text in sorted(docs, key=lambda d: (stable_hash(_SALT, "order", d[0]), d[0])):
        yield label, text


def extract(raw: Path, set_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, Any]:
    """Write the train/test files into ``set_dir`` from the apt lists folder ``raw``; return counts."""
    raw = Path(raw)
    lists = raw / "lists" if (raw / "lists").is_dir() else raw
    pkg_files = packages_files(lists)
    en_files = translation_files(lists, "en")
    if not pkg_files or not en_files:
        raise LinguaLiteError(f"{lists}: no Packages or Translation-en file found; fetch them first")
    sections = read_sections(pkg_files)
    english = _descriptions(en_files, "en")
    train: list[tuple[str, str, str]] = []
    test_en: list[tuple[str, str, str]] = []
    test_units: dict[str, tuple[str, list[str]]] = {}  # md5 -> (label, English units)
    for md5, desc in english.items():
        section, source = sections.get(md5, ("", ""))
        if section not in LABELS:
            continue
        units = _units(desc)
        text = _text(units)
        if len(text.split()) < MIN_WORDS:
            continue
        doc = (md5, section, cap_words(text, MAX_WORDS))
        if in_test(_SALT, source):
            test_en.append(doc)
            test_units[md5] = (section, units)
        else:
            train.append(doc)
    set_dir = Path(set_dir)
    write_tsv(set_dir / "train.en.tsv", _rows(train))
    write_tsv(set_dir / "test.en.tsv", _rows(test_en))
    for lang in langs:
        translated = _descriptions(translation_files(lists, lang), lang)
        docs: list[tuple[str, str, str]] = []
        for md5, (label, en_units) in test_units.items():
            desc = translated.get(md5)
            if desc is None:
                continue
            seen = {u.casefold() for u in en_units}
            text = _text([u for u in _units(desc) if u.casefold() not in seen])
            if word_count(text, lang) >= MIN_WORDS:
                docs.append((md5, label, cap_words(text, MAX_WORDS, lang)))
        write_tsv(set_dir / f"test.{lang}.tsv", _rows(docs))
    return {
        "files": {name: file_counts(set_dir / name, label_column=0) for name in output_files(langs)},
        "labels": list(LABELS),
        "split": "50/50 by a stable hash (blake2b) of the source package; no source package on both sides",
        "caps": {"max_words": MAX_WORDS, "min_words": MIN_WORDS},
    }
