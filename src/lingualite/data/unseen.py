"""Held-out pairs that no training file contains: drop every pair whose English or translation (after
NFKC, casefold and whitespace collapsing) appears in given "seen" files.

Used to turn a prepared split of an opt-in source (e.g. ``libreoffice-ui``, whose tooltips repeat
sentences of the LibreOffice help) into a test set of text the default models never read. Memory holds
8-byte blake2b hashes of the seen texts only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from lingualite.core.errors import BadInputError
from lingualite.core.io_utils import atomic_file
from lingualite.data.cleaning import normalize_light
from lingualite.data.lines import iter_line_chunks

__all__ = ["SeenTexts", "write_unseen"]


def _key(text: str) -> bytes:
    return hashlib.blake2b(normalize_light(text).encode("utf-8", "surrogatepass"), digest_size=8).digest()


def _fields(path: Path, number: int, line: str) -> list[str]:
    fields = line.split("\t")
    if len(fields) < 2:
        raise BadInputError(path, number, "expected src<TAB>tgt[<TAB>doc_id]")
    return fields


def _tsv_rows(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Non-blank lines of a TSV of pairs with their fields; a line without a TAB is an error (file:line)."""
    number = 0
    for chunk in iter_line_chunks(path):
        for line in chunk:
            number += 1
            if line.strip():
                yield line, _fields(path, number, line)


class SeenTexts:
    """Hashes of the source (column 1) and target (column 2) sides of TSV files of pairs."""

    def __init__(self) -> None:
        self.src: set[bytes] = set()
        self.tgt: set[bytes] = set()

    def add_files(self, files: Iterable[str | Path], src: bool = True, tgt: bool = True) -> SeenTexts:
        """Remember the chosen sides of every pair in ``files``; returns ``self``."""
        for path in files:
            for _line, fields in _tsv_rows(Path(path)):
                if src:
                    self.src.add(_key(fields[0]))
                if tgt:
                    self.tgt.add(_key(fields[1]))
        return self

    def seen(self, src: str, tgt: str) -> bool:
        return _key(src) in self.src or _key(tgt) in self.tgt


def write_unseen(src_file: str | Path, dst_file: str | Path, seen: SeenTexts) -> dict[str, int]:
    """Copy the lines of ``src_file`` whose pair is not :meth:`SeenTexts.seen` to ``dst_file`` (atomically;
    never onto the input); return ``{"read": n, "kept": k, "dropped_seen": n - k}``."""
    src_file = Path(src_file)
    read = kept = 0
    with (
        atomic_file(dst_file, inputs=[src_file]) as tmp,
        open(tmp, "w", encoding="utf-8", newline="\n") as out,
    ):
        for line, fields in _tsv_rows(src_file):
            read += 1
            if not seen.seen(fields[0], fields[1]):
                out.write(line + "\n")
                kept += 1
    return {"read": read, "kept": kept, "dropped_seen": read - kept}
