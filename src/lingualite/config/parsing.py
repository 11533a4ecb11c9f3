"""Configs are data: YAML files validated into typed dataclasses, with errors that name the bad key.

Also where a config file is found (a path or a shipped name), how ``{data_dir}`` in its paths is resolved, and
how keys renamed since an earlier release are read (:data:`RENAMED_KEYS`), so old YAML files and the configs
saved in old run folders still load.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import os
import types
import typing
from pathlib import Path
from typing import Any, TypeVar

import yaml

from lingualite.core.errors import ConfigError

T = TypeVar("T")
logger = logging.getLogger(__name__)


def from_dict(cls: type[T], data: dict[str, Any] | None, where: str) -> T:
    """Build dataclass ``cls`` from ``data``; unknown keys and wrong types raise ConfigError naming ``where.key``."""
    data = data or {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where} must be a mapping, got {type(data).__name__}")
    hints = typing.get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(known)}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        hint = hints[name]
        if dataclasses.is_dataclass(hint):
            values[name] = from_dict(hint, value, f"{where}.{name}")  # type: ignore[arg-type]
        else:
            values[name] = _check_type(value, hint, f"{where}.{name}")
    obj = cls(**values)
    _check_ranges(cls, obj, where)
    validate = getattr(obj, "validate", None)
    if callable(validate):
        validate()
    return obj


# (low, high, low_exclusive): a class may declare ``RANGES = {"field": (0.0, 1.0, True)}``; any other number
# must be finite and >= 0 (counts, sizes, rates, weights: no field of a lingualite config is negative).
Range = tuple[float | None, float | None, bool]
_DEFAULT_RANGE: Range = (0, None, False)


def field_range(cls: type, name: str) -> Range:
    """The range a numeric field of config class ``cls`` must lie in (its own or a base class's ``RANGES``,
    else the default: finite and >= 0); the generated config reference shows the same."""
    ranges: dict[str, Range] = {}
    for klass in reversed(cls.__mro__):
        ranges.update(getattr(klass, "RANGES", {}))
    return ranges.get(name, _DEFAULT_RANGE)


def _check_ranges(cls: type, obj: Any, where: str) -> None:
    """Every numeric field finite and inside its range, checked at load time (one line naming the key)."""
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        key = f"{where}.{f.name}"
        if not math.isfinite(value):
            raise ConfigError(f"{key}: must be a finite number, got {value!r}")
        low, high, exclusive = field_range(cls, f.name)
        if low is not None and (value <= low if exclusive else value < low):
            raise ConfigError(f"{key}: must be {'>' if exclusive else '>='} {low}, got {value!r}")
        if high is not None and value > high:
            raise ConfigError(f"{key}: must be <= {high}, got {value!r}")


def _describe(options: tuple[Any, ...]) -> str:
    """The allowed values of a union, in words: "one of ['auto'], a number or null"."""
    choices = [c for o in options if typing.get_origin(o) is typing.Literal for c in typing.get_args(o)]
    words = [f"one of {choices}"] if choices else []
    names = {int: "a whole number", float: "a number", str: "a string", bool: "true or false"}
    for o in options:
        if o is type(None):
            continue
        if typing.get_origin(o) is not typing.Literal:
            words.append(names.get(o, f"a {getattr(o, '__name__', o)}"))
    if type(None) in options:
        words.append("null")
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else words[0]


def _check_type(value: Any, hint: Any, where: str) -> Any:
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        for arg in args:
            try:
                return _check_type(value, arg, where)
            except ConfigError:
                continue
        raise ConfigError(f"{where}: {value!r} is not {_describe(args)}")
    if origin is typing.Literal:
        if value not in args:
            raise ConfigError(f"{where}: {value!r} is not one of {list(args)}")
        return value
    if origin is list:
        if not isinstance(value, list):
            raise ConfigError(f"{where}: expected a list, got {value!r}")
        return [_check_type(v, args[0], f"{where}[{i}]") for i, v in enumerate(value)] if args else value
    if hint is type(None):
        if value is not None:
            raise ConfigError(f"{where}: expected null, got {value!r}")
        return value
    if hint is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if hint in (int, float, str, bool) and not (
        isinstance(value, hint) and not (hint is int and isinstance(value, bool))
    ):
        raise ConfigError(f"{where}: expected {hint.__name__}, got {value!r}")
    return value


def load_yaml(path: str | Path) -> dict[str, Any]:
    """Read a YAML mapping, with a one-line error naming the file on a syntax error."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: config file not found") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not a UTF-8 text file (byte {exc.start})") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config ({exc.strerror or exc})") from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = " ".join(str(getattr(exc, "problem", None) or exc).split())  # YAML's messages span lines
        raise ConfigError(f"{path}{line}: invalid YAML ({problem})") from exc
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping at the top level")
    return data


