"""The config reference, generated from the typed config classes (:mod:`lingualite.config`): every section
and key of every recipe with its type, default, allowed range and meaning. Meanings are the ``:param:`` lines
of the section classes' docstrings (a subclass's first, then its bases'), so a key documented once reads the
same in every recipe; :func:`undocumented` lists keys without one (a test keeps it empty)."""

from __future__ import annotations

import dataclasses
import inspect
import re
import types
import typing
from typing import Any

from tools.docsgen.markdown import MISSING, banner, table

PATH = "docs/reference/config.md"
PAPERS = {"parallel": "paper 000", "distill": "paper 002", "monolingual": "paper 001"}
PARAM = re.compile(r":param ([\w, ]+):(.*?)(?=\n:param |\Z)", re.S)


def _markdown(text: str) -> str:
    """Docstring prose as one Markdown line: reST roles and double backticks become code spans."""
    text = re.sub(r":\w+:`~?([^`]+)`", r"`\1`", text)
    return " ".join(re.sub(r"``([^`]+)``", r"`\1`", text).split()).replace("<", "&lt;")


def _own_doc(klass: type) -> str:
    """A class's own docstring, or "" (a dataclass without one gets its signature as ``__doc__``)."""
    doc = klass.__dict__.get("__doc__") or ""
    return "" if doc.startswith(f"{klass.__name__}(") else inspect.cleandoc(doc)


def meanings(cls: type) -> dict[str, str]:
    """Key -> meaning, from the ``:param NAME:`` lines of ``cls`` and its bases (nearest class first)."""
    found: dict[str, str] = {}
    for klass in cls.__mro__:
        for match in PARAM.finditer(_own_doc(klass)):
            for name in match.group(1).split(","):
                found.setdefault(name.strip(), _markdown(match.group(2)))
    return found


def _intro(cls: type) -> str:
    for klass in cls.__mro__:
        text = _own_doc(klass).split(":param", 1)[0].strip()
        if text:
            return _markdown(text)
    return ""


def _type(hint: Any) -> str:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        words = [_type(a) for a in args if a is not type(None)]
        words += ["null"] if type(None) in args else []
        return ", ".join(words[:-1]) + " or " + words[-1]
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        return f"list of {_type(args[0])}" if args else "list"
    names = {bool: "boolean", int: "integer", float: "number", str: "text"}
    return names.get(hint, getattr(hint, "__name__", str(hint)))


def _yaml(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_yaml(v) for v in value) + "]"
    if isinstance(value, float) and (abs(value) >= 1e4 or (value and abs(value) < 1e-3)):
        return f"{value:g}"
    return str(value)


def _default(f: dataclasses.Field) -> str:
    if f.default is not dataclasses.MISSING:
        return f"`{_yaml(f.default)}`"
    if f.default_factory is not dataclasses.MISSING:
        return f"`{_yaml(f.default_factory())}`"
    return MISSING


def _bound(value: float) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def _range(cls: type, name: str, hint: Any) -> str:
    from lingualite.config.parsing import field_range

    numeric = {int, float} & {hint, *typing.get_args(hint)}
    if not numeric or hint is bool:
        return ""
    low, high, exclusive = field_range(cls, name)
    parts = [f"{'>' if exclusive else '≥'} {_bound(low)}"] if low is not None else []
    parts += [f"≤ {_bound(high)}"] if high is not None else []
    return ", ".join(parts)


def _rows(cls: type, prefix: str) -> list[tuple[str, str, str, str, str]]:
    hints, about = typing.get_type_hints(cls), meanings(cls)
    rows = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if dataclasses.is_dataclass(hint):
            continue
        rows.append(
            (
                f"`{prefix}{f.name}`",
                _type(hint),
                _default(f),
                _range(cls, f.name, hint),
                about.get(f.name, ""),
            )
        )
    return rows


def _recipe(mode: str, cls: type) -> list[str]:
    hints = typing.get_type_hints(cls)
    lines = [f"## `mode: {mode}` ({PAPERS[mode]})", "", _intro(cls), ""]
    head = ("key", "type", "default", "allowed", "meaning")
    lines += table(head, _rows(cls, "")) + [""]
    for f in dataclasses.fields(cls):
        section = hints[f.name]
        if dataclasses.is_dataclass(section):
            lines += [f"### `{f.name}` ({mode})", "", _intro(section), ""]
            lines += table(head, _rows(section, f"{f.name}.")) + [""]
    return lines


def _shipped() -> list[str]:
    from lingualite.config import config_mode
    from lingualite.config.parsing import BUILTIN_CONFIGS

    rows = []
    for path in sorted(BUILTIN_CONFIGS.glob("*.yaml")):
        first = next((ln[1:].strip() for ln in path.read_text().splitlines() if ln.startswith("#")), "")
        rows.append((f"`{path.stem}`", f"`{config_mode(path)}`", first))
    return table(("name", "mode", "what it is (the file's first comment)"), rows)


def _renamed() -> list[str]:
    from lingualite.config.parsing import RENAMED_KEYS

    rows = [
        (f"`{mode}`", f"`{old}`", f"`{new}`") for mode, pairs in RENAMED_KEYS.items() for old, new in pairs
    ]
    return table(("mode", "old key", "read as"), rows)


def render() -> str:
    from lingualite.config import CONFIG_CLASSES

    lines = [
        banner("the config classes in `src/lingualite/config/`"),
        "",
        "# Config reference",
        "",
        "A config is a YAML file validated into typed dataclasses (`lingualite.load_config`). Its `mode` key "
        "chooses the recipe; every recipe shares the sections `data`, `vocabulary` and `optim` (the same key "
        "means the same thing everywhere; defaults differ by recipe) and adds its own. An unknown key, a value "
        "of the wrong type or out of its allowed range is a one-line error naming the file and the key, at load "
        "time. Any number without a stated range must be finite and ≥ 0. `{data_dir}` in a path is replaced by "
        "`--data-dir` (or `$LINGUALITE_DATA_DIR`, else `data`). `lingualite train --config NAME` takes a shipped "
        "name or a path.",
        "",
        "## Shipped configs",
        "",
        *_shipped(),
        "",
        "Keys renamed in an earlier version are still read under their old names, with a warning:",
        "",
        *_renamed(),
        "",
    ]
    for mode, cls in CONFIG_CLASSES.items():
        lines += _recipe(mode, cls)
    return "\n".join(lines).rstrip() + "\n"


def undocumented() -> list[str]:
    """``mode.section.key`` of every key without a meaning in the docstrings."""
    from lingualite.config import CONFIG_CLASSES

    missing = []
    for mode, cls in CONFIG_CLASSES.items():
        hints = typing.get_type_hints(cls)
        sections = [
            (f.name + ".", hints[f.name])
            for f in dataclasses.fields(cls)
            if dataclasses.is_dataclass(hints[f.name])
        ]
        for prefix, klass in [("", cls), *sections]:
            missing += [f"{mode}.{prefix}{name}" for name in _keys(klass) if name not in meanings(klass)]
    return missing


def _keys(cls: type) -> list[str]:
    hints = typing.get_type_hints(cls)
    return [f.name for f in dataclasses.fields(cls) if not dataclasses.is_dataclass(hints[f.name])]


def pages() -> dict[str, str]:
    return {PATH: render()}


__all__ = ["PATH", "meanings", "pages", "render", "undocumented"]
