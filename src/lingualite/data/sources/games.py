"""Narrative, dialogue and encyclopaedic text of five free games (opt-in source ``games``): English msgid ->
translated msgstr, from their gettext ``.mo`` catalogs.

* The Battle for Wesnoth (GPL-2+): campaign dialogue and story text (one Debian package per campaign,
  ``wesnoth-<branch>-httt``, ``-tsg``, ``-utbs``, ...), unit descriptions and the in-game help
  (``wesnoth-<branch>-data``). The branch (``1.16`` on Debian 12) is the newest one apt knows.
* Freeciv (GPL-2+): nation legends (``freeciv-nations``) and the rules and help texts (``freeciv-core``), from
  ``freeciv-data``.
* Widelands (GPL-2+): campaign and scenario stories, map descriptions and the tribes' encyclopaedia
  (``widelands-data``).
* Warzone 2100 (GPL-2+): campaign briefings and research descriptions (``warzone2100-data``).
* FreedroidRPG (GPL-2+): the characters' dialogue and the item and droid descriptions
  (``freedroidrpg-data``; about 9k pairs per language, conversational, unlike the other games' stories).

Why: the default sources are software help, package descriptions and scripture; this is story-telling,
dialogue, history and geography, the broadest register the packages hold. The downloads are large (about 1 GB
of .deb files, once, in the cache, whatever the languages; 1.4 GB unpacked; Widelands alone is 380 MB).

Languages (Debian 12): Wesnoth, Freeciv, Widelands and Warzone 2100 translate every default language (Warzone
2100's Japanese barely: 6 pairs; Wesnoth's Dutch and Korean partly); FreedroidRPG only fr, de, es, it, pt and ru.
Of issue #43's languages every one but Thai has catalogs (Hindi 5 pairs, Persian 170, Hebrew 1,134).
Catalogs are read from the language's locale folder (``pt_BR``, ``zh_CN``), or, for a game without one, from a
regional folder of the bare code (Warzone 2100's ``ja_JP``). Counts per game: the Languages page of the docs.

Per entry: plural and untranslated entries are skipped, and so are entries with markup or placeholders the
games fill in at run time (``{...}``, ``$var``, ``%s``, ``[...]``, ``|``, ``=``); the user-interface
catalogs (``wesnoth-lib``, ``wesnoth-editor``, ``freeciv-ruledit``, ``freedroidrpg``) are left out.
Formatting tags and accelerators are removed as for the LibreOffice UI strings
(:func:`lingualite.data.sources.libreoffice_ui.clean_ui_text`). A multi-sentence entry whose sides split
into equally many sentences becomes one pair per sentence. An entry that quotes scripture
(:func:`lingualite.data.sources.monolingual.scriptural`) is dropped: the Bible is a held-out evaluation
source.

Document unit (``doc_id``): ``games:<catalog>/<block>``, a block being 40 consecutive entries of the catalog.
Catalogs are sorted by msgid, so a block holds strings that start alike (one story's numbered lines, one
unit's variants): they stay in the same split.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import (
    ALL_LANGS,
    SourceUnavailableError,
    align_units,
    locale_name,
    output_path,
    require_tool,
    run_tool,
    write_pairs,
)
from lingualite.data.sources.libreoffice_ui import clean_ui_text
from lingualite.data.sources.mo import read_mo
from lingualite.data.sources.monolingual import scriptural
from lingualite.text.segmentation import SENTENCE_RULES

__all__ = [
    "BLOCK",
    "NAME",
    "SKIPPED_CATALOGS",
    "extract",
    "fetch",
    "lacking",
    "packages",
    "usable_text",
    "wesnoth_packages",
]

NAME = "games"
EXTRACTION = SENTENCE_RULES  # its pairs are aligned sentence by sentence (align_units)
BLOCK = 40
OTHER_PACKAGES = ("freeciv-data", "widelands-data", "warzone2100-data", "freedroidrpg-data")
# Wesnoth packages of a branch that hold no translated text
_WESNOTH_NON_TEXT = {"core", "music", "server", "tools"}
SKIPPED_CATALOGS = frozenset({"wesnoth-lib", "wesnoth-editor", "freeciv-ruledit", "freedroidrpg"})
_WESNOTH = re.compile(r"wesnoth-(\d+)\.(\d+)-([a-z]+)")
# run-time substitutions and markup the games interpret: such a string is not plain prose
_NOT_PROSE = re.compile(r"[={}\[\]|\t$%@#\\]|<(?!/?(?:i|b|span)\b)")


def wesnoth_packages(names: Sequence[str]) -> list[str]:
    """The text packages of the newest Wesnoth branch among the package ``names`` (``wesnoth-X.Y-<part>``)."""
    branches: dict[tuple[int, int], list[str]] = {}
    for name in names:
        m = _WESNOTH.fullmatch(name.strip())
        if m and m.group(3) not in _WESNOTH_NON_TEXT:
            branches.setdefault((int(m.group(1)), int(m.group(2))), []).append(m.group(0))
    usable = {b: parts for b, parts in branches.items() if f"wesnoth-{b[0]}.{b[1]}-data" in parts}
    if not usable:
        return []
    return sorted(usable[max(usable)])


def packages() -> list[str]:
    """The Debian packages to download: the other games' data and the newest Wesnoth branch's text packages."""
    apt_cache = require_tool("apt-cache", "find the Wesnoth packages")
    names = run_tool([apt_cache, "pkgnames", "wesnoth-"], "apt-cache pkgnames wesnoth-").split()
    wesnoth = wesnoth_packages(names)
    if not wesnoth:
        raise SourceUnavailableError("apt knows no wesnoth-<branch>-data package (run apt-get update?)")
    return [*OTHER_PACKAGES, *wesnoth]


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack the packages once (``cache_dir/{debs,root}``); returns the root."""
    return download_and_unpack(packages(), Path(cache_dir))