DATA_DIR_ENV = "LINGUALITE_DATA_DIR"
DATA_DIR_PLACEHOLDER = "{data_dir}"


def default_data_dir() -> Path:
    """The data directory: ``$LINGUALITE_DATA_DIR`` if set, else ``data`` (relative to the current directory)."""
    return Path(os.environ.get(DATA_DIR_ENV) or "data")


def with_data_dir(obj: T, data_dir: str | Path | None = None) -> T:
    """Replace ``{data_dir}`` in every string of a config (nested dataclasses, lists) by ``data_dir``
    (default: :func:`default_data_dir`), in place; returns ``obj``.

    Shipped configs name their data as ``{data_dir}/prepared/*/train.tsv``, so they work from any directory
    once ``--data-dir`` (or ``$LINGUALITE_DATA_DIR``) points at the fetched data."""
    root = str(Path(data_dir) if data_dir is not None else default_data_dir())

    def resolve(value: Any) -> Any:
        if isinstance(value, str):
            return value.replace(DATA_DIR_PLACEHOLDER, root)
        if isinstance(value, list):
            return [resolve(v) for v in value]
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            for f in dataclasses.fields(value):
                setattr(value, f.name, resolve(getattr(value, f.name)))
        return value

    resolve(obj)
    return obj


BUILTIN_CONFIGS = Path(__file__).resolve().parent.parent / "configs"


def resolve_config_path(name_or_path: str | Path) -> Path:
    """A path to a YAML file, or the name of a shipped config (``quickstart``, ``paper``, ``distill``, ...)."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    builtin = BUILTIN_CONFIGS / f"{name_or_path}.yaml"
    if builtin.exists():
        return builtin
    shipped = sorted(p.stem for p in BUILTIN_CONFIGS.glob("*.yaml"))
    raise ConfigError(f"{name_or_path}: no such config file, and not a shipped config ({', '.join(shipped)})")


# Keys renamed when the three recipes got one set of shared sections (old -> new, applied in order; a
# section rename first). Old files keep loading, with one warning per renamed key.
RENAMED_KEYS: dict[str, tuple[tuple[str, str], ...]] = {
    "parallel": (
        ("tokenizer", "vocabulary"),
        ("vocabulary.vocab_size", "vocabulary.size"),
        ("data.valid_xsr_pairs", "data.valid_pairs"),
        ("optim.seed", "seed"),
    ),
    "distill": (
        ("optim.seed", "seed"),
        ("data.max_seq_length", "student.max_seq_length"),
    ),
    "monolingual": (
        ("tokenizer", "vocabulary"),
        ("vocabulary.vocab_size", "vocabulary.size"),
        ("classification.steps", "classification.max_steps"),
        ("regression.steps", "regression.max_steps"),
    ),
}


def _pop(data: dict[str, Any], dotted: str) -> tuple[bool, Any]:
    *parents, key = dotted.split(".")
    node: Any = data
    for part in parents:
        node = node.get(part) if isinstance(node, dict) else None
    if isinstance(node, dict) and key in node:
        return True, node.pop(key)
    return False, None


def migrate_keys(data: dict[str, Any], mode: str, where: str, warn: bool = True) -> dict[str, Any]:
    """``data`` (a parsed config mapping, not changed) with keys renamed since an earlier release moved to
    their new names; both names given is an error naming them. ``warn``: one warning per renamed key."""
    data = {k: dict(v) if isinstance(v, dict) else v for k, v in data.items()}
    for old, new in RENAMED_KEYS.get(mode, ()):
        found, value = _pop(data, old)
        if not found:
            continue
        *parents, key = new.split(".")
        node = data
        for part in parents:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"{where}.{part} must be a mapping")
        if key in node:
            raise ConfigError(
                f"{where}: both {old} and {new} are set; {old} is the old name of {new}, keep one"
            )
        node[key] = value
        if warn:
            logger.warning("%s: %s is now called %s (read as such)", where, old, new)
    return data
