"""A reader for GNU gettext ``.mo`` catalogs (the binary format of ``msgfmt``).

Format (GNU gettext manual, "The Format of GNU MO Files"): a magic number ``0x950412de`` (its byte order
gives the file's), a revision, the number of strings N, then the offsets of two tables of N
``(length, offset)`` pairs: original strings and translations. An original is ``msgctxt\\x04msgid``
when it has a context and ``msgid\\x00msgid_plural`` for plural entries, whose translation holds the
plural forms separated by ``\\x00``. The entry with an empty msgid is the header (``Content-Type`` gives
the charset).

Written here instead of using :class:`gettext.GNUTranslations` because that class keeps its entries in
the private ``_catalog`` attribute, folds contexts and plural forms into lookup keys, and offers no way to
list the entries; the format is small and documented. ``polib`` would do it but is not a dependency.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from pathlib import Path

from lingualite.core.errors import LinguaLiteError

__all__ = ["MoEntry", "read_mo"]

MAGIC = 0x950412DE
_CONTEXT_SEP = "\x04"
_PLURAL_SEP = "\x00"
_CHARSET = re.compile(r"charset=([A-Za-z0-9_.:-]+)", re.I)


@dataclass(frozen=True)
class MoEntry:
    """One catalog entry. ``plural`` is the msgid_plural (None for ordinary entries); ``msgstr`` is the
    translation, or the plural forms joined by ``\\x00`` for plural entries."""

    context: str | None
    msgid: str
    msgstr: str
    plural: str | None = None


def _byte_order(data: bytes, path: Path) -> str:
    if len(data) < 20:
        raise LinguaLiteError(f"{path}: not a .mo file (only {len(data)} bytes)")
    for order in ("<", ">"):
        if struct.unpack_from(f"{order}I", data, 0)[0] == MAGIC:
            return order
    raise LinguaLiteError(f"{path}: not a .mo file (bad magic number)")


def _strings(data: bytes, order: str, table: int, count: int, path: Path) -> list[bytes]:
    out = []
    try:
        for length, offset in struct.iter_unpack(f"{order}2I", data[table : table + 8 * count]):
            if offset + length > len(data):
                raise LinguaLiteError(f"{path}: string at offset {offset} runs past the end of the file")
            out.append(data[offset : offset + length])
    except struct.error as exc:
        raise LinguaLiteError(f"{path}: truncated string table: {exc}") from exc
    if len(out) != count:
        raise LinguaLiteError(f"{path}: string table holds {len(out)} entries, header says {count}")
    return out


def _charset(header: bytes) -> str:
    m = _CHARSET.search(header.decode("ascii", errors="replace"))
    return m.group(1) if m and m.group(1).upper() != "CHARSET" else "utf-8"


def read_mo(path: Path) -> list[MoEntry]:
    """Every entry of the ``.mo`` file at ``path`` except the header, in file order (sorted by msgid)."""
    path = Path(path)
    data = path.read_bytes()
    order = _byte_order(data, path)
    _revision, count, orig_table, trans_table = struct.unpack_from(f"{order}4I", data, 4)
    originals = _strings(data, order, orig_table, count, path)
    translations = _strings(data, order, trans_table, count, path)
    header = next((t for o, t in zip(originals, translations, strict=True) if o == b""), b"")
    charset = _charset(header)
    entries = []
    for raw_orig, raw_trans in zip(originals, translations, strict=True):
        if not raw_orig:
            continue
        try:
            orig, trans = raw_orig.decode(charset), raw_trans.decode(charset)
        except (UnicodeDecodeError, LookupError) as exc:
            raise LinguaLiteError(f"{path}: cannot decode an entry as {charset}: {exc}") from exc
        context, has_context, msgid = orig.partition(_CONTEXT_SEP)
        if not has_context:
            context, msgid = "", orig
        msgid, has_plural, plural = msgid.partition(_PLURAL_SEP)
        entries.append(
            MoEntry(context if has_context else None, msgid, trans, plural if has_plural else None)
        )
    return entries
