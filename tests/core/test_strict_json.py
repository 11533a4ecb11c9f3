"""Strict JSON (lingualite.core.strict_json): NaN and Infinity are refused on the way in and never written out."""

from __future__ import annotations

import json
import math

import pytest

from lingualite.core.strict_json import dumps, finite_or_none, loads, non_finite_path, read_stored


@pytest.mark.parametrize("text", ['{"a": NaN}', "[Infinity]", '{"a": -Infinity}', '{"a": 1e999}'])
def test_loads_refuses_what_is_not_json(text: str) -> None:
    with pytest.raises(ValueError, match="NaN or Infinity|too large"):
        loads(text)


def test_loads_reads_json() -> None:
    assert loads('{"a": [1, 2.5, -1e300, null, "x"]}') == {"a": [1, 2.5, -1e300, None, "x"]}
    with pytest.raises(json.JSONDecodeError):
        loads("{")


def test_writing_is_always_strict_json() -> None:
    value = {"score": math.nan, "rows": [1.0, math.inf, (2.0, -math.inf)], "ok": "NaN"}
    assert finite_or_none(value) == {"score": None, "rows": [1.0, None, [2.0, None]], "ok": "NaN"}
    assert json.loads(dumps(value)) == {"score": None, "rows": [1.0, None, [2.0, None]], "ok": "NaN"}
    assert non_finite_path(value) == "score"
    assert non_finite_path({"a": [1.0, {"b": math.inf}]}) == "a.1.b"
    assert non_finite_path({"a": [1, "x", None]}) is None


def test_stored_nan_from_an_older_version_reads_as_null() -> None:
    assert read_stored('{"a": NaN, "b": [Infinity, 1]}') == {"a": None, "b": [None, 1]}
