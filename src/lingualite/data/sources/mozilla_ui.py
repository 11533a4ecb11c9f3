"""Firefox and Thunderbird UI strings (MPL-2.0), from their Debian language packs (opt-in source ``mozilla-ui``).

Each language pack (``firefox-esr-l10n-<locale>``, ``thunderbird-l10n-<locale>``) holds one ``.xpi`` (a zip) of
the product's messages in that language: Fluent files (``.ftl``: menus, dialogs, settings, error pages, privacy
notices, the mail client's account and message texts) and Java-style ``.properties`` files. A message has the
same file and id in every language, so pairing needs no alignment: ``(file, message, attribute)`` is the key. The
English side is the British English pack (``en-GB``): the American originals ship only inside the 70 MB
program packages, and en-GB differs from them in spelling only (colour, licence, favourites).

Why: every one of the 34 languages has a Firefox pack (Thunderbird: all but Persian and Hindi), so this adds
UI text where the packages hold little else (Hebrew, Hindi, Thai, Persian), written by each language's own
Mozilla community, not LibreOffice's. Downloads: about 0.4 MB a pack.

Per message: its value and its text attributes (``.label``, ``.title``, ``.tooltiptext``, ``.placeholder``...;
not ``.accesskey``, ``.key`` or ``.style``: :data:`TEXT_ATTRIBUTES`). Fluent placeables are written out:
a term (``{ -brand-short-name }``), message or attribute reference by its own text in that language, a selector
by its default variant, a function call by its argument, and a variable as ``{$name}`` (kept on both sides, as
the LibreOffice UI strings keep ``%1``); a text that refers to something the pack lacks is left out. HTML markup
of Fluent messages is removed, its text kept (in ``.properties`` files ``<`` is text: the HTML parser's messages
quote tags). ``.properties`` files are read as Java reads them (escapes, continuations); access keys and
PluralForm entries (``#1 tab;#1 tabs``) are skipped. A pack keeps the American original of a string it has not
translated: a "translation" equal to the English but for spelling and quotes (letters-only similarity >= 0.9:
:func:`untranslated`) is dropped, and so are the files every pack ships in English (``enUS-*.ftl``). A
multi-sentence message whose sides split into equally many sentences becomes one pair per sentence. A side
needs :data:`~lingualite.data.sources.common.MIN_WORDS` words besides variables; ``write_pairs`` applies the
shared rules.

Document unit (``doc_id``): ``mozui:<product>/<file>``, one file of messages (the settings page, the certificate
error page); an English sentence seen before (the toolkit files both products share, a sentence two messages
hold) keeps its first document, so it is in one split only.
"""

from __future__ import annotations

import html
import re
import zipfile
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher
from pathlib import Path, PurePosixPath

from fluent.syntax import FluentParser, ast

from lingualite.core.errors import LinguaLiteError
from lingualite.data.cleaning import normalize_light
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import (
    ALL_LANGS,
    MIN_WORDS,
    align_units,
    clean_text,
    locale_name,
    output_path,
    write_pairs,
)
from lingualite.data.sources.libreoffice_ui import real_words
from lingualite.text.languages import ENGLISH
from lingualite.text.segmentation import SENTENCE_RULES

__all__ = [
    "NAME",
    "PRODUCTS",
    "REGISTER",
    "TEXT_ATTRIBUTES",
    "clean_message",
    "extract",
    "fetch",
    "lacking",
    "locale",
    "packages",
    "read_fluent",
    "read_pack",
    "read_properties",
    "untranslated",
]

