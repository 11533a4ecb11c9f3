"""General-domain word lists (opt-in source ``lexicon``): each language's most frequent words, for
distillation with a multilingual teacher (``data.monolingual_files``).

A sentence encoder distilled on software help and package descriptions learns the words of those domains
only; a held-out domain (the Bible, in the leave-one-source-out benchmark) then brings words whose vectors the
student never fitted. A multilingual teacher gives a target for a single word in any of its languages, and
its word vectors are already aligned across languages, so fitting ``S(w) ~ T(w)`` on the frequent words of
every language teaches the student the general vocabulary of each language and how it maps across them,
without any sentence of a held-out domain.

``lingualite data fetch --sources lexicon`` downloads the ``wordfreq`` wheel (``pip download --no-deps``; its
code is not installed or imported) and writes ``DATA_DIR/corpora/lexicon/<lang>.txt``: the
:data:`WORDS_PER_LANGUAGE` most frequent words of ``large_<lang>.msgpack.gz`` (``small_<lang>`` where
wordfreq has no large list: Korean, Turkish, Greek and Hindi, whose small lists hold fewer words), most
frequent first, one per line, letters only, each letter with its combining marks (Devanagari vowel signs,
Thai tone marks), an inner apostrophe, hyphen or zero-width (non-)joiner allowed; no digits, no single
letters, except a single Han, Kana or Hangul character, which is a word in Chinese, Japanese and Korean.
wordfreq has every supported language but Thai and Traditional Chinese; its Chinese list is in Simplified
characters. Thai's list is :data:`OTHER_LISTS`' (the Thai National Corpus's word frequencies, from the
``pythainlp`` wheel, downloaded the same way). Licences: wordfreq's data is CC-BY-SA 4.0 (built from
Wikipedia, subtitles, news, books, web text and more; word counts only, no text), its code MIT; PyThaiNLP's
word lists are CC0-1.0.

The wheel's word lists are "cBpack" files: a gzipped msgpack list whose first item is a header
(``{"format": "cB", "version": 1}``) and whose item ``i`` holds the words of frequency ``-i`` centibels,
the most frequent first. PyThaiNLP's are ``word<TAB>count`` lines.
"""

from __future__ import annotations

import contextlib
import gzip
import zipfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import msgpack
import regex

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.data.sources.common import ALL_LANGS, SourceUnavailableError, download_wheel
from lingualite.text.languages import get_language
from lingualite.text.scripts import CHARACTER_SCRIPTS, script_of

__all__ = [
    "EXTRACTION",
    "NAME",
    "OTHER_LISTS",
    "PACKAGE",
    "WORDS_PER_LANGUAGE",
    "extract",
    "fetch",
    "lacking",
    "outputs",
    "read_cbpack",
    "read_counts",
    "words",
]

NAME = "lexicon"
# 2: a word keeps its combining marks and joiners (1 kept 3,221 of Hindi's 26,260 words); Thai has a list
# 3: a Hebrew acronym's gershayim or geresh between its letters (2 dropped 630 words such as ע"י, צה"ל)
EXTRACTION = 3
PACKAGE = "wordfreq==3.1.1"
WORDS_PER_LANGUAGE = 50_000
_MEMBERS = ("wordfreq/data/large_{lang}.msgpack.gz", "wordfreq/data/small_{lang}.msgpack.gz")
# Where wordfreq has no list: (package, member) of a word<TAB>count list of the language, any order
OTHER_LISTS: dict[str, tuple[str, str]] = {"th": ("pythainlp==5.4.0", "pythainlp/corpus/tnc_freq.txt")}
# letters, each with its combining marks, the runs joined by one apostrophe, hyphen or zero-width
# (non-)joiner ("aujourd'hui", "e-mail", Persian "می‌شود"); no digits or underscores. The regex package, because
# re has no \p{M}: [^\W\d_] took a mark for a non-letter and dropped "के" and "ที่" (Hindi kept 3,221 of its
# list's 26,260 words), and a joiner 2,347 Persian words (می‌شود, می‌کند). Between two Hebrew letters a
# gershayim or geresh (written ״ ׳ or " ') marks an acronym or abbreviation: ע"י ("by"), צה"ל, ד״ר.
_WORD_CHARACTERS = frozenset({*CHARACTER_SCRIPTS, "Hangul"})  # scripts whose one character can be a word
_WORD = regex.compile(
    r"(?:\p{L}\p{M}*)+"
    r"(?:(?:[\u200c\u200d'’-]|(?<=\p{Hebrew})[\"\u05f3\u05f4](?=\p{Hebrew}))(?:\p{L}\p{M}*)+)*"
)


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download the wordfreq wheel into ``cache_dir`` (once), and beside it the wheel of each language of
    ``langs`` in :data:`OTHER_LISTS`; returns the wordfreq wheel's path. A language whose wheel cannot be
    downloaded is left to :func:`lacking` (the others go on)."""
    wheel = download_wheel(PACKAGE, Path(cache_dir))
    for lang in dict.fromkeys(langs):
        if lang in OTHER_LISTS:
            with contextlib.suppress(LinguaLiteError, OSError):
                download_wheel(OTHER_LISTS[lang][0], Path(cache_dir))
    return wheel


def _other_wheel(raw: Path, lang: str) -> Path | None:
    """The wheel of ``lang``'s list in :data:`OTHER_LISTS` (that version), beside the wordfreq wheel ``raw``;
    None if absent."""
    if lang not in OTHER_LISTS:
        return None
    name, _, version = OTHER_LISTS[lang][0].partition("==")
    wheels = sorted(Path(raw).parent.glob(f"{name.replace('-', '_')}-{version}-*.whl"))
    return wheels[-1] if wheels else None


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


def read_counts(data: bytes, where: str) -> list[list[str]]:
    """The words of a ``word<TAB>count`` list in one bin, most frequent first (ties in file order);
    ``where`` names the list in errors, with the line."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LinguaLiteError(f"{where}: not UTF-8 text: {exc}") from exc
    counted: list[tuple[int, str]] = []
    for i, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        word, _, count = line.rstrip("\r").partition("\t")
        if not word.strip() or not count.strip().isdecimal() or not count.strip().isascii():
            raise LinguaLiteError(f"{where}:{i}: expected word<TAB>count, got {line[:60]!r}")
        counted.append((int(count), word.strip()))
    counted.sort(key=lambda wc: -wc[0])  # stable: ties keep the file's order
    return [[w for _, w in counted]]


