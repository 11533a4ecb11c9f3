"""Plain text input, one item per line (``lingualite encode``, mining inputs, search index inputs): strict
decoding (the rule of :mod:`lingualite.text.sanitation`) with errors that name the file and line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from lingualite.core.errors import BadInputError
from lingualite.text.sanitation import TextProblem, decode_utf8

__all__ = ["iter_checked_line_chunks", "iter_line_chunks", "read_lines"]

_BREAK = re.compile(rb"\r\n|\r|\n")


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 text file: a leading BOM is dropped, LF, CRLF and CR-only endings all end a line,
    and a line that is not UTF-8 or holds a NUL byte is a :class:`BadInputError` naming ``path:line``."""
    return [line for chunk in iter_line_chunks(path) for line in chunk]


BLOCK = 1 << 20


def iter_line_chunks(path: str | Path, chunk_lines: int = 8192) -> Iterator[list[str]]:
    """The lines of :func:`read_lines`, with the same checks and line numbers, in lists of ``chunk_lines``,
    reading the file in 1 MiB blocks: memory stays bounded whatever the file's size."""
    path, number = Path(path), 0
    for chunk in iter_checked_line_chunks(path, chunk_lines):
        for line in chunk:
            number += 1
            if isinstance(line, TextProblem):
                raise BadInputError(path, number, line.reason)
        yield chunk  # type: ignore[misc] - no problem in it


def iter_checked_line_chunks(path: str | Path, chunk_lines: int = 8192) -> Iterator[list[str | TextProblem]]:
    """The lines of :func:`iter_line_chunks`, but a line that breaks the text rule (not UTF-8, a NUL byte) is
    its :class:`~lingualite.text.sanitation.TextProblem` in its place, so a reader can skip and count it
    (``--skip-bad``) and keep the line numbers. A file that cannot be read at all is still an error."""
    path = Path(path)
    try:
        fh = open(path, "rb")  # noqa: SIM115 - closed below, also when the caller stops early
    except IsADirectoryError as exc:
        raise BadInputError(path, None, "is a directory, not a text file") from exc
    except OSError as exc:
        raise BadInputError(path, None, exc.strerror or str(exc)) from exc
    with fh:
        carry, first = b"", True
        chunk: list[str | TextProblem] = []
        while True:
            block = fh.read(BLOCK)
            if first:
                if block.startswith((b"\xff\xfe", b"\xfe\xff")):
                    raise BadInputError(path, 1, "is UTF-16 (a byte-order mark); convert it to UTF-8")
                block, first = block.removeprefix(b"\xef\xbb\xbf"), False
            data = carry + block
            if block:
                # keep the unfinished last line; a line ending in CR waits too (a LF may follow in the next block)
                end = len(data) - 1 if data.endswith(b"\r") else len(data)
                cut = max(data.rfind(b"\n", 0, end), data.rfind(b"\r", 0, end))
                if cut < 0:
                    carry = data
                    continue
                done, carry = data[: cut + 1], data[cut + 1 :]
            else:
                done, carry = data, b""
            pieces = _BREAK.split(done)
            if pieces and pieces[-1] == b"":
                pieces.pop()
            for raw in pieces:
                chunk.append(_decode(raw))
                if len(chunk) == chunk_lines:
                    yield chunk
                    chunk = []
            if not block:
                break
        if chunk:
            yield chunk


def _decode(raw: bytes) -> str | TextProblem:
    try:
        return decode_utf8(raw)
    except TextProblem as problem:
        return problem