NAME = "mozilla-ui"
REGISTER = "UI strings"
EXTRACTION = SENTENCE_RULES  # multi-sentence messages are aligned sentence by sentence (align_units)
# product -> the folder of its language packs in the unpacked packages
PRODUCTS: dict[str, PurePosixPath] = {
    "firefox-esr": PurePosixPath("usr/lib/firefox-esr/browser/extensions"),
    "thunderbird": PurePosixPath("usr/lib/thunderbird/extensions"),
}
# Mozilla's locale where it is not the package locale of the other sources (common.locale_name: pt_BR, zh_CN,
# zh_TW written with a hyphen): the English side, and the regions Mozilla adds to a bare language code
_LOCALES = {ENGLISH: "en-GB", "es": "es-ES", "sv": "sv-SE", "nb": "nb-NO", "hi": "hi-IN"}
# Debian 12 has no Thunderbird pack for Persian and Hindi (apt-cache); Firefox has one for every language
_NO_PACK = {"thunderbird": {"fa": "no Persian pack", "hi": "no Hindi pack"}}
# the attributes that hold text a user reads (not .accesskey, .key, .style, .width...)
_TEXT_ATTRIBUTE_NAMES = (
    "label title tooltiptext tooltip aria-label aria-description value placeholder message alt heading "
    "description toolbarname buttonlabel buttonlabelaccept secondarybuttonlabel"
)
TEXT_ATTRIBUTES = frozenset(_TEXT_ATTRIBUTE_NAMES.split())
_TAG = re.compile(r"<[^<>]*>")
_NOT_LETTER = re.compile(r"[\W\d_]+")
_SAME_RATIO = 0.9  # letters-only similarity above which a "translation" is the original English
# files every pack ships in American English (Firefox Suggest previews): no translation
_ENGLISH_ONLY = re.compile(r"(^|/)enUS-[^/]*$")
_VARIABLE = re.compile(r"\{\$[\w-]+\}")
# access keys and shortcuts: "menu.accesskey", "pauseButtonAccessKey", "find.key", "cmd.commandkey", "key"
_PROPERTIES_SKIPPED = re.compile(r"(?i)(?:accesskey|(?:^|\.)(?:command)?key(?:code)?)$")
_PLURAL_FORMS = re.compile(r";\S")  # PluralForm's forms are separated by a bare ";"
# key (backslash escapes allowed), separator (=, : or whitespace), value
_PROPERTY = re.compile(r"((?:[^=:\s\\]|\\.)+)\s*[=:\s]\s*(.*)", re.S)
_MAX_DEPTH = 8  # term and message references nest this deep at most (a cycle is junk, not text)


def locale(lang: str) -> str:
    """Mozilla's locale of ``lang`` (``en-GB``, ``pt-BR``, ``zh-TW``...)."""
    return _LOCALES.get(lang) or locale_name(lang).replace("_", "-")


def packages(lang: str) -> list[str]:
    """The Debian language packs of ``lang``: one per product that has one."""
    code = locale(lang).lower()
    return [f"{product}-l10n-{code}" for product in PRODUCTS if lang not in _NO_PACK.get(product, {})]


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """Nothing: Firefox has a pack for every supported language (Thunderbird lacks Persian and Hindi, which then
    have Firefox's strings only)."""
    return {}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the packs of ``langs`` and English (``debs/``, ``root/`` as the other apt sources);
    return the unpacked root."""
    wanted = [pkg for lang in dict.fromkeys((ENGLISH, *langs)) for pkg in packages(lang)]
    return download_and_unpack(wanted, Path(cache_dir))


# --- reading one language pack ----------------------------------------------------------------------------


class _Unresolved(Exception):
    """A reference to nothing (a missing term, message or attribute) or a cycle: the message is left out."""


def _entry_pattern(entry: ast.Message | ast.Term, attribute: ast.Identifier | None) -> ast.Pattern:
    if attribute is None:
        pattern = entry.value
    else:
        pattern = next((a.value for a in entry.attributes if a.id.name == attribute.name), None)
    if pattern is None:
        raise _Unresolved
    return pattern


def _text(pattern: ast.Pattern, entries: dict[str, ast.Message | ast.Term], depth: int = 0) -> str:
    return "".join(_element(e, entries, depth) for e in pattern.elements)


def _element(element: object, entries: dict[str, ast.Message | ast.Term], depth: int) -> str:  # noqa: C901
    if depth > _MAX_DEPTH:
        raise _Unresolved
    if isinstance(element, ast.TextElement):
        return element.value
    if isinstance(element, ast.Placeable):
        return _element(element.expression, entries, depth + 1)
    if isinstance(element, ast.StringLiteral | ast.NumberLiteral):
        return str(element.parse()["value"])
    if isinstance(element, ast.VariableReference):
        return f"{{${element.id.name}}}"
    if isinstance(element, ast.TermReference | ast.MessageReference):
        sigil = "-" if isinstance(element, ast.TermReference) else ""
        entry = entries.get(sigil + element.id.name)
        if entry is None:
            raise _Unresolved
        return _text(_entry_pattern(entry, element.attribute), entries, depth + 1)
    if isinstance(element, ast.FunctionReference):
        args = element.arguments.positional
        return _element(args[0], entries, depth + 1) if args else ""
    if isinstance(element, ast.SelectExpression):
        variant = next((v for v in element.variants if v.default), element.variants[-1])
        return _text(variant.value, entries, depth + 1)
    raise _Unresolved


def read_fluent(texts: dict[str, str]) -> dict[tuple[str, str], str]:
    """The text of each message and text attribute of a pack's Fluent files (``{file: source}``), keyed by
    ``(file, "id" or "id.attribute")``; terms, messages and their attributes are resolved across all of the
    pack's files. A text that refers to something the pack lacks, or to itself, is left out."""
    parser = FluentParser(with_spans=False)
    resources = {name: parser.parse(source) for name, source in texts.items()}
    entries: dict[str, ast.Message | ast.Term] = {}  # terms keep their "-" (-brand-short-name)
    for resource in resources.values():
        for entry in resource.body:
            if isinstance(entry, ast.Term):
                entries["-" + entry.id.name] = entry
            elif isinstance(entry, ast.Message):
                entries[entry.id.name] = entry
    out: dict[tuple[str, str], str] = {}
    for name, resource in resources.items():
        for entry in resource.body:
            if not isinstance(entry, ast.Message):
                continue
            parts = [(entry.id.name, entry.value)] if entry.value is not None else []
            parts += [
                (f"{entry.id.name}.{a.id.name}", a.value)
                for a in entry.attributes
                if a.id.name in TEXT_ATTRIBUTES
            ]
            for key, pattern in parts:
                try:
                    out[(name, key)] = _text(pattern, entries)
                except _Unresolved:
                    continue
    return out


