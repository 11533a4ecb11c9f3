"""Documents for a search index: ``.txt``, ``.tsv`` and ``.jsonl`` files, or a list of dicts.

- ``.txt``: one document per line; its id is the line number (1-based). Empty lines are skipped (the other
  ids keep their line numbers).
- ``.tsv``: ``id<TAB>text[<TAB>more...]``. A first line whose first two fields are ``id`` and ``text``
  (any case) is a header: the further columns are stored as metadata under their header names; without a
  header they are stored as ``col3``, ``col4``... Empty lines are skipped.
- ``.jsonl``: one object per line, ``{"id": ..., "text": ..., any other keys: metadata}``; the id may be a
  string or an integer (stored as its string). Empty lines are skipped.
- a list of dicts (the API): the jsonl form, ``{"id", "text", ...metadata}``.

A bad line (no text, an empty id, not JSON, JSON with ``NaN`` or ``Infinity``, invalid UTF-8, a NUL, a lone
surrogate from a ``"\\ud800"`` escape: the rule of :mod:`lingualite.text.sanitation`) is a
:class:`~lingualite.core.errors.BadInputError` naming ``file:line``; with ``skip_bad`` it is skipped and counted
instead. Documents given as dicts follow the same rules (``docs[i]: reason``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lingualite.core.errors import BadInputError, LinguaLiteError
from lingualite.core.strict_json import loads, non_finite_path
from lingualite.data.lines import iter_checked_line_chunks
from lingualite.text.sanitation import TextProblem, strings_problem

__all__ = ["FORMATS", "Doc", "ReadStats", "check_source", "iter_documents"]

FORMATS = (".txt", ".tsv", ".jsonl")


@dataclass(frozen=True)
class Doc:
    doc_id: str
    text: str
    metadata: dict[str, Any]
    where: str  # "file:line" or "docs[i]", for error messages


@dataclass
class ReadStats:
    read: int = 0
    skipped: int = 0
    first_skipped: list[str] = field(default_factory=list)  # up to 5 "file:line: reason" for the report

    def skip(self, error: Exception) -> None:
        self.skipped += 1
        if len(self.first_skipped) < 5:
            self.first_skipped.append(str(error))


def _check(doc_id: Any, text: Any) -> tuple[str, str]:
    if isinstance(doc_id, bool) or not isinstance(doc_id, str | int):
        raise ValueError(f"the id must be a string or an integer, not {type(doc_id).__name__}")
    doc_id = str(doc_id)
    if not doc_id.strip():
        raise ValueError("empty id")
    if not isinstance(text, str):
        raise ValueError(f"the text must be a string, not {type(text).__name__}")
    if not text.strip():
        raise ValueError("empty text")
    return doc_id, text


def _from_dict(obj: Any) -> tuple[str, str, dict[str, Any]]:
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object with id and text, got {type(obj).__name__}")
    missing = [key for key in ("id", "text") if key not in obj]
    if missing:
        raise ValueError(f"no {' and no '.join(repr(k) for k in missing)} key")
    problem = strings_problem(obj)
    if problem is not None:
        raise problem
    where = non_finite_path(obj)
    if where is not None:
        raise ValueError(f"{where} is not a finite number; JSON has no NaN or Infinity")
    doc_id, text = _check(obj["id"], obj["text"])
    return doc_id, text, {k: v for k, v in obj.items() if k not in ("id", "text")}


def _parse_tsv(line: str, header: list[str] | None) -> tuple[str, str, dict[str, Any]]:
    fields = line.split("\t")
    if len(fields) < 2:
        raise ValueError("expected id<TAB>text (no tab found)")
    doc_id, text = _check(fields[0], fields[1])
    names = header[2:] if header else []
    extra = {(names[i] if i < len(names) else f"col{i + 3}"): value for i, value in enumerate(fields[2:])}
    return doc_id, text, extra


def _is_header(line: str) -> bool:
    fields = [f.strip().lower() for f in line.split("\t")]
    return len(fields) >= 2 and fields[0] == "id" and fields[1] == "text"


def _parse_line(
    kind: str, number: int, line: str, header: list[str] | None
) -> tuple[str, str, dict[str, Any]]:
    if kind == ".txt":
        return str(number), line, {}
    if kind == ".tsv":
        return _parse_tsv(line, header)
    try:
        obj = loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg} at column {exc.colno})") from exc
    except ValueError as exc:  # NaN, Infinity, a number that overflows
        raise ValueError(f"not strict JSON: {exc}") from exc
    return _from_dict(obj)


def _iter_file(path: Path, chunk: int, stats: ReadStats, skip_bad: bool) -> Iterator[list[Doc]]:
    kind = path.suffix.lower()
    number, header = 0, None
    for lines in iter_checked_line_chunks(path, chunk):
        out: list[Doc] = []
        for line in lines:
            number += 1
            if isinstance(line, str) and not line.strip():
                continue
            if kind == ".tsv" and number == 1 and isinstance(line, str) and _is_header(line):
                header = line.split("\t")
                continue
            try:
                if isinstance(line, TextProblem):  # invalid UTF-8, a NUL byte
                    raise line
                doc_id, text, meta = _parse_line(kind, number, line, header)
            except ValueError as exc:
                error = BadInputError(path, number, str(exc))
                if not skip_bad:
                    raise error from None
                stats.skip(error)
                continue
            stats.read += 1
            out.append(Doc(doc_id, text, meta, f"{path}:{number}"))
        if out:
            yield out


def _iter_list(
    docs: list[dict[str, Any]], chunk: int, stats: ReadStats, skip_bad: bool
) -> Iterator[list[Doc]]:
    for start in range(0, len(docs), chunk):
        out: list[Doc] = []
        for i, obj in enumerate(docs[start : start + chunk], start):
            try:
                doc_id, text, meta = _from_dict(obj)
            except ValueError as exc:
                error = LinguaLiteError(f"docs[{i}]: {exc}")
                if not skip_bad:
                    raise error from None
                stats.skip(error)
                continue
            stats.read += 1
            out.append(Doc(doc_id, text, meta, f"docs[{i}]"))
        if out:
            yield out


def iter_documents(
    source: str | Path | list[dict[str, Any]],
    chunk: int = 4096,
    skip_bad: bool = False,
    stats: ReadStats | None = None,
) -> Iterator[list[Doc]]:
    """The documents of ``source`` (a file of a format in :data:`FORMATS`, or a list of dicts) in lists of at
    most ``chunk``; ``stats`` (when given) counts what was read and skipped."""
    check_source(source)
    stats = stats if stats is not None else ReadStats()
    if isinstance(source, list):
        return _iter_list(source, chunk, stats, skip_bad)
    return _iter_file(Path(source), chunk, stats, skip_bad)


def check_source(source: str | Path | list[dict[str, Any]]) -> None:
    """Fail early (before a model is loaded) on a source that cannot be read: a missing file, a folder, an
    unknown format."""
    if isinstance(source, list):
        return
    if not isinstance(source, str | Path):
        raise LinguaLiteError(f"documents must be a file or a list of dicts, not {type(source).__name__}")
    path = Path(source)
    if path.suffix.lower() not in FORMATS:
        raise LinguaLiteError(f"{path}: unknown input format {path.suffix!r}; use {', '.join(FORMATS)}")
    if not path.is_file():
        raise LinguaLiteError(f"{path}: {'is a directory' if path.is_dir() else 'does not exist'}")
