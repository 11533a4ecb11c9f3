"""A GNU gettext .mo writer for the tests (the layout msgfmt writes), so catalogs are built in code."""

from __future__ import annotations

import struct
from pathlib import Path

from lingualite.data.sources.mo import MoEntry

HEADER = "Content-Type: text/plain; charset=UTF-8\n"


def write_mo(
    path: Path, entries: list[MoEntry], order: str = "<", header: str = HEADER, encoding: str = "utf-8"
) -> Path:
    """A .mo file as msgfmt writes it (entries sorted by original, header first, NUL-terminated strings)."""
    pairs = [(b"", header.encode(encoding))]
    for e in entries:
        orig = e.msgid if e.plural is None else f"{e.msgid}\x00{e.plural}"
        orig = orig if e.context is None else f"{e.context}\x04{orig}"
        pairs.append((orig.encode(encoding), e.msgstr.encode(encoding)))
    pairs.sort()
    n = len(pairs)
    start = 28 + 16 * n
    blob, orig_table, trans_table = b"", [], []
    for i in (0, 1):
        for pair in pairs:
            (orig_table if i == 0 else trans_table).append((len(pair[i]), start + len(blob)))
            blob += pair[i] + b"\x00"
    data = struct.pack(f"{order}7I", 0x950412DE, 0, n, 28, 28 + 8 * n, 0, 0)
    data += b"".join(struct.pack(f"{order}2I", *t) for t in orig_table + trans_table) + blob
    path.write_bytes(data)
    return path