_JAVA_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}


def _java_unescape(value: str) -> str:
    """A ``.properties`` value as Java's ``Properties.load`` reads it: ``\\uXXXX`` (surrogate pairs joined),
    ``\\t \\n \\r \\f``, and ``\\X`` -> ``X`` for any other character; raises ValueError on a broken
    ``\\u`` escape."""
    if "\\" not in value:
        return value
    out: list[str] = []
    i = 0
    while i < len(value):
        ch = value[i]
        if ch != "\\" or i + 1 == len(value):
            out.append(ch)
            i += 1
            continue
        nxt = value[i + 1]
        if nxt == "u":
            digits = value[i + 2 : i + 6]
            if len(digits) < 4 or not all(c in "0123456789abcdefABCDEF" for c in digits):
                raise ValueError(f"broken \\u escape {value[i : i + 6]!r}")
            out.append(chr(int(digits, 16)))
            i += 6
        else:
            out.append(_JAVA_ESCAPES.get(nxt, nxt))
            i += 2
    # surrogate pairs written as two \uXXXX escapes make one character
    return "".join(out).encode("utf-16", "surrogatepass").decode("utf-16")


def _continues(line: str) -> bool:
    """A line ending in an odd number of backslashes continues on the next one."""
    return (len(line) - len(line.rstrip("\\"))) % 2 == 1


def read_properties(name: str, source: str) -> dict[tuple[str, str], str]:
    """The entries of one ``.properties`` file keyed by ``(file, key)`` (``#``/``!`` comments, ``\\``
    continuations and escapes as Java reads them); access keys and PluralForm entries (``#1 tab;#1 tabs``,
    ``Mark Folder Read;Mark Folders Read``) skipped. A broken escape raises an error naming the file."""
    out: dict[tuple[str, str], str] = {}
    lines = iter(enumerate(source.splitlines(), 1))
    for number, line in lines:
        text = line.lstrip()
        if not text or text[0] in "#!":
            continue
        while _continues(text):
            text = text[:-1] + next(lines, (0, ""))[1].lstrip()
        match = _PROPERTY.fullmatch(text)
        if match is None:
            continue
        key, value = match.groups()
        if _PROPERTIES_SKIPPED.search(key) or "#1" in value or _PLURAL_FORMS.search(value):
            continue
        try:
            out[(name, _java_unescape(key))] = _java_unescape(value)
        except ValueError as exc:
            raise LinguaLiteError(f"{name}:{number}: {exc}") from exc
    return out


def _relative(member: str, loc: str) -> str:
    """A pack member's path without the locale's folders: the same file's name in every language's pack."""
    return "/".join(part for part in member.split("/") if part != loc)


