"""Strict JSON: what lingualite reads from users and writes for them is JSON as RFC 8259 defines it, without
``NaN``, ``Infinity`` or ``-Infinity``.

Python's :mod:`json` reads and writes those three by default, but they are not JSON: a browser's
``JSON.parse``, ``jq`` and most other parsers refuse the whole document. So

- reading (the ``.jsonl`` input of a search index): :func:`loads` refuses them, and numbers too large for a
  float (``1e999`` would become infinity), naming the value;
- checking (documents given as Python dicts): :func:`non_finite_path` finds a non-finite float;
- writing (``--json`` output, HTTP answers, metadata stored in an index): :func:`dumps` writes ``null`` for a
  non-finite float that could still turn up (an index written by an older version, a metric that is
  undefined), and never writes ``NaN``.
"""

from __future__ import annotations

import json
import math
from typing import Any

__all__ = ["dumps", "finite_or_none", "loads", "non_finite_path", "read_stored"]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number (JSON has no NaN or Infinity)")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is too large (it would be infinity)")
    return value


def loads(text: str | bytes) -> Any:
    """:func:`json.loads` that refuses ``NaN``, ``Infinity``, ``-Infinity`` and numbers that overflow a float:
    :class:`json.JSONDecodeError` for malformed JSON, :class:`ValueError` for those values."""
    return json.loads(text, parse_constant=_refuse_constant, parse_float=_finite_float)


def read_stored(text: str | bytes) -> Any:
    """JSON that lingualite stored itself (an index's metadata): ``NaN`` / ``Infinity`` written by an older
    version are read as ``None`` instead of non-finite floats that could reach an answer."""
    return json.loads(text, parse_constant=lambda _: None)


def non_finite_path(value: Any, path: str = "") -> str | None:
    """Where in ``value`` (dicts and lists, at any depth) the first non-finite float is, as ``key.0.key``
    (``""`` for ``value`` itself), or None when there is none."""
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = non_finite_path(item, f"{path}.{key}" if path else str(key))
        if found is not None:
            return found
    return None


def finite_or_none(value: Any) -> Any:
    """``value`` with every non-finite float (at any depth of dicts, lists and tuples) replaced by ``None``."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: finite_or_none(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_none(v) for v in value]
    return value


def dumps(value: Any, **options: Any) -> str:
    """:func:`json.dumps` of :func:`finite_or_none` ``(value)`` with ``allow_nan=False``: always strict JSON."""
    return json.dumps(finite_or_none(value), allow_nan=False, **options)