def usable_text(text: str) -> bool:
    """Plain prose: no markup or run-time placeholder the game would fill in."""
    return bool(text.strip()) and not _NOT_PROSE.search(text)


def _catalogs(root: Path, lang: str) -> list[Path]:
    """The language's catalogs: in its locale folder (``ja``, ``pt_BR``), or, for a catalog that has none
    there, in a regional folder of a bare code (Warzone 2100 files Japanese under ``ja_JP``)."""
    locale = locale_name(lang)
    found = [p for p in root.glob(f"usr/share/**/{locale}/LC_MESSAGES/*.mo") if p.is_file()]
    if "_" not in locale:
        have = {p.stem for p in found}
        regional = [p for p in root.glob(f"usr/share/**/{locale}_[A-Z][A-Z]/LC_MESSAGES/*.mo") if p.is_file()]
        found += [p for p in regional if p.stem not in have]
    return sorted((p for p in found if p.stem not in SKIPPED_CATALOGS), key=lambda p: (p.stem, str(p)))


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """After the fetch (``raw`` given), the languages none of the games translates."""
    if raw is None:
        return {}
    return {lang: "no game has a catalog in it" for lang in langs if not _catalogs(Path(raw), lang)}


def _pairs(catalogs: list[Path], lang: str) -> Iterator[tuple[str, str, str]]:
    for mo in catalogs:
        for i, entry in enumerate(read_mo(mo)):
            if entry.plural is not None or not usable_text(entry.msgid) or not usable_text(entry.msgstr):
                continue
            en, xx = clean_ui_text(entry.msgid, dialog=False), clean_ui_text(entry.msgstr, dialog=False)
            if scriptural(en) or scriptural(xx):
                continue
            doc = f"{NAME}:{mo.stem}/{i // BLOCK}"
            for a, b in align_units(en, xx, lang):
                yield a, b, doc


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/games/en-<lang>.tsv`` for each language; return pair counts."""
    root = Path(raw)
    catalogs = {lang: _catalogs(root, lang) for lang in langs}
    missing = [lang for lang, found in catalogs.items() if not found]
    if missing:
        raise LinguaLiteError(
            f"{root}: no game catalogs (usr/share/**/<lang>/LC_MESSAGES/*.mo) for {', '.join(missing)}"
        )
    return {
        lang: write_pairs(output_path(out_dir, NAME, lang), _pairs(found, lang), lang=lang)
        for lang, found in catalogs.items()
    }