def read_pack(xpi: Path, lang: str) -> dict[tuple[str, str], str]:
    """Every message text of one language pack, keyed by ``(file, message)`` as :func:`read_fluent` and
    :func:`read_properties` key them (the file without its locale folders)."""
    loc = locale(lang)
    fluent: dict[str, str] = {}
    entries: dict[tuple[str, str], str] = {}
    with zipfile.ZipFile(xpi) as pack:
        for member in sorted(pack.namelist()):
            if not member.endswith((".ftl", ".properties")):
                continue
            try:
                source = pack.read(member).decode("utf-8")
            except UnicodeDecodeError as exc:
                raise LinguaLiteError(
                    f"{xpi}: {member} is not UTF-8 ({exc.reason} at byte {exc.start})"
                ) from exc
            name = _relative(member, loc)
            if _ENGLISH_ONLY.search(name):
                continue
            if member.endswith(".ftl"):
                fluent[name] = source
                continue
            try:
                entries.update(read_properties(name, source))
            except LinguaLiteError as exc:
                raise LinguaLiteError(f"{xpi}: {exc}") from exc
    entries.update(read_fluent(fluent))
    return entries


def clean_message(text: str, markup: bool = True) -> str:
    """A message's readable text, spaces collapsed; ``markup`` (Fluent messages, whose HTML is markup): tags
    removed (their text kept) and entities decoded. A ``.properties`` string keeps its ``<`` and ``&``: there
    they are text (the HTML parser's messages quote tags: "Saw “<”")."""
    if markup:
        text = html.unescape(_TAG.sub("", text) if "<" in text else text)
    return clean_text(text)


def _folded(text: str) -> str:
    return _NOT_LETTER.sub("", text.casefold())


def untranslated(english: str, translation: str) -> bool:
    """The pack kept the original (American) English: the British English differs in spelling and quotes only
    ("labelled" / "labeled", ’ / '), so the two are compared letters only, and near-equal counts as equal."""
    a, b = _folded(english), _folded(translation)
    if a == b:
        return True
    same = SequenceMatcher(None, a, b, autojunk=False)
    return (
        same.real_quick_ratio() >= _SAME_RATIO
        and same.quick_ratio() >= _SAME_RATIO
        and same.ratio() >= _SAME_RATIO
    )


def _words(text: str, lang: str) -> float:
    return real_words(_VARIABLE.sub(" ", text), lang)


def _pack(root: Path, product: str, lang: str) -> Path:
    found = sorted((root / PRODUCTS[product]).glob(f"langpack-{locale(lang)}@*.xpi"))
    if not found:
        raise LinguaLiteError(f"{root}: no {product} language pack for {locale(lang)}; fetch it first")
    return found[-1]


def _find_root(raw: Path) -> Path:
    for cand in (raw, raw / "root"):
        if any((cand / folder).is_dir() for folder in PRODUCTS.values()):
            return cand
    raise LinguaLiteError(f"{raw}: no Firefox or Thunderbird language packs found; fetch them first")


def _pairs(
    root: Path, lang: str, english: dict[str, dict[tuple[str, str], str]]
) -> Iterator[tuple[str, str, str]]:
    first_doc: dict[str, str] = {}  # normalized English -> the document it first appeared in
    for product, en_pack in english.items():
        if lang in _NO_PACK.get(product, {}):
            continue
        foreign = read_pack(_pack(root, product, lang), lang)
        for key, en_raw in en_pack.items():
            xx_raw = foreign.get(key)
            if not xx_raw:
                continue
            markup = key[0].endswith(".ftl")
            en, xx = clean_message(en_raw, markup), clean_message(xx_raw, markup)
            if min(_words(en, ENGLISH), _words(xx, lang)) < MIN_WORDS or untranslated(en, xx):
                continue
            for en_unit, xx_unit in align_units(en, xx, lang):
                # per sentence: a sentence two messages share stays in one document, hence in one split
                doc = first_doc.setdefault(normalize_light(en_unit), f"mozui:{product}/{key[0]}")
                yield en_unit, xx_unit, doc


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/mozilla-ui/en-<lang>.tsv`` for each language; return pair counts."""
    root = _find_root(Path(raw))
    english = {product: read_pack(_pack(root, product, ENGLISH), ENGLISH) for product in PRODUCTS}
    return {
        lang: write_pairs(output_path(out_dir, NAME, lang), _pairs(root, lang, english), lang=lang)
        for lang in langs
    }
