"""The one rule for text that enters lingualite, wherever it comes from: files, HTTP bodies, the Python API.

A text is accepted when it is

- **valid Unicode**: read from bytes, strict UTF-8 (a wrong byte is never guessed at or replaced); as a
  string, no lone surrogate (U+D800-U+DFFF: JSON escapes such as ``"\\ud800"`` produce them; UTF-8 cannot
  encode them and no tokenizer takes them);
- **free of NUL** (U+0000): the mark of a binary file, and the end of a string for C libraries.

Nothing is repaired silently: a text that breaks the rule is rejected, and only *how* depends on where it
came from:

- a line of a file: a one-line error ``file:line: reason`` or, with ``--skip-bad``, the line is skipped and
  counted under the reason's key (:data:`KEYS`);
- an HTTP body: 422 naming the field (``texts.3: ...``);
- the Python API (``encode`` of every encoder :func:`lingualite.load_encoder` returns):
  :class:`InvalidTextError` naming the item (``texts[3]: ...``).

Empty texts are not covered by this rule: a file's empty lines are skipped where ids are line numbers, and
the HTTP service refuses empty texts (:mod:`lingualite.serve.limits`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lingualite.core.errors import LinguaLiteError

__all__ = [
    "KEYS",
    "InvalidTextError",
    "TextProblem",
    "check_text",
    "check_texts",
    "decode_utf8",
    "strings_problem",
    "text_problem",
]

KEYS = ("invalid_utf8", "nul_byte", "surrogate")  # the reasons, as ``--skip-bad`` counts them


class TextProblem(ValueError):
    """Why a text breaks the rule: ``key`` (one of :data:`KEYS`) and a ``reason`` a person can act on."""

    def __init__(self, key: str, reason: str) -> None:
        super().__init__(reason)
        self.key = key
        self.reason = reason


class InvalidTextError(LinguaLiteError):
    """A text given to the Python API breaks the rule; the message names the item (``texts[3]: ...``)."""

    def __init__(self, where: str, problem: TextProblem) -> None:
        super().__init__(f"{where}: {problem.reason}")
        self.where = where
        self.problem = problem


def decode_utf8(raw: bytes) -> str:
    """``raw`` (one line, without its line ending) as text; :class:`TextProblem` for a NUL byte or bytes that
    are not UTF-8, with the (1-based, in characters) column an editor shows."""
    if b"\x00" in raw:
        column = len(raw[: raw.index(b"\x00")].decode("utf-8", "replace")) + 1
        raise TextProblem("nul_byte", f"contains a NUL byte (column {column}); a binary file?")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        column = len(raw[: err.start].decode("utf-8")) + 1  # the bytes before the first error are valid
        raise TextProblem(
            "invalid_utf8", f"invalid UTF-8 (byte 0x{raw[err.start]:02x} at column {column})"
        ) from None


def text_problem(text: str) -> TextProblem | None:
    """Why ``text`` (a string) breaks the rule, or None when it is fine."""
    if "\x00" in text:
        return TextProblem("nul_byte", f"contains a NUL character (column {text.index(chr(0)) + 1})")
    if text.isascii():
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        code = ord(text[err.start])
        return TextProblem(
            "surrogate",
            f"contains a lone surrogate (U+{code:04X} at column {err.start + 1}), which is not valid Unicode",
        )
    return None


def check_text(text: str) -> str:
    """``text`` unchanged, or :class:`TextProblem` when it breaks the rule."""
    problem = text_problem(text)
    if problem is not None:
        raise problem
    return text


def check_texts(texts: Iterable[Any], what: str = "texts") -> None:
    """Raise :class:`InvalidTextError` (naming ``what[i]``) for the first item that is not a string or breaks
    the rule. What every encoder's ``encode`` calls first."""
    if isinstance(texts, str):
        raise InvalidTextError(what, TextProblem("not_a_list", "give a list of strings, not one string"))
    texts = list(texts)
    if all(isinstance(t, str) for t in texts):  # the common case, checked at C speed on the joined text
        joined = "\n".join(texts)
        if "\x00" not in joined and (joined.isascii() or _encodes(joined)):
            return
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            reason = f"not a string ({type(text).__name__})"
            raise InvalidTextError(f"{what}[{i}]", TextProblem("not_a_string", reason))
        problem = text_problem(text)
        if problem is not None:
            raise InvalidTextError(f"{what}[{i}]", problem)


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def strings_problem(value: Any) -> TextProblem | None:
    """The first string inside ``value`` (a parsed JSON value: keys and values, at any depth) that breaks the
    rule, or None."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            problem = text_problem(item)
            if problem is not None:
                return problem
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return None
