"""Plain text input, one item per line (``lingualite encode``, mining inputs): strict decoding with errors
that name the file and line."""

from __future__ import annotations

import re
from pathlib import Path

from lingualite.errors import BadInputError

__all__ = ["read_lines"]

_BREAK = re.compile(rb"\r\n|\r|\n")


def read_lines(path: str | Path) -> list[str]:
    """Lines of a UTF-8 text file: a leading BOM is dropped, LF, CRLF and CR-only endings all end a line,
    and a line that is not UTF-8 or holds a NUL byte is a :class:`BadInputError` naming ``path:line``."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except IsADirectoryError as exc:
        raise BadInputError(path, None, "is a directory, not a text file") from exc
    except OSError as exc:
        raise BadInputError(path, None, exc.strerror or str(exc)) from exc
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise BadInputError(path, 1, "is UTF-16 (a byte-order mark); convert it to UTF-8")
    data = data.removeprefix(b"\xef\xbb\xbf")
    pieces = _BREAK.split(data)
    if pieces and pieces[-1] == b"":
        pieces.pop()  # the final line break ends the last line; it does not start a new one
    lines = []
    for number, raw in enumerate(pieces, start=1):
        if b"\x00" in raw:
            raise BadInputError(path, number, "contains a NUL byte (a binary file?)")
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise BadInputError(
                path, number, f"not valid UTF-8 (byte {raw[exc.start]:#04x} at column {exc.start + 1})"
            ) from exc
    return lines
