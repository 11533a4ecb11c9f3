"""Fuzzing the config loaders: any YAML a user may write gives a config or one clear line, never a traceback."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from lingualite.config import load_config, load_distill_config, load_monolingual_config, load_training_config
from lingualite.config.parsing import BUILTIN_CONFIGS
from lingualite.core.errors import LinguaLiteError

pytestmark = pytest.mark.slow  # fuzzing campaign: left out of the fast tier

SHIPPED = {p.stem: yaml.safe_load(p.read_text()) for p in sorted(BUILTIN_CONFIGS.glob("*.yaml"))}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**12), 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def _paths(data: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    if not isinstance(data, dict):
        return [prefix]
    out = [prefix] if prefix else []
    for key, value in data.items():
        out += _paths(value, (*prefix, str(key)))
    return out


@st.composite
def mutated_configs(draw: st.DrawFn) -> tuple[str, Any]:
    name = draw(st.sampled_from(sorted(SHIPPED)))
    data = copy.deepcopy(SHIPPED[name])
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data) if isinstance(data, dict) else [()]
        path = draw(st.sampled_from(paths)) if paths else ()
        new_key = draw(st.booleans())
        value = draw(values)
        if not path:
            data = value if draw(st.booleans()) else data
            continue
        node = data
        for key in path[:-1]:
            node = node[key]
        if new_key and isinstance(node, dict):
            node[draw(st.text(min_size=1, max_size=8))] = value
        elif isinstance(node, dict):
            node[path[-1]] = value
    return name, data


def _load(name: str, path: Path) -> object:
    return load_config(path)  # one loader for every recipe: the mode (or its absence) chooses the class


@given(mutated_configs())
def test_mutated_shipped_configs_load_or_fail_in_one_line(case: tuple[str, Any]) -> None:
    name, data = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True))
        try:
            _load(name, path)
        except LinguaLiteError as exc:
            assert "\n" not in str(exc) and str(exc)


@given(st.text(max_size=200))
def test_any_text_as_a_config_file(text: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "c.yaml"
        path.write_text(text, encoding="utf-8")
        for loader in (load_config, load_training_config, load_distill_config, load_monolingual_config):
            try:
                loader(path)
            except LinguaLiteError as exc:
                assert "\n" not in str(exc)