def words(bins: list[list[str]], limit: int = WORDS_PER_LANGUAGE) -> Iterator[str]:
    """The first ``limit`` distinct words of ``bins`` that are letters only and at least two long, or one
    Han, Kana or Hangul character (a word in Chinese, Japanese or Korean: 书, 人, 것)."""
    seen: set[str] = set()
    for word in (w for b in bins for w in b):
        if len(seen) >= limit:
            return
        if not word:
            continue
        long_enough = len(word) >= 2 or script_of(word) in _WORD_CHARACTERS
        if long_enough and word not in seen and _WORD.fullmatch(word):
            seen.add(word)
            yield word


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """After the fetch (``raw``: the wordfreq wheel), the languages with no word list: wordfreq has none and
    :data:`OTHER_LISTS` none fetched (Traditional Chinese, ``zht``: wordfreq's one Chinese list is
    Simplified; Thai, if its wheel could not be downloaded)."""
    if raw is None:
        return {}
    try:
        with zipfile.ZipFile(Path(raw)) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError):
        return {}  # extract says why the wheel cannot be read
    missing: dict[str, str] = {}
    for lang in langs:
        if any(m.format(lang=lang) in names for m in _MEMBERS) or _other_wheel(Path(raw), lang) is not None:
            continue
        missing[lang] = "wordfreq has no word list for it"
        if lang in OTHER_LISTS:
            missing[lang] += f", and the {OTHER_LISTS[lang][0]} wheel that has one could not be downloaded"
    return missing


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/lexicon/<lang>.txt`` for English and ``langs``; return words per language."""
    wheel = Path(raw)
    counts: dict[str, int] = {}
    try:
        with zipfile.ZipFile(wheel) as zf:
            names = set(zf.namelist())
            for lang, path in outputs(out_dir, langs).items():
                member = next((m.format(lang=lang) for m in _MEMBERS if m.format(lang=lang) in names), None)
                if member is not None:
                    where = f"{wheel.name}:{member}"
                    bins = read_cbpack(zf.read(member), where)
                elif (other := _other_wheel(wheel, lang)) is not None:
                    where = f"{other.name}:{OTHER_LISTS[lang][1]}"
                    bins = _in_own_script(_read_other(other, OTHER_LISTS[lang][1]), lang)
                else:
                    raise LinguaLiteError(
                        f"{wheel}: no word list for {lang!r} ({_MEMBERS[0].format(lang=lang)})"
                    )
                n = 0
                with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
                    for word in words(bins):
                        fh.write(word + "\n")
                        n += 1
                if n == 0:
                    raise LinguaLiteError(f"{where}: no words")
                counts[lang] = n
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceUnavailableError(f"{wheel}: cannot read the wheel: {exc}") from exc
    return counts


def _read_other(wheel: Path, member: str) -> list[list[str]]:
    """The words of ``member`` of ``wheel`` (a list of :data:`OTHER_LISTS`); an unreadable wheel is named."""
    try:
        with zipfile.ZipFile(wheel) as zf:
            if member not in zf.namelist():
                raise LinguaLiteError(f"{wheel}: no {member}")
            data = zf.read(member)
    except (zipfile.BadZipFile, OSError) as exc:
        raise SourceUnavailableError(f"{wheel}: cannot read the wheel: {exc}") from exc
    return read_counts(data, f"{wheel.name}:{member}")


def _in_own_script(bins: list[list[str]], lang: str) -> list[list[str]]:
    """The words of ``bins`` whose letters are all of ``lang``'s scripts: the Thai National Corpus counts the
    English words of Thai text too ("gas", "Electrotechnical"), which are not Thai words."""
    scripts = set(get_language(lang).scripts)
    return [[w for w in b if {script_of(c) for c in w} - {None} <= scripts] for b in bins]
